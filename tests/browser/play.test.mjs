// play.test.mjs -- a newcomer's whole game against a bot, with the mouse:
// the smallest Fun Zone board, the shortest move limit, until the result shows.

import { test, run, check } from './lib.mjs';
import { playMove, waitTurn } from './moves.mjs';

test('play-bot-game', async (t) => {
  const page = await t.newPage();
  await page.goto(t.url + '/');
  await page.locator('#new-game').waitFor();
  await t.shot(page, 'home');
  await page.getByLabel('Rampart Mini').check();
  await page.getByLabel('A bot').check();
  await page.selectOption('#bot-select', 'bot-random');
  await page.getByLabel('None').check();
  await page.selectOption('#limit-select', '50');
  await page.click('#start-game');
  await page.waitForURL(/\/game\/\d+$/);
  await page.locator('[data-square]').first().waitFor();
  await t.shot(page, 'start');
  let moves = 0;
  for (;;) {
    const state = await waitTurn(page);
    if (state === 'over') break;
    const mv = await playMove(page, 'Bottom');
    check(mv, 'no piece could move although it was our turn');
    moves++;
    if (moves === 3) await t.shot(page, 'playing');
    check(moves < 120, 'the game did not end within the move limit');
  }
  await t.shot(page, 'result');
  const result = await page.locator('#result').textContent();
  check(/wins|Draw/.test(result), `no result shown: ${result}`);
  check(moves > 0, 'no move was played');
});

await run();
