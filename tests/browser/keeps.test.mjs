// keeps.test.mjs -- Keeps & Moats on the page: a four-seat table with two
// people (two browser contexts) and two bots, opened and joined through the
// start page and lobby, played by clicking on the board while a third
// context watches; and the six help pages with their engine-checked diagrams.

import { test, run, check, clickSquare, sleep } from './lib.mjs';

const labels = (page) => page.$$eval('.km-game [data-square]', (els) => els.map((e) => ({ name: e.dataset.square, label: e.getAttribute('aria-label') || '' })));

/** Plays one move if it is this page's turn: a piece, then a target (and a
 *  choice or a pass when asked). Returns the move's squares, or null. */
async function playIfMyTurn(page) {
  const status = await page.locator('#game-status').textContent();
  if (!/your move/i.test(status)) return null;
  if (await page.locator('#km-pass-btn').count()) {
    await page.click('#km-pass-btn');
    return 'pass';
  }
  const movable = (await labels(page)).filter((s) => s.label.endsWith(', can move'));
  movable.sort(() => Math.random() - 0.5);
  for (const s of movable) {
    await clickSquare(page, s.name, '.km-game');
    const targets = (await labels(page)).filter((x) => x.label.includes('can move here')).map((x) => x.name);
    if (!targets.length) continue;
    const to = targets[Math.floor(Math.random() * targets.length)];
    await clickSquare(page, to, '.km-game');
    if (await page.locator('#km-choice:not([hidden])').count()) await page.locator('#km-choice button[data-move]').first().click();
    return s.name + to;
  }
  throw new Error(`no movable piece found though the status says "${status}"`);
}

test('keeps-table', async (t) => {
  const a = await t.newPage();
  const b = await t.newPage({ width: 360, height: 780 }); // a phone
  await a.goto(t.url + '/');
  await a.getByLabel('Keeps & Moats Chess', { exact: true }).check();
  await a.locator('#km-table').waitFor();
  await a.getByLabel('None').check();
  await a.selectOption('#km-game-type', '1'); // Crossroad Allies: White+Black vs Red+Blue
  await a.selectOption('#km-seat-0', 'me');
  await a.selectOption('#km-seat-1', 'bot-capture');
  await a.selectOption('#km-seat-2', 'open');
  await a.selectOption('#km-seat-3', 'bot-capture');
  await t.shot(a, '1-table-form');
  await a.click('#start-game');
  await a.locator('#km-table-open').waitFor();

  await b.goto(t.url + '/');
  const sit = b.locator('[data-sit$=":2"]');
  await sit.waitFor();
  await t.shot(b, '2-lobby-phone');
  await sit.click();
  await Promise.all([a.waitForURL(/\/game\/\d+$/), b.waitForURL(/\/game\/\d+$/)]);
  const id = a.url().split('/').pop();
  check(b.url().endsWith(`/game/${id}`), 'both people are in the same game');

  const watcher = await t.newPage();
  await watcher.goto(`${t.url}/game/${id}`);
  await watcher.locator('#km-kingdoms').waitFor();
  check(!(await watcher.locator('#resign').count()), 'a spectator has no Resign button');

  // White (A) and Black (B) play two moves each; Red and Blue are bots
  const played = { a: 0, b: 0 };
  const deadline = Date.now() + 40000;
  while ((played.a < 2 || played.b < 2) && Date.now() < deadline) {
    if (played.a < 2 && (await playIfMyTurn(a))) played.a++;
    if (played.b < 2 && (await playIfMyTurn(b))) played.b++;
    await sleep(150);
  }
  check(played.a >= 2 && played.b >= 2, `moves played: White ${played.a}, Black ${played.b}`);
  await watcher.waitForFunction(() => document.querySelectorAll('#move-list li').length >= 7);
  const kingdoms = await watcher.locator('#km-kingdoms').textContent();
  check(/bot-capture/.test(kingdoms) && /White/.test(kingdoms) && /Blue/.test(kingdoms), `the kingdoms panel names the players: ${kingdoms}`);
  const info = await watcher.locator('#km-info').textContent();
  check(/Crossroad Allies/.test(info) && /Kingdom Gained/.test(info), `the game type and King result are shown: ${info}`);
  await t.shot(a, '3-white');
  await t.shot(b, '4-black-phone');
  await t.shot(watcher, '5-spectator');

  // a label reads like "i2, White King"
  const i2 = await a.locator('.km-game [data-square="i2"]').getAttribute('aria-label');
  check(/^i2, White King|^i2, White Castle Pawn/.test(i2), `label of i2: ${i2}`);

  await a.click('#resign');
  await a.click('#resign-yes');
  await watcher.locator('#result .result').waitFor({ timeout: 20000 }).catch(() => {});
});

test('keeps-help', async (t) => {
  const page = await t.newPage();
  // every diagram is judged by the engine in the page: the server's position API is blocked
  await page.route(/\/api\/position/, (route) => route.abort());
  for (const slug of ['overview', 'interface', 'rules', 'board', 'pieces', 'tips']) {
    await page.goto(`${t.url}/keeps/help/${slug}`);
    await page.locator('h1').waitFor();
    const n = await page.locator('.km-diagram').count();
    if (n) await page.waitForFunction((n) => document.querySelectorAll('.km-diagram.km-checked, .km-diagram .error').length === n, n);
    const errors = await page.locator('.km-diagram .error').allTextContents();
    check(!errors.length, `${slug}: ${errors.join('; ')}`);
    await t.shot(page, slug);
    if (slug !== 'pieces') continue;
    check(await page.locator('.km-diagram svg').count() >= 4, 'the Pieces page has its diagrams');
    const choices = await page.locator('.km-choices-list li').allTextContents();
    check(choices.some((c) => /Release your Rook/.test(c)) && choices.some((c) => /Assassinate the Black Queen on i15/.test(c)), `K5 choices: ${choices.join(' | ')}`);
  }
});

run();
