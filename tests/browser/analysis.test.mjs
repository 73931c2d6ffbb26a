// analysis.test.mjs -- the analysis board (/analysis/<variant>) as a person
// uses it, with the server's game and position API blocked: everything it
// shows comes from the engine in the browser. The board offers legal moves
// and takes one; the engine's evaluation and best line appear and deepen;
// going back and playing another move makes a variation beside the first;
// the link holds the line and opens it again; a position written in by hand
// is analysed; a finished game opens in analysis from its review; and it
// fits a 360 px screen. The editor makes a position square by square, and
// the board analyses it. Several best lines (MultiPV) are shown on request.
// Stratego is analysed by its strongest bot, from a
// full position and from one player's view with the bot's belief about each
// hidden piece on its square. Keeps & Moats is analysed with the four-sided
// search, each kingdom's worth given in words. The computer review of a finished game scores every
// position in the browser: a verdict on each move, a graph that goes to the
// position clicked, and a summary that counts what its list names. A
// player asks the server to keep a review with the game: it reads exactly
// as the browser's own, and anyone who opens the game sees it at once.

import { test, run, check, checkFits, checkReadable, clickSquare, signUpAs } from './lib.mjs';
import { playMove, squares } from './moves.mjs';
import { guest, hold, waitText } from './play-lib.mjs';

/** Blocks the server's answers about games and positions for this page. */
async function blockGameApi(page) {
  const hits = [];
  await page.route(/\/api\/(position|games)/, (route) => {
    hits.push(route.request().url());
    return route.abort();
  });
  return hits;
}

/** Counts the page's requests about positions made after its game is loaded
 *  (the review page reads the game itself first; the engine does the rest). */
async function blockGameApiAfter(page) {
  const hits = [];
  page.on('request', (r) => {
    if (/\/api\/position(\?|$)/.test(r.url())) hits.push(r.url());
  });
  return hits;
}

/** The evaluation line once the engine has reached `depth`. */
async function evalAt(page, depth) {
  await page.waitForFunction((d) => {
    const m = /^Depth (\d+) · /.exec(document.querySelector('#an-eval')?.textContent || '');
    return m && Number(m[1]) >= d;
  }, depth, { timeout: 30000 });
  return page.locator('#an-eval').textContent();
}

test('analysis-board', async (t) => {
  const page = await t.newPage();
  const hits = await blockGameApi(page);
  await page.goto(`${t.url}/analysis/rampart`);
  await page.locator('.board [data-piece]').first().waitFor();
  const first = await evalAt(page, 4);
  check(/^Depth \d+ · ([+−]\d+\.\d\d for Bottom|(Bottom|Top) wins in \d+)$/.test(first), `evaluation reads "${first}"`);
  check(/^Best line: [a-z]\d+[a-z]\d+/.test(await page.locator('#an-pv').textContent()), 'no best line');
  check((await page.locator('#an-status').textContent()) === 'Bottom to move.', 'whose move');

  // a move on the board: the line shows it, Top is to move, the evaluation starts again
  const moved = await playMove(page, 'Bottom', '.board');
  check(moved, 'no Bottom piece could move');
  await page.locator('#an-tree .mv').first().waitFor();
  check((await page.locator('#an-tree .mv').first().textContent()) === `1. ${moved}`, 'the move in the line');
  check((await page.locator('#an-status').textContent()) === 'Top to move.', 'Top to move after it');
  await evalAt(page, 2);
  check(new URL(page.url()).searchParams.get('line') === moved, `the link holds the line: ${page.url()}`);

  // back to the start, another move: a variation beside the first line
  await page.locator('#an-prev').click();
  check((await page.locator('#an-status').textContent()) === 'Bottom to move.', 'back at the start');
  let other = null;
  for (let i = 0; i < 10 && (!other || other === moved); i++) {
    if (other) await page.locator('#an-prev').click();
    other = await playMove(page, 'Bottom', '.board');
  }
  check(other && other !== moved, 'a second, different first move');
  await page.locator('#an-tree .variation .mv').first().waitFor();
  const variation = await page.locator('#an-tree .variation .mv').first().textContent();
  check(variation === `1. ${other}`, `the variation reads "${variation}"`);
  check((await page.locator('#an-tree .mv.current').textContent()) === `1. ${other}`, 'the current move is marked');
  // the keyboard: Left goes back to the start, Right follows the main line
  await page.locator('h1').click();
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowRight');
  check((await page.locator('#an-tree .mv.current').textContent()) === `1. ${moved}`, 'Right follows the main line');

  // several lines (MultiPV): three different first moves, best first, each
  // with its score in words; back to one line after
  await page.locator('#an-lines').selectOption('3');
  await page.waitForFunction(() => document.querySelectorAll('#an-pv .an-line').length === 3, null, { timeout: 30000 });
  await evalAt(page, 3);
  const lines = await page.locator('#an-pv .an-line').allTextContents();
  const parsed = lines.map((l) => /^(\d)\. ([+−])(\d+\.\d\d) · ([a-z]\d+[a-z]\d+)( [a-z]\d+[a-z]\d+)*$/.exec(l));
  check(parsed.every((m, k) => m && Number(m[1]) === k + 1), `the lines read ${JSON.stringify(lines)}`);
  check(new Set(parsed.map((m) => m[4])).size === 3, `three different moves: ${JSON.stringify(lines)}`);
  // Top is to move here: the best line is the lowest for Bottom
  const forBottom = parsed.map((m) => (m[2] === '−' ? -1 : 1) * Number(m[3]));
  check(forBottom[0] <= forBottom[1] && forBottom[1] <= forBottom[2], `best first, for Top: ${forBottom}`);
  await page.locator('#an-lines').selectOption('1');
  await page.waitForFunction(() => /^Best line: /.test(document.querySelector('#an-pv')?.textContent || ''), null, { timeout: 30000 });

  // the link opens the same line again
  const link = page.url();
  const again = await t.newPage();
  await blockGameApi(again);
  await again.goto(link);
  await again.locator('#an-tree .mv.current').waitFor();
  check((await again.locator('#an-tree .mv.current').textContent()) === `1. ${moved}`, 'the link opens the line');

  // a position written in: Top, a King short, to move
  const fen = '5/1n3/5/2k2/5/1N3/2K2/5/5 t 40';
  await page.locator('#an-fen').fill(fen);
  await page.locator('#an-load').click();
  await page.waitForURL(/fen=/);
  await evalAt(page, 3);
  check((await page.locator('#an-status').textContent()) === 'Top to move.', 'the position written in');
  check((await page.locator('#an-fen').inputValue()) === fen, 'the position field');
  // a position that is not one: said so, and the start is shown instead
  await page.goto(`${t.url}/analysis/rampart?fen=${encodeURIComponent('9/9 b 1')}`);
  await page.locator('.error').first().waitFor();
  check(/was not read/.test(await page.locator('.error').first().textContent()), 'a bad position is explained');
  await checkReadable(page, 'analysis');
  check(hits.length === 0, `the page asked the server about positions: ${hits.join(', ')}`);
});

test('analysis-from-review', async (t) => {
  const page = await t.newPage();
  await guest(page, t.url);
  const id = await hold(page, `
    send({ type: 'local', variant: 'rampart-mini', base_ms: 0, inc_ms: 0, move_limit: 50 });
    const g = await wait((m) => m.type === 'game');
    send({ type: 'resign', game: g.game.id });
    await wait((m) => m.type === 'end');
    return g.game.id;`);
  await page.goto(`${t.url}/review/${id}`);
  const analyse = page.locator('#rv-analyse');
  await analyse.waitFor();
  await analyse.click();
  await page.waitForURL(/\/analysis\/rampart-mini\?fen=/);
  await page.locator('.board [data-piece]').first().waitFor();
  await evalAt(page, 2);
  check((await page.locator('#an-status').textContent()) === 'Bottom to move.', 'the game\'s position');
});

/** A finished game of rampart-mini on one device: 16 moves, each the first
 *  legal one but Bottom's 5th, which gives up a piece if it can (the last of
 *  the list), then resigned. */
function oneDeviceGame(page) {
  return hold(page, `
    send({ type: 'local', variant: 'rampart-mini', base_ms: 0, inc_ms: 0, move_limit: 50 });
    const g = (await wait((m) => m.type === 'game')).game;
    let legal = g.legal;
    for (let ply = 0; ply < 16 && legal.length; ply++) {
      send({ type: 'move', game: g.id, ply, move: ply === 8 ? legal[legal.length - 1] : legal[0] });
      legal = (await wait((m) => m.type === 'move' && m.game === g.id && m.ply === ply)).legal ?? [];
    }
    send({ type: 'resign', game: g.id });
    await wait((m) => m.type === 'end');
    return g.id;`);
}

test('computer-review', async (t) => {
  const page = await t.newPage();
  await guest(page, t.url);
  const id = await oneDeviceGame(page);
  const hits = await blockGameApiAfter(page);
  await page.goto(`${t.url}/review/${id}`);
  await page.locator('#cr-start').click();
  await page.locator('#cr-done').waitFor({ timeout: 60000 });
  const summary = await page.locator('#cr-summary li').allTextContents();
  check(summary.length === 2 && summary.every((l) => /^(Bottom|Top): (1 inaccuracy|(0|[2-9]|[1-9]\d+) inaccuracies), (1 mistake|(0|[2-9]|[1-9]\d+) mistakes), (1 blunder|(0|[2-9]|[1-9]\d+) blunders)$/.test(l)),
    `the summary reads ${JSON.stringify(summary)}`);
  const counted = summary.flatMap((l) => l.match(/\d+/g).map(Number)).reduce((a, b) => a + b, 0);
  const listed = await page.locator('#cr-list li').count();
  check(counted === listed, `the summary counts ${counted} moves, the list names ${listed}`);
  // the graph covers every position: its outline has a point per position
  const points = await page.locator('#cr-graph polygon').getAttribute('points');
  check(points.trim().split(/\s+/).length === 17 + 2, `the graph has ${points.trim().split(/\s+/).length - 2} points`);
  // the verdict on the shown move, and a click on the graph goes to a position
  const words = /^[a-e]\d[a-e]\d by (Bottom|Top): (the best move|a good move|an inaccuracy|a mistake|a blunder)(; the engine prefers [a-e]\d[a-e]\d)?\.$/;
  check(words.test(await page.locator('#cr-move').textContent()), `the verdict reads "${await page.locator('#cr-move').textContent()}"`);
  const box = await page.locator('#cr-graph').boundingBox();
  await page.mouse.click(box.x + 2, box.y + box.height / 2);
  check(/Start position/.test(await page.locator('#review-ply').textContent()), 'a click at the graph\'s left shows the start');
  check((await page.locator('#cr-move').textContent()) === 'The start: no move to judge.', 'the start has no verdict');
  if (listed) {
    await page.locator('#cr-list .mv').first().click();
    check(!/Start position/.test(await page.locator('#review-ply').textContent()), 'a move of the review goes to it');
  }
  await checkReadable(page, 'computer review');
  check(hits.length === 0, `the review asked the server about positions after loading: ${hits.join(', ')}`);
});

/** What a finished computer review says: its summary, its list, its graph. */
async function reviewSays(page) {
  return {
    summary: await page.locator('#cr-summary li').allTextContents(),
    list: await page.locator('#cr-list li').allTextContents(),
    graph: await page.locator('#cr-graph polygon').getAttribute('points'),
  };
}

test('computer-review-kept', async (t) => {
  const page = await t.newPage();
  await signUpAs(page, t.url, 'keeper');
  const id = await oneDeviceGame(page);
  // the browser's own review first
  await page.goto(`${t.url}/review/${id}`);
  await page.locator('#cr-ask').waitFor();
  await page.locator('#cr-start').click();
  await page.locator('#cr-done').waitFor({ timeout: 60000 });
  const own = await reviewSays(page);
  // then the server's, asked for and kept: the same verdicts, the same graph
  await page.reload();
  await page.locator('#cr-ask').click();
  await page.waitForFunction(() => /kept with the game/.test(document.querySelector('#cr-done')?.textContent || ''),
    null, { timeout: 60000 });
  check((await page.locator('#cr-done').textContent()) ===
    'Computer review, kept with the game (depth 6, asked for by keeper)', 'the kept review\'s title');
  const kept = await reviewSays(page);
  check(JSON.stringify(kept) === JSON.stringify(own), `kept ${JSON.stringify(kept)}, browser's ${JSON.stringify(own)}`);
  // anyone who opens the game sees it at once, without asking
  const other = await t.newPage();
  await guest(other, t.url);
  await other.goto(`${t.url}/review/${id}`);
  await other.locator('#cr-done').waitFor({ timeout: 15000 });
  check(JSON.stringify(await reviewSays(other)) === JSON.stringify(own), 'another visitor sees the kept review');
  check(!(await other.locator('#cr-ask').count()), 'a kept review offered to be asked for again');
  await checkReadable(other, 'kept computer review');
});

test('analysis-editor', async (t) => {
  const page = await t.newPage();
  await blockGameApi(page);
  await page.goto(`${t.url}/analysis/rampart-mini`);
  await page.locator('.board [data-piece]').first().waitFor();
  await page.locator('#an-edit').click();
  await page.locator('#an-editor').waitFor();
  // clear every square, then a Bottom King on a1 and Queen on c3, a Top King on e7
  await page.locator('[data-tool="empty"]').click();
  for (const { name } of await page.$$eval('.board [data-piece]', (els) => els.map((e) => ({ name: e.dataset.piece }))))
    await clickSquare(page, name, '.board');
  check((await page.locator('.board [data-piece]').count()) === 0, 'the board is not empty');
  for (const [tool, sq] of [['bK', 'a1'], ['bQ', 'c3'], ['tK', 'e7']]) {
    await page.locator(`[data-tool="${tool}"]`).click();
    await clickSquare(page, sq, '.board');
  }
  await page.locator('#an-edit-side').selectOption('t');
  await page.locator('#an-edit-done').click();
  await page.waitForURL(/fen=/);
  await page.locator('.board [data-piece]').first().waitFor();
  const fen = new URL(page.url()).searchParams.get('fen');
  check(fen === '4k/5/5/5/2Q2/5/K4 t 1', `the position made is ${fen}`);
  await waitText(page.locator('#an-status'), /^Top to move\.$/, 'Top to move in it');
  await evalAt(page, 2);
  await checkReadable(page, 'the analysis editor');

  // a setting the position string does not carry: a move limit of one full
  // move, kept in the link. R7.3: after Top's move that completes full move 1
  // the engine adjudicates by material, and Bottom (a Queen up) wins
  await page.locator('#an-settings-btn').click();
  await page.locator('#an-set-MoveLimit').fill('-3');
  await page.locator('#an-settings-apply').click();
  check(/^Not taken: MoveLimit wants a whole number/.test(await page.locator('#an-settings-note').textContent()),
    'a bad move limit is refused with a reason');
  await page.locator('#an-set-MoveLimit').fill('1');
  await page.locator('#an-settings-apply').click();
  await page.waitForURL(/MoveLimit=1/);
  await page.locator('.board [data-piece]').first().waitFor();
  check(new URL(page.url()).searchParams.get('fen') === fen, 'the position kept with the setting');
  // the board is drawn before the engine comes; its moves once it is there
  await waitText(page.locator('#an-status'), /^Top to move\.$/, 'Top to move with the setting');
  check(await playMove(page, 'Top', '.board'), 'Top cannot move');
  await page.locator('#an-tree .mv').first().waitFor();
  check((await page.locator('#an-status').textContent()) === 'The game is over: Bottom wins (move-limit).',
    `R7.3 after the limit: "${await page.locator('#an-status').textContent()}"`);
  check(new URL(page.url()).searchParams.get('MoveLimit') === '1', 'the link keeps the setting');
});

test('analysis-keeps', async (t) => {
  const page = await t.newPage();
  const hits = await blockGameApi(page);
  await page.goto(`${t.url}/analysis/keeps-moats`);
  await page.locator('.km-board [data-square]').first().waitFor();
  const first = await evalAt(page, 2);
  check(/^Depth \d+ · White's side [+−]\d+$/.test(first), `the evaluation reads "${first}"`);
  const values = await page.locator('#an-pv').textContent();
  check(/^Best move: [a-q]\d+[a-q]\d+ · each kingdom's worth: White -?\d+ · Red -?\d+ · Black -?\d+ · Blue -?\d+$/.test(values),
    `the kingdoms' worth reads "${values}"`);
  check((await page.locator('#an-status').textContent()) === 'White to move.', 'White to move');
  // several lines: three different White moves, best first, for White's side
  await page.locator('#an-lines').selectOption('3');
  await page.waitForFunction(() => document.querySelectorAll('#an-pv .an-line').length === 3, null, { timeout: 60000 });
  const kmLines = (await page.locator('#an-pv .an-line').allTextContents())
    .map((l) => /^(\d)\. ([a-q]\d+[a-q]\d+\S*) · White's side ([+−])(\d+)$/.exec(l));
  check(kmLines.every((m, k) => m && Number(m[1]) === k + 1), 'the Keeps & Moats lines do not read "N. MOVE · White\'s side S"');
  check(new Set(kmLines.map((m) => m[2])).size === 3, 'three different Keeps & Moats moves');
  const kmScores = kmLines.map((m) => (m[3] === '−' ? -1 : 1) * Number(m[4]));
  check(kmScores[0] >= kmScores[1] && kmScores[1] >= kmScores[2], `the Keeps & Moats lines best first: ${kmScores}`);
  await page.locator('#an-lines').selectOption('1');
  await page.waitForFunction(() => /^Best move: /.test(document.querySelector('#an-pv')?.textContent || ''), null, { timeout: 60000 });
  check(!(await page.locator('.eval-bar').isVisible()), 'a two-ended bar for four kingdoms');
  // a move on the board: White's, then Red is to move
  const labels = () => page.$$eval('.km-board [data-square]', (els) =>
    els.map((e) => ({ name: e.dataset.square, label: e.getAttribute('aria-label') || '' })));
  let played = null;
  for (const s of (await labels()).filter((x) => x.label.endsWith(', can move'))) {
    await clickSquare(page, s.name, '.km-board');
    const to = (await labels()).find((x) => x.label.includes('can move here'));
    if (!to) continue;
    await clickSquare(page, to.name, '.km-board');
    played = s.name + to.name;
    break;
  }
  check(played, 'no White piece could move');
  await page.locator('#an-tree .mv').first().waitFor();
  check((await page.locator('#an-tree .mv').first().textContent()).startsWith('W '), 'the move in the line');
  check((await page.locator('#an-status').textContent()) === 'Red to move.', 'Red to move after it');
  await evalAt(page, 2);
  check(/Red's side/.test(await page.locator('#an-eval').textContent()), 'the evaluation is Red\'s');
  // the editor: White's Queen taken off, Red to move; the rest kept
  await page.locator('#an-edit').click();
  await page.locator('[data-tool="empty"]').click();
  await clickSquare(page, 'i3', '.km-board');
  check((await page.locator('.km-board [data-square="i3"]').getAttribute('aria-label')).startsWith('i3, empty'),
    'the Queen\'s square after Empty');
  await page.locator('#an-edit-side').selectOption('r');
  await page.locator('#an-edit-done').click();
  await page.waitForURL((u) => / r anarchy /.test(new URL(u).searchParams.get('fen') || ''));
  const edited = new URL(page.url()).searchParams.get('fen').split(' ');
  check(edited[0].split('/')[14] === 'wRwN1wBwR', `White's row 3 after the edit: ${edited[0].split('/')[14]}`);
  await page.locator('.km-board [data-square]').first().waitFor();
  await waitText(page.locator('#an-status'), /^Red to move\.$/, 'Red to move after the edit');
  await evalAt(page, 1);

  // the settings the position string carries: Crossroad Allies, a short limit
  await page.locator('#an-settings-btn').click();
  check((await page.locator('#an-set-GameType').inputValue()) === '2', 'the start\'s game type (Anarchy) shown');
  await page.locator('#an-set-GameType').selectOption({ label: 'Crossroad Allies' });
  await page.locator('#an-set-MoveLimit').fill('30');
  await page.locator('#an-settings-apply').click();
  await page.waitForURL((u) => / crossroad gained .* 30$/.test(new URL(u).searchParams.get('fen') || ''));
  await page.locator('.km-board [data-square]').first().waitFor();
  await evalAt(page, 1);
  await checkReadable(page, 'Keeps & Moats analysis');
  check(hits.length === 0, `the page asked the server about positions: ${hits.join(', ')}`);
});

/** Stratego's evaluation line once the bot has finished `round` rounds. */
async function roundAt(page, round) {
  await page.waitForFunction((r) => {
    const m = /^Round (\d+) · /.exec(document.querySelector('#an-eval')?.textContent || '');
    return m && Number(m[1]) >= r;
  }, round, { timeout: 30000 });
  return page.locator('#an-eval').textContent();
}

// Red's view after f4f5 e7e6 i4i5 e6e5 in the engine's start 7 (`citadel`'s
// notation, as a game sends it to Red): Blue's 40 pieces unknown, the one on
// e5 seen to move.
const RED_VIEW = 'xxxxxxxxxx/xxxxxxxxxx/xxxxxxxxxx/xxxx1xxxxx/2~~2~~2/2~~x+A+~~O+1/' +
  'OOAOG1OM1O/LEJCLSJCEL/NJANBLAEBN/NBOBENOBFB r 4 i4i5:1 e6e5:1';

test('analysis-stratego', async (t) => {
  const page = await t.newPage();
  const hits = await blockGameApi(page);
  // a full position: every rank known, nothing to believe
  await page.goto(`${t.url}/analysis/stratego`);
  await page.locator('.st-board [data-piece]').first().waitFor();
  const full = await roundAt(page, 2);
  check(/^Round \d+ · [\d,]+ nodes · the bot's score for Red [+−]\d+$/.test(full), `the evaluation reads "${full}"`);
  check(/^Best move: [a-j]\d+[a-j]\d+$/.test(await page.locator('#an-pv').textContent()), 'a best move');
  check((await page.locator('.st-note').count()) === 0, 'a belief about a full position');
  // several lines: three different moves, best first, each with the bot's score
  await page.locator('#an-lines').selectOption('3');
  await page.waitForFunction(() => document.querySelectorAll('#an-pv .an-line').length === 3, null, { timeout: 30000 });
  const stLines = (await page.locator('#an-pv .an-line').allTextContents())
    .map((l) => /^(\d)\. ([a-j]\d+[a-j]\d+) · the bot's score ([+−])(\d+)$/.exec(l));
  check(stLines.every((m, k) => m && Number(m[1]) === k + 1), 'the Stratego lines do not read "N. MOVE · the bot\'s score S"');
  check(new Set(stLines.map((m) => m[2])).size === 3, 'three different Stratego moves');
  const stScores = stLines.map((m) => (m[3] === '−' ? -1 : 1) * Number(m[4]));
  check(stScores[0] >= stScores[1] && stScores[1] >= stScores[2], `the Stratego lines best first: ${stScores}`);
  await page.locator('#an-lines').selectOption('1');
  check(!(await page.locator('.eval-bar').isVisible()), 'a bar for scores that compare moves, not sides');

  // Red's view: a belief on every hidden piece, none of Bomb or Flag on the one that moved
  await page.goto(`${t.url}/analysis/stratego?fen=${encodeURIComponent(RED_VIEW)}`);
  await page.locator('.st-board [data-piece]').first().waitFor();
  await waitText(page.locator('#an-status'), /^Red to move\.$/, 'Red to move');
  await roundAt(page, 2);
  const labels = await squares(page, '.st-board');
  const hidden = labels.filter((s) => s.label.includes('Blue piece, unknown'));
  check(hidden.length === 40, `${hidden.length} hidden Blue pieces`);
  check(hidden.every((s) => /, believed [A-Z][a-z]+ \d+%/.test(s.label)), 'a hidden piece without a belief');
  check((await page.locator('.st-note').count()) === 40, 'the beliefs drawn on the board');
  const e5 = hidden.find((s) => s.name === 'e5');
  check(e5 && e5.label.includes('has moved') && !/Bomb|Flag/.test(e5.label), `the moved piece: "${e5?.label}"`);
  const sum = (await page.$$eval('.st-note', (els) => els.map((e) => e.textContent)))
    .every((x) => /^(\d+|B|F) \d+%$/.test(x));
  check(sum, 'a note reads other than "rank percent"');
  // the Captain on f5 stands beside the unknown e5: no attack on it is offered
  await clickSquare(page, 'f5', '.st-board');
  const targets = (await squares(page, '.st-board')).filter((s) => s.label.includes('can move here'));
  check(targets.length > 0, 'the Captain can move');
  check(!targets.some((s) => s.name === 'e5'), 'an attack on an unknown piece offered on a view');
  await clickSquare(page, targets.find((s) => s.name === 'f6') ? 'f6' : targets[0].name, '.st-board');
  await page.locator('#an-tree .mv').first().waitFor();
  check((await page.locator('#an-status').textContent()) === 'Blue to move.', 'Blue to move after it');
  check(/^This is Red's view: the bot analyses only Red's moves\.$/.test(await page.locator('#an-eval').textContent()),
    'the bot asked about Blue\'s moves on Red\'s view');
  check((await page.locator('.st-note').count()) === 0, 'beliefs shown on Blue\'s move');
  await page.locator('#an-prev').click();
  await roundAt(page, 1);
  check((await page.locator('.st-note').count()) === 40, 'the beliefs back with Red to move');
  // the editor on a whole position: a Blue Bomb among Red's pieces is refused
  // with the engine's reason; Red's Bomb on j2 taken off instead, Blue to
  // move, the two-square counters cleared
  await page.goto(`${t.url}/analysis/stratego`);
  await page.locator('.st-board [data-piece]').first().waitFor();
  await page.locator('#an-edit').click();
  await page.locator('[data-tool="b"]').click();
  await clickSquare(page, 'j2', '.st-board');
  await page.locator('#an-edit-done').click();
  await waitText(page.locator('#an-edit-note'), /^The engine does not take this position: the Blue Bomb on j2 /,
    'a Bomb out of its setup rows');
  await page.locator('[data-tool="empty"]').click();
  await clickSquare(page, 'j2', '.st-board');
  await page.locator('#an-edit-side').selectOption('b');
  await page.locator('#an-edit-done').click();
  await page.waitForURL((u) => / b \d+ - -$/.test(new URL(u).searchParams.get('fen') || ''));
  await page.locator('.st-board [data-piece]').first().waitFor();
  check((await page.locator('.st-board [data-square="j2"]').getAttribute('aria-label')).startsWith('j2, empty'),
    'j2 emptied');
  await waitText(page.locator('#an-status'), /^Blue to move\.$/, 'Blue to move after the edit');
  await roundAt(page, 1);
  await checkReadable(page, 'Stratego analysis');
  check(hits.length === 0, `the page asked the server about positions: ${hits.join(', ')}`);
});

test('analysis-phone', async (t) => {
  const page = await t.newPage({ width: 360, height: 740 });
  await blockGameApi(page);
  await page.goto(`${t.url}/analysis/rampart-xl`);
  await page.locator('.board [data-piece]').first().waitFor();
  await evalAt(page, 2);
  await checkFits(page, 'analysis at 360 px');
  const moved = await playMove(page, 'Bottom', '.board');
  check(moved, 'a move on a phone');
  await page.locator('#an-tree .mv').first().waitFor();
  await checkFits(page, 'analysis at 360 px after a move');
  await page.locator('#an-lines').selectOption('3');
  await page.locator('#an-settings-btn').click();
  await checkFits(page, 'analysis at 360 px with three lines and the settings');
  // the other games' boards, with Stratego's beliefs on a view
  await page.goto(`${t.url}/analysis/keeps-moats`);
  await page.locator('.km-board [data-square]').first().waitFor();
  await evalAt(page, 1);
  await checkFits(page, 'Keeps & Moats analysis at 360 px');
  await page.goto(`${t.url}/analysis/stratego?fen=${encodeURIComponent(RED_VIEW)}`);
  await page.locator('.st-note').first().waitFor();
  await roundAt(page, 1);
  await checkFits(page, 'Stratego analysis at 360 px');
});

await run();
