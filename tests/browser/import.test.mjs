// import.test.mjs -- a game played elsewhere, imported on the account page
// from its PGN record (docs/pgn.md, POST /api/games/import): a record with an
// illegal move is refused with the reader's reason and its line, and nothing
// is kept; a good one is kept, and its review shows its moves.

import { test, run, check, signUpAs } from './lib.mjs';

const record = (moves) => `[Event "Casual game"]
[Site "?"]
[Date "2026.12.04"]
[Round "-"]
[White "alice"]
[Black "bob"]
[Result "*"]
[Variant "rampart"]

${moves} *
`;

test('account-import-pgn', async (t) => {
  const page = await t.newPage();
  await signUpAs(page, t.url, `imp${String(Date.now()).slice(-7)}`);
  await page.goto(`${t.url}/account`);
  await page.getByRole('heading', { name: 'Import a game' }).waitFor();

  await page.click('#import-game');
  check((await page.locator('#import-error').textContent()).includes('Paste a record'), 'an empty record was not refused');

  await page.fill('#import-pgn', record('1. c2a2 c8a8 2. d1e1 b8b1'));
  await page.click('#import-game');
  await page.locator('#import-error').filter({ hasText: 'b8b1' }).waitFor();
  const why = await page.locator('#import-error').textContent();
  check(/line 10/.test(why) && /illegal/.test(why), `the refusal does not name the move's line and why: "${why}"`);
  check(await page.locator('#import-done a').count() === 0, 'a refused record was imported');
  await t.shot(page, 'refused');

  await page.fill('#import-pgn', record('1. c2a2 c8a8 2. d1e1 b9c8'));
  await page.click('#import-game');
  const link = page.locator('#import-done a');
  await link.waitFor();
  const said = await page.locator('#import-done').textContent();
  check(said.includes('4 moves') && said.includes('rampart'), `the page says "${said}"`);
  await t.shot(page, 'imported');
  await link.click();
  await page.waitForURL(/\/review\/\d+$/);
  const body = page.locator('main');
  await body.filter({ hasText: 'b9c8' }).first().waitFor();
  const text = await body.textContent();
  check(['c2a2', 'c8a8', 'd1e1', 'b9c8'].every((m) => text.includes(m)), 'the review does not list the imported moves');
});

await run();
