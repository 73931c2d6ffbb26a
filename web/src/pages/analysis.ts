// pages/analysis.ts -- the analysis board (/analysis/<variant>): a position
// from the variant's start, from a position string, or from a move of a
// finished game (`?fen=`), moves played freely into a tree of variations,
// and the engine's evaluation and best line as it thinks, in a Web Worker.
// Everything here runs in the browser: legal moves, positions and results
// come from the games' own engine in WebAssembly (engine/), never from the
// server, and nothing of the rules is written again in TypeScript. Only the
// first drawing of the board, while that engine loads, is from the server's
// reading of the position (engine/read.ts prepare).
//
// The editor (analysis/editor.ts) places and removes pieces and sets the
// side to move, in every game; the position it makes is analysed only once
// the engine has read it.
//
// The state is a tree of nodes (a position and the move that led to it);
// the current node and its path from the root are in the address
// (`?fen=START&line=m1,m2,...`), so a line can be shared by its link.
//
// Each family brings its board and editor model (its analysis kit,
// games/<family>/analysis.ts) and says which search analyses it: the
// two-sided search (Rampart), the four-sided search of the style bots with
// each kingdom's worth in words (Keeps & Moats), or a game's own bot for
// hidden pieces (Stratego), from a full position or from one player's view
// (what that player knows), analysing for the side whose view it is, with
// what it believes of each hidden piece shown on the board. On a view the
// board plays no move whose outcome the view cannot know.

import { familyNamed } from '../games/index';
import { Engine, EngineError, Position, Setting } from '../engine/engine';
import { Analyser, engine } from '../engine/load';
import { boardFacts, prepare, variantFamily, whenEngine } from '../engine/read';
import type { Info } from '../engine/worker';
import { Cleanup, route } from '../router';
import { api } from '../api';
import { afterPaint, copyText, h, link, SIDE_TITLES } from '../ui';
import { Editor } from '../analysis/editor';

type Node = { move: string | null; text: string; parent: Node | null; children: Node[] };

const WIN = 32000;  // src/ai/search.h SEARCH_WIN: a win in p plies scores WIN - p

/** The score (for the side to move) as Bottom's, in words: "+0.42", or who
 *  wins in how many moves. */
export function scoreWords(score: number, sideToMove: number): string {
  const bottom = sideToMove === 0 ? score : -score;
  if (Math.abs(bottom) > WIN - 1000) {
    const moves = Math.ceil((WIN - Math.abs(bottom)) / 2);
    return `${bottom > 0 ? SIDE_TITLES[0] : SIDE_TITLES[1]} wins in ${moves}`;
  }
  return `${bottom >= 0 ? '+' : '−'}${(Math.abs(bottom) / 100).toFixed(2)}`;
}

/** /analysis: the games' analysis boards, each by its name in words. */
export async function renderAnalysisIndex(host: HTMLElement): Promise<void> {
  host.append(h('h1', {}, 'Analysis board'),
    h('p', {}, 'Set up any position of a game, play moves both sides, and see what the engine thinks.'));
  const list = h('ul', { class: 'an-index' });
  host.append(list);
  try {
    const variants = await api.variants();
    list.append(...variants.map((v) => h('li', {}, link(`/analysis/${v.name}`, v.title), ` · ${v.about}`)));
  } catch (e) {
    host.append(h('p', { class: 'error' }, `The list of games could not be read: ${String(e)}`));
  }
}

export async function renderAnalysis(host: HTMLElement, variant: string): Promise<Cleanup> {
  host.append(h('h1', {}, 'Analysis board'));
  // the game's name in words and its family, from the server's list (the
  // engine knows only its id); the engine's, if the list cannot be read
  const all = await api.variants().catch(() => null);
  const known = all?.find((x) => x.name === variant);
  let familyName = known?.family ?? null;
  if (!all) familyName = await whenEngine().then(() => variantFamily(variant), () => null);
  const title = known?.title ?? variant;
  const fam = familyName ? familyNamed(familyName) : null;
  if (!familyName || !fam) {
    host.append(h('p', { class: 'error' }, familyName ? `The analysis board has no board for ${variant} yet.` : `There is no variant '${variant}'.`),
      h('p', {}, link('/analysis/rampart', 'Analyse Rampart Classic')));
    return;
  }
  const params = new URLSearchParams(location.search);

  // --- the page's frame, and its board drawn from the server's reading of
  // the position while the engine loads; the rest once the engine is there
  const first = params.get('fen') ?? '';
  await prepare(fam.name, first ? [first] : []);
  const boardHost = h('div', { class: `review-board review-${fam.name}` });
  const kit = fam.analysis.make(boardHost);
  const board = kit.board;
  try {
    board.setPosition(first || boardFacts(fam.name).start);
  } catch {
    board.setPosition(boardFacts(fam.name).start);  // the link's is judged below, by the engine
  }
  const bar = h('div', { class: 'eval-bar', role: 'img', 'aria-label': 'Evaluation' },
    h('div', { class: 'eval-fill' }));
  const evalLine = h('p', { class: 'status', id: 'an-eval', 'aria-live': 'polite' }, 'The engine is starting…');
  const pvLine = h('div', { class: 'an-pv', id: 'an-pv' });
  const status = h('p', { class: 'status', id: 'an-status' });
  const side = h('div', { class: 'game-side' },
    h('p', {}, `${title} · `, link(`/analysis/${variant}`, 'a new board'), ' · ', link('/analysis', 'other games')),
    evalLine, pvLine, status);
  // what the figures beside the board mean, before any is shown
  const what = fam.analysis.how === 'multi'
    ? 'the best move for the kingdom to move, and what each kingdom is worth to the search: its pieces and their places, in points'
    : fam.analysis.how === 'bot'
      ? 'the move its bot would play for the side whose view the position is, with the bot\'s own score (it compares moves, not sides)'
      : `its evaluation, always from ${SIDE_TITLES[0]}'s side (the bar fills with ${SIDE_TITLES[0]}'s share of the chances), and its best lines`;
  host.append(h('p', { class: 'an-intro' }, `Play moves for every side on the board. The engine searches each position in your browser and shows ${what}.`));
  host.append(h('div', { class: 'game' }, h('div', { class: 'an-board' }, bar, boardHost), side));
  let eng: Engine;
  try {
    await afterPaint();
    await whenEngine();
    eng = await engine();
  } catch (e) {
    evalLine.textContent = `The engine could not be loaded: ${String(e)}`;
    return;
  }
  const v = eng.variants().find((x) => x.name === variant);
  if (!v) {
    evalLine.textContent = `The engine has no variant '${variant}'.`;
    return;
  }

  // the kind of search decides the words: four kingdoms' worth (multi),
  // the hidden game's bot (bot), or the two-sided search's score
  const analysis = fam.analysis;
  const km = analysis.how === 'multi';
  const st = analysis.how === 'bot';

  // --- the tree --------------------------------------------------------------
  const notes: string[] = [];
  // The variant's settings (engine.h eng_options). Those the position string
  // does not carry (Rampart's and Stratego's MoveLimit) are kept in the link
  // (`&MoveLimit=50`) and set on every position made here and in the worker.
  const probe = eng.position(variant);
  const settingList = probe.settings();
  probe.free();
  const settings: Record<string, number> = {};
  for (const o of settingList.filter((x) => !x.inPosition)) {
    const text = params.get(o.name);
    if (text === null) continue;
    const value = Number(text);
    if (/^\d+$/.test(text) && value >= o.min && value <= o.max) settings[o.name] = value;
    else notes.push(`The setting ${o.name}=${text} in the link was not read: want ${o.min}-${o.max}.`);
  }
  /** The board's address for a start, its settings and a line. */
  const linkTo = (text: string, with_: Record<string, number> = settings, line = ''): string => {
    const q = new URLSearchParams({ fen: text });
    for (const [name, value] of Object.entries(with_)) q.set(name, String(value));
    if (line) q.set('line', line);
    return `/analysis/${variant}?${q}`;
  };
  /** A position of the variant from text, with the link's settings. */
  const posOf = (text?: string): Position => {
    const p = eng.position(variant, text ?? '');
    for (const [name, value] of Object.entries(settings)) p.setOption(name, value);
    return p;
  };
  let rootPos: Position;
  try {
    rootPos = posOf(params.get('fen') ?? '');
  } catch (e) {
    notes.push(`The position in the link was not read: ${(e as Error).message}`);
    rootPos = posOf();
  }
  const root: Node = { move: null, text: rootPos.text(), parent: null, children: [] };
  rootPos.free();
  let current = root;
  for (const m of (params.get('line') ?? '').split(',').filter((x) => x)) {
    const next = child(current, m);
    if (!next) {
      notes.push(`The line in the link stops before ${m}, which is not a legal move there.`);
      break;
    }
    current = next;
  }

  /** The node after `move` from `node` (made if new); null if not legal. */
  function child(node: Node, move: string): Node | null {
    const old = node.children.find((c) => c.move === move);
    if (old) return old;
    const p = posOf(node.text);
    try {
      p.play(move);
      const c: Node = { move, text: p.text(), parent: node, children: [] };
      node.children.push(c);
      return c;
    } catch (e) {
      if (e instanceof EngineError) return null;
      throw e;
    } finally {
      p.free();
    }
  }

  const path = (n: Node): Node[] => (n.parent ? [...path(n.parent), n] : []);
  /** Who moves in a node's position (kingdoms that are out are passed over). */
  const moverOf = (n: Node): number => {
    const p = posOf(n.text);
    const side = p.sideToMove();
    p.free();
    return side;
  };
  const depth = (n: Node): number => (n.parent ? depth(n.parent) + 1 : 0);
  const rootSide = posOf(root.text);
  const startSide = rootSide.sideToMove();
  rootSide.free();
  const startFull = Number(root.text.split(' ').pop()) || 1;

  // --- the page ----------------------------------------------------------------
  const sideNames = fam.sideNames;
  // a game of hidden pieces: whose view the root is (-1: the full
  // position); it stays that player's view whatever is played
  const viewer = kit.views ? kit.views.viewer(root.text) : -1;
  // MultiPV: how many best moves the two-sided search shows, each with its line
  const linesPick = h('select', { id: 'an-lines', 'aria-label': 'Lines shown', onchange: () => go(current) },
    ...[1, 2, 3, 5].map((k) => h('option', { value: String(k) }, k === 1 ? 'Best line' : `${k} best lines`)));
  const tree = h('div', { class: 'moves an-tree', id: 'an-tree' });
  const field = h('input', { type: 'text', id: 'an-fen', 'aria-label': 'Position', spellcheck: 'false' });
  // each button is named by the words on it; the title says more
  const btn = (id: string, text: string, label: string, onclick: () => void) =>
    h('button', { type: 'button', id, title: label, onclick }, text);
  const nav = h('div', { class: 'controls', role: 'group', 'aria-label': 'Moves' },
    btn('an-first', '« Start', 'The first position (Home)', () => go(root)),
    btn('an-prev', '‹ Back', 'Back one move (Left arrow)', () => go(current.parent ?? current)),
    btn('an-next', 'Next ›', 'Forward one move (Right arrow)', () => go(current.children[0] ?? current)),
    btn('an-flip', 'Flip board', 'Flip the board', () => board.setFlipped(!board.isFlipped())),
    linesPick,
    btn('an-edit', 'Edit position', 'Place and remove pieces', () => startEdit()),
    settingList.length ? btn('an-settings-btn', 'Settings', 'The game\'s settings, such as the move limit', () => {
      settingsPanel.hidden = !settingsPanel.hidden;
    }) : '');
  // --- the editor (analysis/editor.ts): pieces placed and removed ----------
  const editor = new Editor((text) => kit.edit(text), () => kit.showEdit(), (text) => {
    try {
      posOf(text).free();
    } catch (e) {
      editor.say(`The engine does not take this position: ${(e as Error).message}`);
      return;
    }
    location.assign(linkTo(text));
  }, () => {
    editor.stop();
    go(current);
  });
  function startEdit(): void {
    editor.start(current.text);
    analyser.stop();
    board.setLegal([]);
    board.clearMarks();
    kit.views?.setBelief(null);
    evalLine.textContent = 'Editing the position.';
    pvLine.textContent = '';
  }
  boardHost.addEventListener('click', (e) => {
    if (!editor.editing) return;
    // a square, or the piece drawn on it (pieces are a layer of their own)
    const hit = (e.target as Element).closest('[data-square], [data-piece]');
    const sq = hit?.getAttribute('data-square') ?? hit?.getAttribute('data-piece');
    if (sq) editor.click(sq);
  }, true);

  // --- the settings: each of the variant's, for the start of the line -------
  /** A setting's value at the start: the position string's, or the link's. */
  const valueOf = (o: Setting): number => {
    if (!o.inPosition) return settings[o.name] ?? o.def;
    return kit.settingValue?.(o, root.text) ?? o.def;
  };
  /** The names of a setting's values, in words (none for a plain number). */
  const wordsOf = (o: Setting): string[] => fam.analysis.settingWords?.(o) ?? o.labels;
  const settingNote = h('p', { class: 'status', id: 'an-settings-note', 'aria-live': 'polite' });
  const controls = settingList.map((o) => {
    const words = wordsOf(o);
    const id = `an-set-${o.name}`;
    const input = words.length
      ? h('select', { id }, ...words.map((w, k) => h('option', { value: String(o.min + k) }, w)))
      : h('input', { id, type: 'number', min: String(o.min), max: String(o.max), step: '1', inputmode: 'numeric' });
    (input as HTMLInputElement | HTMLSelectElement).value = String(valueOf(o));
    const help = o.name === 'MoveLimit' ? fam.analysis.limitHelp
      : o.name === 'GameType' ? 'Game type' : o.name === 'KingResult' ? 'A King taken' : o.name;
    return { o, input: input as HTMLInputElement | HTMLSelectElement,
      row: h('label', { class: 'an-setting' }, `${help} `, input) };
  });
  const settingsPanel = h('div', { class: 'panel an-settings', id: 'an-settings', hidden: true },
    ...controls.map((c) => c.row),
    h('div', { class: 'controls' },
      btn('an-settings-apply', 'Analyse with these', 'Start again from the first position with these settings', () => applySettings())),
    settingNote);
  function applySettings(): void {
    const p = posOf(root.text);
    const next: Record<string, number> = {};
    try {
      for (const { o, input } of controls) {
        const value = Number(input.value);
        if (!/^\d+$/.test(input.value) || value < o.min || value > o.max)
          throw new EngineError(`${o.name} wants a whole number from ${o.min} to ${o.max}`);
        if (o.inPosition) p.setOption(o.name, value);
        else if (value !== o.def) next[o.name] = value;
      }
      location.assign(linkTo(p.text(), next));
    } catch (e) {
      settingNote.textContent = `Not taken: ${(e as Error).message}`;
    } finally {
      p.free();
    }
  }

  const load = h('div', { class: 'controls' }, field,
    btn('an-load', 'Analyse this position', 'Analyse the position written above', () => {
      location.assign(linkTo(field.value.trim()));
    }),
    btn('an-share', 'Copy link', 'Copy a link to this line', () => void copyText(location.href, 'Link copied')));
  side.append(nav, editor.el, settingsPanel, tree,
    h('p', { class: 'hint' }, 'Play moves on the board; Left and Right arrows step through the line.'),
    load);
  for (const n of notes) host.prepend(h('p', { class: 'error' }, n));

  const analyser = new Analyser();
  analyser.onInfo = (info: Info) => {
    if (info.kind === 'error') {
      evalLine.textContent = `The engine stopped: ${info.error}`;
    } else if (info.kind === 'depth' && st) {
      // the bot's own score: what it does not know counts at more than face
      // value, so it compares moves, not sides (docs/wasm.md)
      const stm = current === shownFor ? shownSide : 0;
      evalLine.textContent = `Round ${info.depth} · ${info.nodes.toLocaleString('en')} nodes · ` +
        `the bot's score for ${sideNames[stm]} ${info.score >= 0 ? '+' : '−'}${Math.abs(info.score)}`;
      const signed = (x: number) => `${x >= 0 ? '+' : '−'}${Math.abs(x)}`;
      if (info.lines && info.lines.length > 1)
        pvLine.replaceChildren(...info.lines.map((l, k) =>
          h('p', { class: 'an-line' }, `${k + 1}. ${l.pv[0]} · the bot's score ${signed(l.score)}`)));
      else pvLine.textContent = `Best move: ${info.best}`;
    } else if (info.kind === 'depth' && km) {
      // the side to move's team's score, and each kingdom's worth (multi.h)
      const stm = current === shownFor ? shownSide : 0;
      evalLine.textContent = `Depth ${info.depth} · ${sideNames[stm]}'s side ` +
        `${info.score >= 0 ? '+' : '−'}${Math.abs(info.score)}`;
      const worth = `each kingdom's worth: ${(info.values ?? []).map((x, k) => `${sideNames[k]} ${x}`).join(' · ')}`;
      if (info.lines && info.lines.length > 1)
        pvLine.replaceChildren(...info.lines.map((l, k) =>
          h('p', { class: 'an-line' }, `${k + 1}. ${l.pv[0]} · ${sideNames[stm]}'s side ${l.score >= 0 ? '+' : '−'}${Math.abs(l.score)}`)),
        h('p', {}, worth));
      else pvLine.textContent = `Best move: ${info.best} · ${worth}`;
    } else if (info.kind === 'depth') {
      const stm = current === shownFor ? shownSide : 0;
      const words = scoreWords(info.score, stm);
      // always from one side's view, and saying whose (a win names its side)
      const whose = /wins in/.test(words) ? words : `${words} for ${SIDE_TITLES[0]}`;
      evalLine.textContent = `Depth ${info.depth} · ${whose}`;
      if (info.lines && info.lines.length > 1)
        pvLine.replaceChildren(...info.lines.map((l, k) =>
          h('p', { class: 'an-line' }, `${k + 1}. ${scoreWords(l.score, stm)} · ${l.pv.join(' ')}`)));
      else pvLine.textContent = `Best line: ${info.pv.join(' ')}`;
      const bottom = stm === 0 ? info.score : -info.score;
      const share = 1 / (1 + Math.exp(-bottom / 400));
      (bar.firstChild as HTMLElement).style.height = `${Math.round(share * 100)}%`;
      bar.setAttribute('aria-label', `Evaluation: ${whose}`);
      bar.title = `The filled part is ${SIDE_TITLES[0]}'s share of the chances: ${whose}`;
      board.clearMarks('hint');
      const sq = info.best.match(/[a-z]+\d+/g);
      if (sq) board.mark(sq, 'hint');
    } else if (info.kind === 'done' && evalLine.textContent?.startsWith('The engine is')) {
      evalLine.textContent = 'Nothing to search: the game is over.';
    }
  };
  let shownFor: Node | null = null;
  let shownSide = 0;

  function moveLabel(n: Node, first: boolean): string {
    const d = depth(n) - 1;  // plies before this move
    if (km) return `${sideNames[n.parent ? moverOf(n.parent) : 0][0]} ${n.move}`;
    const side = (startSide + d) % 2;
    const full = startFull + Math.floor((startSide + d) / 2);
    if (side === 0) return `${full}. ${n.move}`;
    return first ? `${full}… ${n.move}` : `${n.move}`;
  }

  function line(start: Node): HTMLElement[] {
    const out: HTMLElement[] = [];
    let first = true;
    for (let n: Node | undefined = start; n; n = n.children[0]) {
      const node = n;
      out.push(h('button', { type: 'button', class: `mv${node === current ? ' current' : ''}`,
        'data-ply': depth(node), onclick: () => go(node) }, moveLabel(node, first)));
      first = false;
      const p = node.parent;
      if (p && p.children[0] === node)
        for (const sib of p.children.slice(1))
          out.push(h('span', { class: 'variation' }, '(', ...line(sib), ')'));
    }
    return out;
  }

  function go(n: Node): void {
    editor.stop();
    current = n;
    const p = posOf(n.text);
    const moves = p.moves();
    const r = p.result();
    const side = p.sideToMove();
    const fx = n.parent && n.move ? posOf(n.parent.text) : null;
    board.setPosition(n.text);
    board.clearMarks();
    if (fx && n.move) {
      const e = fx.effects(n.move);
      board.mark([e.from ?? '', e.to ?? ''].filter((s) => s), 'last');
      board.mark([...e.captured, ...e.removed], 'captured');
      fx.free();
    }
    // on a view: no combat whose outcome the view cannot know, and the
    // bot's belief (and analysis) only for the side whose view it is
    const views = kit.views;
    const playable = views && viewer >= 0 ? moves.filter((m) => views.known(n.text, m)) : moves;
    board.setLegal(r.over ? [] : playable);
    const ours = !views || viewer < 0 || side === viewer;
    if (views) {
      let belief: string | null = null;
      if (viewer >= 0 && side === viewer && !r.over) {
        try {
          const b = eng.raw('eng_belief', [p.slot]);
          if (b.rc >= 0) belief = b.text;
        } catch {
          // no belief: the board shows the view alone
        }
      }
      views.setBelief(belief);
    }
    const threats = p.threats();
    if (threats.length) board.mark(threats, 'threat');
    p.free();
    status.textContent = r.over
      ? `The game is over: ${r.winner < 0 ? 'a draw' : km ? `team ${r.winner + 1} wins`
        : `${sideNames[r.winner]} wins`} (${r.reason}).`
      : `${sideNames[side]} to move.`;
    field.value = n.text;
    tree.replaceChildren(...(root.children.length ? line(root.children[0])
      : [h('span', { class: 'hint' }, 'No moves yet.')]));
    tree.querySelector('.current')?.scrollIntoView({ block: 'nearest' });
    history.replaceState(null, '', linkTo(root.text, settings, path(n).map((x) => x.move).join(',')));
    shownFor = n;
    shownSide = side;
    evalLine.textContent = r.over ? 'Nothing to search: the game is over.'
      : ours ? 'The engine is thinking…'
      : `This is ${sideNames[viewer]}'s view: the bot analyses only ${sideNames[viewer]}'s moves.`;
    pvLine.textContent = '';
    (bar.firstChild as HTMLElement).style.height = '50%';
    // a bar has two ends; four kingdoms get words, and Stratego's bot scores
    // moves against each other, not the sides
    bar.style.display = km || st ? 'none' : '';
    if (r.over || !ours) analyser.stop();
    else void analyser.analyse(variant, n.text, analysis.depth, analysis.how,
      Number(linesPick.value) || 1, settings);
  }

  board.onMove = (move: string) => {
    const next = child(current, move);
    if (next) go(next);
  };

  const onKey = (e: KeyboardEvent) => {
    const t = e.target as HTMLElement;
    if (t.closest('input, textarea, select') || e.altKey || e.ctrlKey || e.metaKey) return;
    if (t.closest('.board')) return;  // the board's own arrow keys move its focus
    const to = { ArrowLeft: current.parent, ArrowRight: current.children[0], Home: root }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    if (to) go(to);
  };
  document.addEventListener('keydown', onKey);
  go(current);
  return () => {
    document.removeEventListener('keydown', onKey);
    analyser.stop();
    board.destroy();
  };
}

route(/^\/analysis\/?$/, renderAnalysisIndex, 'Analysis', { engine: 'none' });
route(/^\/analysis\/([a-z-]+)$/, renderAnalysis, 'Analysis', { engine: 'served' });
