// review.test.mjs -- a finished game replayed with the keyboard: Home shows
// the start, Right steps a move, End the last position.

import { test, run, check } from './lib.mjs';
import { playMove, waitTurn, squares } from './moves.mjs';

const boardText = async (page) => (await squares(page)).map((s) => s.label.replace(/, (last move|piece taken)/g, '')).join('|');

test('review-keyboard', async (t) => {
  const page = await t.newPage();
  await page.goto(t.url + '/');
  await page.getByLabel('Rampart Classic').check();
  await page.getByLabel('A bot').check();
  await page.selectOption('#bot-select', 'bot-random');
  await page.getByLabel('None').check();
  await page.click('#start-game');
  await page.waitForURL(/\/game\/\d+$/);
  const id = page.url().split('/').pop();
  for (let i = 0; i < 3; i++) {
    check((await waitTurn(page)) === 'turn', 'the game ended early');
    await playMove(page, 'Bottom');
  }
  await waitTurn(page);
  await page.click('#resign');
  await page.click('#resign-yes');
  await page.locator('#result .result').waitFor();
  await page.getByRole('link', { name: 'Review this game' }).click();
  await page.waitForURL(`${t.url}/review/${id}`);
  await page.locator('#review-ply').waitFor();
  await t.shot(page, 'end');
  const last = await boardText(page);
  await page.keyboard.press('Home');
  check((await page.locator('#review-ply').textContent()) === 'Start position', 'Home did not go to the start');
  const start = await boardText(page);
  check(start !== last, 'the start looks like the end');
  check(start.includes('c1, Bottom Queen') && start.includes('c5, empty'), 'the start position is not the Classic start');
  await page.keyboard.press('ArrowRight');
  const one = await boardText(page);
  check(one !== start, 'Right did not change the board');
  check(/^Move 1, Bottom/.test(await page.locator('#review-ply').textContent()), 'Right did not show move 1');
  await t.shot(page, 'move1');
  await page.keyboard.press('ArrowLeft');
  check((await boardText(page)) === start, 'Left did not go back to the start');
  await page.keyboard.press('End');
  check((await boardText(page)) === last, 'End did not show the last position');
  const record = await (await page.request.get(`${t.url}/api/games/${id}/record`)).text();
  check(record.includes('[Reason "resign"]'), 'the record does not say the game was resigned');
});

await run();
