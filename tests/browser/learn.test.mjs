// learn.test.mjs -- the Learn section as a newcomer uses it: the lesson list,
// a lesson's live board (click a piece, see its targets, "Show me"), a
// puzzle solved by clicking (a wrong try first), the progress remembered on
// the list, and the last lesson's way to a beginner bot, with the server's
// position API blocked: legal moves and what they take come from the engine
// in the page. Also proves every lesson's positions and claims against the
// server's engine (learn-positions.mjs).

import { test, run, check, clickSquare as clickAt, square } from './lib.mjs';
import { checkLessons } from './learn-positions.mjs';

const EXAMPLE = '.learn-scene:not(.learn-puzzle)';
const PUZZLE = '.learn-puzzle';

/** The status line of the example or the puzzle. */
function status(page, within) {
  return page.locator(`${within} .learn-status`);
}

/** Clicks a square, scrolled into view first (the boards sit low on a phone). */
async function clickSquare(page, name, within) {
  await square(page, name, within).scrollIntoViewIfNeeded();
  await clickAt(page, name, within);
}

/** Waits until a board has its legal moves (its pieces can be picked). */
async function boardReady(page, within) {
  await page.locator(`${within} svg.can-move`).waitFor();
}

test('learn-lesson-and-puzzle', async (t) => {
  const page = await t.newPage({ width: 360, height: 740 }); // a phone
  // the lessons ask the engine in the page, never the server's position API
  const asked = [];
  await page.route(/\/api\/position/, (route) => {
    asked.push(route.request().url());
    return route.abort();
  });
  await page.goto(t.url + '/learn');
  await page.getByRole('heading', { name: 'Learn Rampart' }).waitFor();
  check(await page.getByText(/^0 of \d+ puzzles solved/).isVisible(), 'progress starts at 0');
  await t.shot(page, 'index');

  await page.getByRole('link', { name: 'The Knight', exact: true }).click();
  await page.getByRole('heading', { name: 'The Knight', level: 1 }).waitFor();
  await boardReady(page, EXAMPLE);

  // Click the Knight: its targets appear, among them the King it can take.
  await clickSquare(page, 'c3', EXAMPLE);
  const label = await square(page, 'c5', EXAMPLE).getAttribute('aria-label');
  check(/can move here/.test(label ?? ''), `c5 should be a target, label: ${label}`);
  check(await page.locator(`${EXAMPLE} .mark-target`).count() >= 3, 'quiet targets are shown');
  check(await page.locator(`${EXAMPLE} .mark-target-capture`).count() === 1, 'one capture target is shown');
  await t.shot(page, 'targets');

  // "Show me" plays the key move and says what it took.
  await page.locator(`${EXAMPLE} [data-action=show]`).click();
  await status(page, EXAMPLE).filter({ hasText: 'Taken: King on c5' }).waitFor();
  check(await page.locator(`${EXAMPLE} .mark-last`).count() === 2, 'the move is marked');
  await t.shot(page, 'shown');

  // The puzzle: a wrong try first, then the answer, by clicking.
  await boardReady(page, PUZZLE);
  await clickSquare(page, 'b2', PUZZLE);
  await clickSquare(page, 'd2', PUZZLE);
  await status(page, PUZZLE).filter({ hasText: 'Not this one' }).waitFor();
  await t.shot(page, 'wrong');
  await page.locator(`${PUZZLE} [data-action=again]`).click();
  await boardReady(page, PUZZLE);
  await clickSquare(page, 'b2', PUZZLE);
  await clickSquare(page, 'b4', PUZZLE);
  await status(page, PUZZLE).filter({ hasText: 'Solved!' }).waitFor();
  const next = page.getByRole('link', { name: 'Next: The King →' });
  check(await next.isVisible(), 'a Next link follows the solved puzzle');
  await t.shot(page, 'solved');

  // The list remembers it.
  await page.getByRole('navigation', { name: 'Lessons' }).getByRole('link', { name: 'Learn' }).click();
  await page.getByText(/^1 of \d+ puzzles solved/).waitFor();
  check(await page.locator('.learn-list li.done').getByText('The Knight').isVisible(), 'The Knight is ticked');
  await t.shot(page, 'progress');
  check(asked.length === 0, `the lessons asked the server: ${asked.join(', ')}`);
});

test('learn-surround-and-finish', async (t) => {
  const page = await t.newPage();
  await page.goto(t.url + '/learn/surround');
  await boardReady(page, EXAMPLE);
  await page.locator(`${EXAMPLE} [data-action=show]`).click();
  await status(page, EXAMPLE).filter({ hasText: 'Taken: Knight on c5' }).waitFor();
  check(await page.locator(`${EXAMPLE} .mark-captured`).count() === 1, 'the surrounded square is marked');
  await t.shot(page, 'surrounded');

  // The hint outlines the piece to move; "Show the answer" plays it.
  await boardReady(page, PUZZLE);
  await page.locator(`${PUZZLE} [data-action=hint]`).click();
  await status(page, PUZZLE).filter({ hasText: 'Hint:' }).waitFor();
  check(await page.locator(`${PUZZLE} .mark-hint`).count() === 1, 'the hint marks a square');
  await page.locator(`${PUZZLE} [data-action=answer]`).click();
  await status(page, PUZZLE).filter({ hasText: 'The answer:' }).waitFor();

  // The last lesson leads to a game against the beginner bot.
  await page.goto(t.url + '/learn/trading');
  await page.getByRole('heading', { name: 'Ready for a real game?' }).waitFor();
  const play = page.locator('.learn-finish a');
  check((await play.getAttribute('href')) === '/?bot=bot-level1', 'the last lesson links to the beginner bot');
  await t.shot(page, 'finish');
});

/** Moves a board's keyboard focus to `target` with the arrow keys (the
 *  board is not flipped: Right is the next file, Up the next row). */
async function keyTo(page, within, target) {
  const svg = page.locator(`${within} svg`).first();
  const at = (await svg.getAttribute('aria-activedescendant')).split('-').pop();
  const dx = target.charCodeAt(0) - at.charCodeAt(0);
  const dy = Number(target.slice(1)) - Number(at.slice(1));
  for (let i = 0; i < Math.abs(dx); i++) await page.keyboard.press(dx > 0 ? 'ArrowRight' : 'ArrowLeft');
  for (let i = 0; i < Math.abs(dy); i++) await page.keyboard.press(dy > 0 ? 'ArrowUp' : 'ArrowDown');
}

test('learn-keyboard', async (t) => {
  const page = await t.newPage();
  await page.goto(t.url + '/learn/queen');
  await boardReady(page, EXAMPLE);
  // "Show me" from the keyboard
  await page.locator(`${EXAMPLE} [data-action=show]`).focus();
  await page.keyboard.press('Enter');
  await status(page, EXAMPLE).filter({ hasText: 'Taken: Knight on e2' }).waitFor();
  // the puzzle with arrows and Enter: the Queen a1 to d4
  await boardReady(page, PUZZLE);
  await page.locator(`${PUZZLE} svg`).first().focus();
  await keyTo(page, PUZZLE, 'a1');
  await page.keyboard.press('Enter');
  await keyTo(page, PUZZLE, 'd4');
  await page.keyboard.press('Enter');
  await status(page, PUZZLE).filter({ hasText: 'Solved!' }).waitFor();
  await t.shot(page, 'solved');
});

test('learn-positions', async (t) => {
  const failures = await checkLessons(t.url, () => {});
  check(!failures.length, failures.join(' | '));
});

await run();
