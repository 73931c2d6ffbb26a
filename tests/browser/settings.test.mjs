// settings.test.mjs -- the settings a player looks for (issue 47), as a
// person meets them: the theme (the device's dark setting followed unless
// light or dark is chosen), the boards' colours and the sounds; kept in the
// browser for a guest and on the account for a signed-in person, whose
// other devices get them; and the dark theme as readable as the light one
// (axe-core's contrast check on the main pages).

import { test, run, check, signUpAs, trackApi, settle } from './lib.mjs';
import { axeViolations } from './axe.mjs';

const rootBg = (page) => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
const dark = (rgb) => {
  const [r, g, b] = rgb.match(/\d+/g).map(Number);
  return r + g + b < 200;
};

test('a-guest-chooses-and-keeps', async (t) => {
  const page = trackApi(await t.newPage());
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto(t.url + '/');
  await page.locator('.who').getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('heading', { name: 'Settings' }).waitFor();
  check(/kept in this browser/i.test(await page.locator('#settings-status').innerText()), 'a guest is not told where its settings stay');
  check(!dark(await rootBg(page)), 'the page is dark before anything was chosen on a light device');
  await page.getByLabel('Dark', { exact: true }).check();
  await page.locator('#settings-status', { hasText: 'Theme: dark.' }).waitFor();
  check(dark(await rootBg(page)), 'choosing Dark did not darken the page');
  await page.getByLabel('Brown', { exact: true }).check();
  await page.getByLabel(/Play a sound/).check();
  // kept: a new visit in the same browser shows them
  await settle(page);
  await page.goto(t.url + '/settings');
  await page.getByRole('heading', { name: 'Settings' }).waitFor();
  check(dark(await rootBg(page)), 'the dark theme was not kept');
  check(await page.getByLabel('Brown', { exact: true }).isChecked(), 'the board colours were not kept');
  check(await page.getByLabel(/Play a sound/).isChecked(), 'the sound was not kept');
  check(await page.evaluate(() => document.documentElement.dataset.board) === 'brown', 'the boards do not use the chosen colours');
});

test('the-device-setting-is-followed', async (t) => {
  const page = trackApi(await t.newPage());
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto(t.url + '/settings');
  await page.getByRole('heading', { name: 'Settings' }).waitFor();
  check(await page.getByLabel(/As my device/).isChecked(), 'the theme does not start as the device');
  check(dark(await rootBg(page)), 'a dark device gets a light page');
  await page.getByLabel('Light', { exact: true }).check();
  await page.locator('#settings-status', { hasText: 'Theme: light.' }).waitFor();
  check(!dark(await rootBg(page)), 'choosing Light on a dark device left the page dark');
});

test('an-account-keeps-them-everywhere', async (t) => {
  const page = trackApi(await t.newPage());
  const name = `set${String(Date.now()).slice(-6)}`;
  await page.goto(t.url + '/');
  await signUpAs(page, t.url, name);
  await page.goto(t.url + '/settings');
  await page.getByRole('heading', { name: 'Settings' }).waitFor();
  check(/kept on your account/i.test(await page.locator('#settings-status').innerText()), 'an account is not told its settings are kept on it');
  await page.getByLabel('Blue', { exact: true }).check();
  await page.locator('#settings-status', { hasText: 'Kept on your account' }).waitFor();
  await page.getByLabel('Dark', { exact: true }).check();
  await page.locator('#settings-status', { hasText: 'Theme: dark.' }).waitFor();
  const kept = await (await page.request.get(`${t.url}/api/account/prefs`)).json();
  check(kept.theme === 'dark' && kept.board === 'blue', `the account keeps ${JSON.stringify(kept)}`);
  // another device: a fresh browser, signed in
  const other = trackApi(await t.newPage());
  await other.emulateMedia({ colorScheme: 'light' });
  await other.goto(`${t.url}/signin`);
  await other.fill('#auth-name', name);
  await other.fill('#auth-pass', 'correct horse battery');
  await other.click('button[type=submit]');
  await other.locator('.who').getByText(name).waitFor();
  await other.waitForFunction(() => document.documentElement.dataset.theme === 'dark' && document.documentElement.dataset.board === 'blue');
  check(dark(await rootBg(other)), 'the other device did not get the dark theme');
});

test('pieces-as-letters', async (t) => {
  const page = trackApi(await t.newPage());
  const name = `pcs${String(Date.now()).slice(-6)}`;
  await page.goto(t.url + '/');
  await signUpAs(page, t.url, name);
  // the figures, as a newcomer first sees them
  await page.goto(t.url + '/analysis/rampart');
  await page.locator('.board [data-piece]').first().waitFor();
  check(await page.locator('.board [data-piece] path').count() > 0, 'Rampart\'s pieces are not drawn as figures at first');
  await settle(page);
  await page.goto(t.url + '/settings');
  await page.getByLabel('Letters only, large').check();
  await page.locator('#settings-status', { hasText: 'Pieces: letters only. Kept on your account' }).waitFor();
  // Rampart: a disc and the letter, no figure
  await page.goto(t.url + '/analysis/rampart');
  await page.locator('.board [data-piece]').first().waitFor();
  check(await page.locator('.board [data-piece] path').count() === 0, 'a figure drawn with letters only chosen');
  const letters = new Set(await page.locator('.board [data-piece] .piece-letter').allTextContents());
  check(['Q', 'N', 'K', 'B'].every((k) => letters.has(k)), `Rampart's letters: ${[...letters]}`);
  // Keeps & Moats: letters, not chess figures
  await settle(page);
  await page.goto(t.url + '/analysis/keeps-moats');
  await page.locator('.km-board [data-piece]').first().waitFor();
  const km = new Set(await page.locator('.km-board .km-glyph').allTextContents());
  check([...km].every((x) => /^[KQRBNP]$/.test(x)) && km.has('K') && km.has('P'), `Keeps & Moats's pieces read ${[...km]}`);
  await settle(page);
  const kept = await (await page.request.get(`${t.url}/api/account/prefs`)).json();
  check(kept.pieces === 'letters', `the account keeps ${JSON.stringify(kept)}`);
});

test('the-dark-theme-reads-as-well', async (t) => {
  const page = trackApi(await t.newPage());
  await page.emulateMedia({ colorScheme: 'dark' });
  const found = [];
  for (const p of ['/', '/forum', '/settings', '/signup', '/analysis', '/analysis/rampart', '/ladder', '/learn', '/stratego/help']) {
    await settle(page);
    await page.goto(t.url + p);
    await page.locator('h1').first().waitFor();
    await settle(page);
    check(dark(await rootBg(page)), `${p} is not dark on a dark device`);
    const v = await axeViolations(page);
    if (v.length) found.push(`${p}: ${v.join(', ')}`);
  }
  check(!found.length, `axe-core in the dark theme: ${found.join('; ')}`);
});

await run();
