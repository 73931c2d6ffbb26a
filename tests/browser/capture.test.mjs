// capture.test.mjs -- the Rampart game page's capture marks, as a person
// reads them: after a capture the square of the piece taken says what was
// taken, and no red cross is ever drawn over a piece standing on the board
// (the taker of a direct capture stands on the square it took). A game
// against the weakest searching bot (a second a move) on the smallest board, taking whenever we can.

import { test, run, check, clickSquare, sleep } from './lib.mjs';
import { squares, waitTurn } from './moves.mjs';
import { guest, hold, noJunk } from './play-lib.mjs';

/** Starts recording, after every change of the page, each captured square on the board with
 *  what a person reads and sees there (the bot answers at once, so the marks
 *  of one move may last only a moment). */
async function recordMarks(page) {
  await page.evaluate(() => {
    const seen = new Map();
    window.__marks = seen;
    const look = () => {
      const crosses = [...document.querySelectorAll('.board .mark-captured-x')].map((e) => e.getBoundingClientRect());
      for (const cell of document.querySelectorAll('.board [data-square]')) {
        const label = cell.getAttribute('aria-label') || '';
        if (!/piece taken|took /.test(label)) continue;
        const sq = cell.dataset.square;
        const r = cell.getBoundingClientRect();
        const inside = (b) => { const x = b.left + b.width / 2, y = b.top + b.height / 2; return x > r.left && x < r.right && y > r.top && y < r.bottom; };
        const piece = document.querySelector(`.board [data-piece="${sq}"]`);
        const badge = document.querySelector(`.board [data-taken="${sq}"]`);
        const bb = badge && badge.getBoundingClientRect();
        const m = {
          sq, label, occupied: !!piece,
          cross: crosses.some(inside),
          // the badge sits in the square's top-right corner, off the piece's middle
          badgeInCorner: !!bb && bb.left >= r.left + r.width / 2 && bb.bottom <= r.top + r.height / 2 + 1,
          moves: document.querySelectorAll('#move-list .mv').length,
        };
        seen.set(JSON.stringify(m), m);
      }
    };
    // after every change of the board, before the next message is handled
    new MutationObserver(look).observe(document.querySelector('#main'), { subtree: true, childList: true, attributes: true, attributeFilter: ['aria-label'] });
    look();
  });
}

const recorded = (page) => page.evaluate(() => [...window.__marks.values()]);

/** Plays one move for Bottom, taking a Top piece if any piece can; returns
 *  whether it was a direct capture. */
async function playTaking(page) {
  const mine = (await squares(page, '.board')).filter((s) => s.label.includes(', Bottom ') && s.label.includes(', can move'));
  let fallback = null;
  for (const s of mine.sort(() => Math.random() - 0.5)) {
    await clickSquare(page, s.name, '.board');
    const targets = (await squares(page, '.board')).filter((x) => x.label.includes('can move here'));
    const prey = targets.find((x) => x.label.includes(', Top '));
    if (prey) {
      await clickSquare(page, prey.name, '.board');
      return prey.name;
    }
    if (!fallback && targets.length) fallback = [s.name, targets[Math.floor(Math.random() * targets.length)].name];
  }
  check(fallback, 'no Bottom piece could move');
  await clickSquare(page, fallback[0], '.board');
  await clickSquare(page, fallback[1], '.board');
  return null;
}

test('capture-marks', async (t) => {
  const page = await t.newPage();
  await guest(page, t.url);
  const id = await hold(page, `
    send({ type: 'play_bot', variant: 'rampart-mini', base_ms: 0, inc_ms: 0, move_limit: 50, rated: false, bot: 'bot-level1', side: 0 });
    const m = await wait((m) => m.type === 'game' || m.type === 'error');
    if (m.type === 'error') throw new Error(m.error);
    return m.game.id;`);
  await page.goto(`${t.url}/game/${id}`);
  await page.locator('.board [data-piece]').first().waitFor();
  await recordMarks(page);
  const taken = [];
  for (let n = 0; n < 40; n++) {
    if ((await waitTurn(page)) === 'over') break;
    const before = await page.locator('#move-list .mv').count();
    const took = await playTaking(page);
    if (took) taken.push({ sq: took, moves: before + 1 });
    await page.waitForFunction((n) => document.querySelectorAll('#move-list .mv').length > n, before);
    const marks = await recorded(page);
    if (taken.length >= 2 && marks.some((m) => !m.occupied)) break;
  }
  let direct = 0, emptied = 0;
  const marks = await recorded(page);
  for (const m of marks) {
    if (m.occupied) {
      direct++;
      check(!m.cross, `a red cross is drawn over the taker on ${m.sq} (${m.label})`);
      check(/took (Top|Bottom) (Queen|Knight|King|Blocker) here/.test(m.label), `the taker's square reads "${m.label}"`);
      check(m.badgeInCorner, `the piece taken on ${m.sq} is not shown in the square's corner`);
    } else {
      emptied++;
      check(m.cross, `the emptied square ${m.sq} has no cross`);
      check(/piece taken: (Top|Bottom) (Queen|Knight|King|Blocker)/.test(m.label), `the emptied square reads "${m.label}"`);
    }
  }
  for (const c of taken)
    check(marks.some((m) => m.sq === c.sq && m.moves === c.moves && m.occupied), `our capture on ${c.sq} (move ${c.moves}) was never marked`);
  await t.shot(page, 'after-captures');
  check(direct > 0, 'no direct capture was seen in the game');
  await noJunk(page, 'after the captures');
  // after a reload the last move's marks come back from the server's positions
  await page.reload();
  await page.locator('.board [data-piece]').first().waitFor();
  await recordMarks(page);
  await sleep(800);
  for (const m of await recorded(page)) check(!(m.occupied && m.cross), `after a reload a cross covers the taker on ${m.sq}`);
});

await run();
