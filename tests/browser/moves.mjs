// tests/browser/moves.mjs -- playing moves through the board as a person
// does: click one of your pieces, see where it may go, click a target.

import { clickSquare, sleep } from './lib.mjs';

/** Labels of every square on the first board: [{name, label}]. */
export async function squares(page, within = 'body') {
  return page.$$eval(`${within} [data-square]`, (els) => els.map((e) => ({ name: e.dataset.square, label: e.getAttribute('aria-label') || '' })));
}

/** Plays one move for `side` ('Bottom' or 'Top') with two clicks; returns the
 *  move text, or null if no piece of that side could move. `pick` chooses among
 *  the targets (default: a random one). */
export async function playMove(page, side, within = 'body', pick = (ts) => ts[Math.floor(Math.random() * ts.length)]) {
  const mine = (await squares(page, within)).filter((s) => s.label.includes(`, ${side} `));
  mine.sort(() => Math.random() - 0.5);
  for (const s of mine) {
    await clickSquare(page, s.name, within);
    const targets = (await squares(page, within)).filter((x) => x.label.includes('can move here')).map((x) => x.name);
    if (!targets.length) continue;
    const to = pick(targets);
    await clickSquare(page, to, within);
    return s.name + to;
  }
  return null;
}

/** Waits until the game page says it is this browser's move, or the game is over. */
export async function waitTurn(page, timeoutMs = 20000) {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await page.locator('#result .result').count()) return 'over';
    const st = (await page.locator('#game-status').textContent()) || '';
    if (st === 'Your move' || st.endsWith(' to move') && (await page.locator('svg.can-move').count())) return 'turn';
    await sleep(50);
  }
  throw new Error('waited too long for a move');
}
