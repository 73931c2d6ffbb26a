// compare.mjs -- the games' WebAssembly build (build/wasm/engine.wasm, through
// the page's own wrapper web/src/engine/engine.ts) against the same C built
// natively (build/wasm/engine_cli): random games of every variant, and at
// every ply the position, the side to move, the legal moves, the result,
// the threats, each side's view in hidden games, and for the move played
// its words and effects. Every answer of the two builds must be equal, byte
// for byte, the four-sided search of Keeps & Moats's style bots included.
// The search, on `citadel bench`'s positions, must find what `citadel bench`
// finds, node for node, and the best move `citadel uci` names at that depth. Then the wrapper's own reading of those answers is checked
// against what it read them from, the page's notation readers against what
// the engine says stands where, and bad input is refused by both alike.
//
//   node tests/wasm/compare.mjs [GAMES_PER_VARIANT] [MAX_PLIES]
// Prints TAP, as every tier of tests/run.sh does: "ok N - NAME" or "not ok N -
// NAME" (why as a "# " line) per check, then the plan; exit status 1 on a failure.
import { build } from 'esbuild';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createInterface } from 'node:readline';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const games = Number(process.argv[2] ?? 12);
const maxPlies = Number(process.argv[3] ?? 400);

const tmp = mkdtempSync(join(tmpdir(), 'citadel-wasm-'));
const wrapper = join(tmp, 'engine.mjs');
await build({
  entryPoints: [join(root, 'web', 'src', 'engine', 'engine.ts')],
  bundle: true, format: 'esm', platform: 'node', outfile: wrapper, logLevel: 'warning',
});
const { Engine, EngineError } = await import(pathToFileURL(wrapper).href);
const engine = await Engine.load(readFileSync(join(root, 'build', 'wasm', 'engine.wasm')));

let failed = 0, checks = 0;
const ok = (name) => console.log(`ok ${++checks} - ${name}`);
const fail = (name, why) => {
  failed++;
  console.log(`not ok ${++checks} - ${name}\n# ${String(why).replace(/\n/g, '\n# ')}`);
};

// A small seeded generator (xorshift32), so a failure can be played again.
function rng(seed) {
  let x = seed >>> 0 || 1;
  return (n) => {
    x ^= x << 13; x >>>= 0; x ^= x >>> 17; x ^= x << 5; x >>>= 0;
    return x % n;
  };
}

// Runs engine_cli's commands on the WebAssembly build, answering as it does.
function wasmAnswer(line) {
  const [cmd, ...f] = line.split(' ');
  const n = (i) => Number(f[i]);
  const text = (k) => f.slice(k).join(' ');
  const calls = {
    variants: () => engine.raw('eng_variants', []),
    set: () => engine.raw('eng_set', [n(0), n(1)], text(2)),
    copy: () => engine.raw('eng_copy', [n(0), n(1)]),
    format: () => engine.raw('eng_format', [n(0)]),
    stm: () => ({ rc: engine.raw('eng_side_to_move', [n(0)]).rc, text: '' }),
    moves: () => engine.raw('eng_moves', [n(0)]),
    play: () => engine.raw('eng_play', [n(0)], text(1)),
    result: () => engine.raw('eng_result', [n(0)]),
    option: () => engine.raw('eng_set_option', [n(0), n(1)], text(2)),
    view: () => engine.raw('eng_view', [n(0), n(1), n(2)]),
    describe: () => engine.raw('eng_describe', [n(0)], text(1)),
    effects: () => engine.raw('eng_effects', [n(0)], text(1)),
    threats: () => engine.raw('eng_threats', [n(0)]),
    search: () => engine.raw('eng_search', [n(0), n(1), n(2), n(3)]),
    lines: () => engine.raw('eng_lines', [n(0), n(1), n(2), n(3)]),
    multi: () => engine.raw('eng_multi', [n(0), n(1), n(2), n(3)]),
    multifor: () => engine.raw('eng_multi_for', [n(0), n(1), n(2), n(3), n(4)]),
    bot: () => engine.raw('eng_bot', [n(0), n(1), n(2)]),
    botlines: () => engine.raw('eng_bot_lines', [n(0), n(1), n(2), n(3)]),
    belief: () => engine.raw('eng_belief', [n(0)]),
    options: () => engine.raw('eng_options', [n(0)]),
    kinds: () => engine.raw('eng_kinds', [n(0)]),
    areas: () => engine.raw('eng_areas', [n(0)]),
    squares: () => engine.raw('eng_squares', [n(0)]),
  };
  const r = calls[cmd]();
  return `${r.rc}\t${r.text.replaceAll('\n', '|')}`;
}

function nativeAnswers(lines) {
  const p = spawnSync(join(root, 'build', 'wasm', 'engine_cli'), {
    input: lines.join('\n') + '\n', encoding: 'utf8', maxBuffer: 1 << 30,
  });
  if (p.status !== 0) throw new Error(`engine_cli: ${p.stderr || p.status}`);
  return p.stdout.split('\n').slice(0, lines.length);
}

// Compares the two builds over a list of commands, the wasm answers kept.
function compare(name, lines, answers) {
  const native = nativeAnswers(lines);
  for (let i = 0; i < lines.length; i++)
    if (native[i] !== answers[i]) {
      fail(name, `after ${i} commands, '${lines[i]}': ` +
        `native '${native[i]?.slice(0, 200)}', WebAssembly '${answers[i].slice(0, 200)}'`);
      return false;
    }
  return true;
}

// --- random games -------------------------------------------------------------
let plies = 0;
let botCalls = 0, botAnswers = 0;
const readings = [];  // every position's text and what the engine says stands where
/** eng_squares's answer less its empty squares and lakes: "SQ PIECE ...". */
const occupied = (answer) => {
  const f = answer.split('\t')[1].split(' '), out = [];
  for (let i = 0; i + 1 < f.length; i += 2) if (f[i + 1] !== '.' && f[i + 1] !== '~') out.push(f[i], f[i + 1]);
  return out.join(' ');
};  // the game's own bot asked while the game went on, and answering
for (const v of engine.variants()) {
  const name = `random games of ${v.name}`;
  let all = true;
  for (let g = 0; g < games && all; g++) {
    const pick = rng(1000 * g + v.name.length + 7);
    const lines = [], answers = [];
    const run = (line) => {
      lines.push(line);
      answers.push(wasmAnswer(line));
      return answers[answers.length - 1];
    };
    run(`set 0 ${g} ${v.name}`);
    run('options 0');
    run('kinds 0');
    run('areas 0');
    for (let ply = 0; ply < maxPlies; ply++) {
      const text = run('format 0').split('\t')[1];
      const stm = Number(run('stm 0').split('\t')[0]);
      readings.push({ family: v.family, text, stm, pieces: occupied(run('squares 0')) });
      run('result 0');
      run('threats 0');
      for (let s = -1; v.hidden && s < v.sides; s++) {
        run(`view 0 ${s} 1`);
        const seen = run('format 1').split('\t')[1];
        readings.push({ family: v.family, text: seen, stm, pieces: occupied(run('squares 1')) });
        run('moves 1');
      }
      if (v.sides > 2 && ply % 20 === 0) {  // the four-sided search, for the mover and another
        run(`multi 0 2 0 ${ply % 3}`);
        run(`multifor 0 2 0 1 ${(stm + 3) % v.sides}`);
      }
      if (v.hidden && ply % 15 === 0) {  // the game's own bot: on a view, and on the whole
        run('stm 0');
        const side = Number(answers[answers.length - 1].split('\t')[0]);
        run(`view 0 ${side} 2`);
        const said = [run('belief 2'), run('bot 2 0 3000'), run('bot 0 0 3000')];
        if (ply % 45 === 0) run('botlines 2 0 3000 3');  // several lines: the same on both builds
        if (/\t0 -1 -$/.test(run('result 0'))) {
          botCalls += 3;
          botAnswers += said.filter((a) => /^[1-9]\d*\t\S/.test(a)).length;
        }
      }
      const moves = run('moves 0').split('\t')[1];
      if (!moves) break;
      const list = moves.split(' ');
      const move = list[pick(list.length)];
      run(`describe 0 ${move}`);
      run(`effects 0 ${move}`);
      run(`play 0 ${move}`);
      plies++;
    }
    all = compare(name, lines, answers);
  }
  if (all) ok(name);
}
console.log(`# ${plies} plies compared`);
if (botCalls > 0 && botAnswers === botCalls) ok(`the hidden game's bot and belief answer (${botCalls} calls)`);
else fail('the hidden game\'s bot and belief answer', `${botAnswers} of ${botCalls} calls answered`);

// --- the page's readers of position strings --------------------------------------
// web/src/games/rampart/notation.ts, stratego/notation.ts and keeps/notation.ts turn the
// engine's reading of a position (engine/read.ts, eng_squares) into the
// boards the page draws. Each board, written back out square by square,
// must be what the engine lists for every position and view of the random
// games, with the same side to move.
{
  const name = "the page's boards are the engine's reading";
  const readers = join(tmp, 'readers.mjs');
  await build({
    stdin: { contents: `export * as rampart from './web/src/games/rampart/notation.ts';
      export * as stratego from './web/src/games/stratego/notation.ts';
      export * as keeps from './web/src/games/keeps/notation.ts';
      export { useEngine } from './web/src/engine/read.ts';`, resolveDir: root, loader: 'ts' },
    bundle: true, format: 'esm', platform: 'node', outfile: readers, logLevel: 'warning',
  });
  const { rampart, stratego, keeps, useEngine } = await import(pathToFileURL(readers).href);
  useEngine(engine);  // the page's readers read through the engine, as the page's do
  const read = {
    rampart(text) {
      const p = rampart.parsePosition(text);
      const out = [];
      for (let row = p.height - 1; row >= 0; row--)
        for (let file = 0; file < p.width; file++) {
          const x = p.squares[row * p.width + file];
          if (x) out.push(rampart.squareName(file, row), x.side === 'b' ? x.kind : x.kind.toLowerCase());
        }
      return { pieces: out.join(' '), stm: p.toMove === 'b' ? 0 : 1 };
    },
    stratego(text) {
      const v = stratego.parseView(text);
      const out = [];
      for (let row = stratego.SIZE - 1; row >= 0; row--)
        for (let file = 0; file < stratego.SIZE; file++) {
          const c = v.cells[row * stratego.SIZE + file];
          if (!c || c === 'lake') continue;
          const letter = c.side === stratego.RED ? c.kind : c.kind.toLowerCase();
          out.push(stratego.squareName(file, row),
            letter + (c.revealed ? '*' : '') + (c.scout ? '^' : c.moved ? '+' : ''));
        }
      return { pieces: out.join(' '), stm: v.toMove };
    },
    'keeps-moats'(text) {
      const p = keeps.parsePosition(text);
      const out = [];
      for (const sq of keeps.ALL_SQUARES) {
        const x = p.board.get(sq);
        if (x) out.push(sq, keeps.KINGDOM_LETTERS[x.kingdom] + x.kind);
      }
      return { pieces: out.join(' '), stm: p.toMove };
    },
  };
  let bad = readings.length ? '' : 'no positions read';
  for (const r of readings) {
    if (bad) break;
    let got;
    try {
      got = read[r.family](r.text);
    } catch (e) {
      bad = `${r.family} '${r.text}': ${e.message}`;
      break;
    }
    if (got.pieces !== r.pieces) bad = `${r.family} '${r.text}': the page reads '${got.pieces.slice(0, 120)}', the engine lists '${r.pieces.slice(0, 120)}'`;
    else if (got.stm !== r.stm) bad = `${r.family} '${r.text}': the page reads side ${got.stm} to move, the engine ${r.stm}`;
  }
  if (bad) fail(name, bad);
  else ok(`${name} (${readings.length} positions and views)`);
}

// --- the search ---------------------------------------------------------------
// `citadel bench`'s positions (read from src/cli/bench.c) searched to its
// depth by the WebAssembly build: the same best move, score and node count
// as `citadel bench` prints, and the same principal variation as the
// native build of the page's engine.
{
  const name = 'the search of citadel bench, in WebAssembly';
  const src = readFileSync(join(root, 'src', 'cli', 'bench.c'), 'utf8');
  const at = src.indexOf('positions[] = {');
  const table = src.slice(at, src.indexOf('};', at));
  const list = [...table.matchAll(/\{ "([a-z-]+)", "([^"]+)" \}/g)]
    .map((m) => ({ variant: m[1], fen: m[2] }));
  const header = readFileSync(join(root, 'src', 'cli', 'bench.h'), 'utf8');
  const depth = Number(/#define BENCH_DEPTH (\d+)/.exec(header)?.[1]);
  const bench = spawnSync(join(root, 'build', 'release', 'citadel'), ['bench'],
    { encoding: 'utf8' });
  const rows = [...bench.stdout.matchAll(/bestmove (\S+)\s+score\s+(-?\d+)\s+nodes (\d+)/g)];
  const lines = [], answers = [];
  for (const p of list) {
    for (const line of [`set 0 0 ${p.variant} ${p.fen}`, `search 0 ${depth} 0 16`]) {
      lines.push(line);
      answers.push(wasmAnswer(line));
    }
  }
  let bad = list.length === 0 || rows.length !== list.length || !depth
    ? `${list.length} positions, ${rows.length} bench rows, depth ${depth}` : '';
  for (let i = 0; !bad && i < list.length; i++) {
    const [best, score, , nodes] = answers[2 * i + 1].split('\t')[1].split(' ');
    if (best !== rows[i][1] || score !== rows[i][2] || nodes !== rows[i][3])
      bad = `position ${i + 1}: WebAssembly ${best} ${score} ${nodes}, ` +
        `citadel bench ${rows[i][1]} ${rows[i][2]} ${rows[i][3]}`;
  }
  if (bad) fail(name, bad);
  else if (compare(name, lines, answers)) ok(name);

  // `citadel uci` (its go on each position after ucinewgame, to the same
  // depth) names the same best move as the browser's engine
  const uciName = 'the best move of citadel uci, in WebAssembly';
  const uci = spawn(join(root, 'build', 'release', 'citadel'), ['uci'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lineReader = createInterface({ input: uci.stdout });
  const waiting = [];
  lineReader.on('line', (l) => {
    if (waiting.length && waiting[0].re.test(l)) waiting.shift().resolve(l);
  });
  const expect = (re) => new Promise((resolve) => waiting.push({ re, resolve }));
  const say = (text) => uci.stdin.write(`${text}\n`);
  let uciBad = '';
  say('uci');
  await expect(/^uciok$/);
  for (let i = 0; !uciBad && i < list.length; i++) {
    const p = list[i];
    say(`setoption name UCI_Variant value ${p.variant}`);
    say('ucinewgame');
    say(`position fen ${p.fen}`);
    say(`go depth ${depth}`);
    const got = (await expect(/^bestmove /)).split(' ')[1];
    const wasmBest = answers[2 * i + 1].split('\t')[1].split(' ')[0];
    if (got !== wasmBest) uciBad = `position ${i + 1} (${p.variant}): citadel uci ${got}, WebAssembly ${wasmBest}`;
  }
  say('quit');
  if (uciBad || !list.length) fail(uciName, uciBad || 'no positions');
  else ok(`${uciName} (${list.length} positions, depth ${depth})`);

  // several lines (MultiPV): alike in both builds, three different first
  // moves on every position, best first
  const multi = 'several best lines, in WebAssembly';
  const mlines = [], manswers = [];
  for (const p of list)
    for (const line of [`set 0 0 ${p.variant} ${p.fen}`, 'lines 0 5 16 3']) {
      mlines.push(line);
      manswers.push(wasmAnswer(line));
    }
  let wrong = '';
  for (let i = 1; !wrong && i < manswers.length; i += 2) {
    const got = manswers[i].split('\t')[1].split('|').map((l) => l.split(' '));
    const firsts = new Set(got.map((l) => l[0]));
    const scores = got.map((l) => Number(l[1]));
    if (got.length !== 3 || firsts.size !== 3 || scores.some((x, k) => k && x > scores[k - 1]))
      wrong = `position ${(i + 1) / 2}: ${manswers[i]}`;
  }
  if (wrong) fail(multi, wrong);
  else if (compare(multi, mlines, manswers)) ok(multi);
}

// --- refusals -----------------------------------------------------------------
{
  const bad = [
    'set 0 0 chess', 'set 0 0 rampart 9/9/9 b 1', 'set 70 0 rampart', 'set -1 0 rampart',
    'format 63', 'moves 64', 'set 0 0 rampart', 'play 0 a1a9', 'play 0 zz', 'play 0 ',
    'describe 0 q9q9', 'effects 0 b1', 'option 0 5 NoSuchSetting', 'option 0 -7 MoveLimit',
    'view 0 5 1', 'view 0 0 99', 'copy 0 64', 'set 0 0 ' + 'x'.repeat(60000),
    'search 0 0 0 16', 'search 0 5 0 0', 'search 0 500 0 16', 'set 1 0 stratego', 'search 1 3 0 1',
    'multi 0 2 0 0', 'set 2 0 keeps-moats', 'multi 2 0 0 0', 'multi 2 17 0 0', 'multi 2 2 0 3',
    'multi 2 2 -5 0', 'multifor 2 2 0 1 4', 'multifor 2 2 0 1 -1', 'lines 0 4 16 0', 'lines 0 4 16 6', 'lines 1 4 16 2', 'bot 1 0 0', 'bot 1 -1 500', 'bot 0 0 500', 'botlines 1 0 500 0', 'botlines 1 0 500 9', 'botlines 0 0 500 2', 'belief 0', 'belief 9', 'options 64', 'squares 64',
  ];
  const answers = bad.map(wasmAnswer);
  if (compare('refusals alike', bad, answers)) ok('refusals alike');
  const refused = bad.filter((l, i) => answers[i].startsWith('-1\t') && answers[i].length > 3);
  // three of the `set`s are good
  if (refused.length === bad.length - 3) ok('every bad input refused with a reason');
  else fail('every bad input refused with a reason', `${refused.length} of ${bad.length - 3}`);
}

// --- the wrapper's reading ----------------------------------------------------
{
  const p = engine.position('rampart');
  const moves = p.moves();
  const raw = engine.raw('eng_moves', [p.slot]).text;
  const q = p.copy();
  q.play(moves[0]);
  let threw = false;
  try { p.play('a1a9'); } catch (e) { threw = e instanceof EngineError; }
  const same = p.text() === engine.position('rampart').text();
  if (moves.join(' ') === raw && moves.length > 0 && q.text() !== p.text() && threw &&
      same)
    ok('the wrapper reads what the engine says');
  else fail('the wrapper reads what the engine says', `${moves.length} moves, threw ${threw}`);
  // Blue (side 1) sees Red's pieces as X and its own; Red the other way (S8)
  const s = engine.position('stratego', '', 3);
  const blue = s.view(1).text().split(' ')[0], red = s.view(0).text().split(' ')[0];
  if (/X/.test(blue) && !/[A-WYZ]/.test(blue) && /[a-wyz]/.test(blue) &&
      /x/.test(red) && !/[a-wyz]/.test(red) && /[A-WYZ]/.test(red))
    ok('a view hides the other side');
  else fail('a view hides the other side', `${blue} / ${red}`);
  let n = 0;
  try { for (;;) { engine.position('rampart'); n++; } } catch (e) {
    if (e instanceof EngineError && n <= 64) ok('positions are bounded (slots)');
    else fail('positions are bounded (slots)', String(e));
  }
}

rmSync(tmp, { recursive: true, force: true });
console.log(`1..${checks}`);
process.exit(failed ? 1 : 0);
