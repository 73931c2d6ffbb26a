// account.test.mjs -- two people sign up, play a rated game that ends by
// resignation, and the winner's profile shows the new rating.

import { test, run, check } from './lib.mjs';
import { waitTurn } from './moves.mjs';

async function signUp(t, page, name) {
  await page.goto(t.url + '/');
  await page.locator('.who').getByRole('link', { name: 'Sign up' }).click();
  await page.fill('#auth-name', name);
  await page.fill('#auth-pass', 'correct horse battery');
  await page.click('button[type=submit]');
  await page.locator('.who').getByText(name).waitFor();
}

test('account-rated-game', async (t) => {
  const a = await t.newPage();
  const b = await t.newPage();
  const stamp = String(Date.now()).slice(-6);
  const an = `alice${stamp}`, bn = `bob${stamp}`;
  await signUp(t, a, an);
  await signUp(t, b, bn);
  await t.shot(a, 'signed-up');

  await a.locator('#nav').getByRole('link', { name: 'Play' }).click();
  await a.getByLabel('Rampart Classic').check();
  await a.getByLabel('Anyone (open a seek in the lobby)').check();
  await a.getByLabel('5+3').check();
  await a.check('#rated');
  await a.click('#start-game');
  await a.getByText('Waiting for an opponent').waitFor();
  await b.goto(t.url + '/');
  await b.locator('#lobby-seeks button[data-seek]').first().click();
  await Promise.all([a.waitForURL(/\/game\/\d+$/), b.waitForURL(/\/game\/\d+$/)]);
  // the page draws the game's title once the game has come: wait for it
  await a.locator('h1', { hasText: ' · rated' }).waitFor();

  // bob resigns at once
  await b.click('#resign');
  await t.shot(b, 'confirm-resign');
  await b.click('#resign-yes');
  await a.locator('#result .result').waitFor();
  const text = await a.locator('#result').textContent();
  check(text.includes(`(${an}) wins`) && text.includes(`(${bn}) resigned`), `unexpected result: ${text}`);
  await t.shot(a, 'result');

  await a.locator('.who a').first().click();
  await a.waitForURL(`${t.url}/players/${an}`);
  const rating = Number(await a.locator('#ratings tr[data-variant="rampart"] .rating').textContent());
  check(rating > 1500, `the winner's rating did not rise: ${rating}`);
  await a.locator('.chart svg').first().waitFor();
  // the games list comes after the ratings, from a request of its own
  await a.locator('#games a[href^="/review/"]').first().waitFor();
  await t.shot(a, 'profile');
  await b.goto(`${t.url}/players/${bn}`);
  const lost = Number(await b.locator('#ratings tr[data-variant="rampart"] .rating').textContent());
  check(lost < 1500, `the loser's rating did not fall: ${lost}`);
});

await run();
