// newcomer.test.mjs -- what a new player stumbled on (issue 47), read as the
// person reads it: a game number nobody played, a sign-up form with two
// mistakes at once, the record of a finished game to keep, the analysis
// board found in the menu by the games' names, a game called off in its
// first moves, a sterile draw explained wherever its result is read, and
// the New game form saying what Play starts, and why it could not, and a
// spectator taken along to the players' rematch.

import { test, run, check, trackApi, settle, signUpAs } from './lib.mjs';
import { botGamesResigned } from './wsplay.mjs';
import { hold, resign, twoPeopleGame, waitText } from './play-lib.mjs';

test('a-game-nobody-played', async (t) => {
  const page = trackApi(await t.newPage());
  await page.goto(t.url + '/game/99999');
  await page.getByRole('heading', { name: 'Game not found' }).waitFor();
  await settle(page);
  const text = await page.locator('#main').innerText();
  check(/no game number 99999/.test(text), `the page does not say which game is missing: "${text}"`);
  check(await page.locator('[data-square]').count() === 0, 'a missing game still draws a board');
  check(await page.getByRole('link', { name: 'Start a game' }).count() === 1, 'no way on from a missing game');
  check((await page.title()).startsWith('Game not found'), `the tab reads "${await page.title()}"`);
});

test('every-sign-up-mistake-at-once', async (t) => {
  const page = trackApi(await t.newPage());
  await page.goto(t.url + '/signup');
  await page.fill('#auth-name', 'a b');
  await page.fill('#auth-pass', 'short');
  await page.click('button[type=submit]');
  const err = page.locator('.error[role=alert]');
  await err.waitFor();
  const said = await err.innerText();
  check(/name is 3 to 20/.test(said) && /at least 8 characters/.test(said), `sign-up named not both mistakes: "${said}"`);
  check(await page.locator('#auth-name[aria-invalid=true]').count() === 1 &&
    await page.locator('#auth-pass[aria-invalid=true]').count() === 1, 'the two fields are not both marked');
  // mending one leaves the other
  await page.fill('#auth-pass', 'long enough now');
  await page.click('button[type=submit]');
  await page.waitForFunction(() => !/8 characters/.test(document.querySelector('.error[role=alert]').textContent));
  const left = await err.innerText();
  check(/name is 3 to 20/.test(left) && !/8 characters/.test(left), `after mending the password: "${left}"`);
  check(await page.locator('#auth-pass[aria-invalid=true]').count() === 0, 'the mended field is still marked');
});

test('the-record-downloads-as-pgn', async (t) => {
  const page = trackApi(await t.newPage());
  await page.goto(t.url + '/');
  await signUpAs(page, t.url, `rec${String(Date.now()).slice(-6)}`);
  const [id] = await botGamesResigned(page, 1, { variant: 'rampart', bot: 'bot-random' });
  await settle(page);
  await page.goto(`${t.url}/game/${id}`);
  const a = page.getByRole('link', { name: /Game record/ });
  await a.waitFor();
  check((await a.getAttribute('download')) === `citadel-${id}.pgn`, `the record link downloads as "${await a.getAttribute('download')}"`);
  const [download] = await Promise.all([page.waitForEvent('download'), a.click()]);
  check(download.suggestedFilename() === `citadel-${id}.pgn`, `the file is named ${download.suggestedFilename()}`);
  const text = await (await page.request.get(`${t.url}/api/games/${id}/record`)).text();
  check(text.includes(`[Site "${t.url}"]`), `the record's Site is not the site's address: ${text.split('\n')[1]}`);
});

test('analysis-in-the-menu-by-name', async (t) => {
  const page = trackApi(await t.newPage());
  await page.goto(t.url + '/');
  await page.locator('#nav').getByRole('link', { name: 'Analysis' }).click();
  await page.getByRole('heading', { name: 'Analysis board' }).waitFor();
  const variants = await (await page.request.get(`${t.url}/api/variants`)).json();
  const links = await page.locator('#main li a').allTextContents();
  check(links.length === variants.length && variants.every((v) => links.includes(v.title)),
    `the analysis list reads ${JSON.stringify(links)}, not the games' names`);
  check(!links.some((l) => /^[a-z-]+$/.test(l)), `a game is listed by its id: ${JSON.stringify(links)}`);
  const keeps = variants.find((v) => v.family === 'keeps-moats');
  await page.getByRole('link', { name: keeps.title, exact: true }).click();
  await page.locator('[data-square]').first().waitFor();
  const side = await page.locator('.game-side').innerText();
  check(side.includes(`${keeps.title} · a new board`), `the board names its game as "${side.split('\n')[0]}"`);
  check(!/keeps-moats/.test(side), 'the board shows the raw id keeps-moats');
});

test('abort-in-the-first-moves', async (t) => {
  // two people start a game; before anyone moves, one calls it off
  const a = await t.newPage();
  const b = await t.newPage();
  const { id } = await twoPeopleGame(t, a, b, 'rampart');
  await waitText(a.locator('#abort'), /^Abort$/, "A's Abort button");
  await a.click('#abort');
  for (const [p, who] of [[a, 'A'], [b, 'B']]) {
    await waitText(p.locator('.result h2'), /^Game aborted$/, `${who}'s result`);
    const words = await p.locator('.result').innerText();
    check(/no result, no rating change/.test(words), `${who} reads "${words}"`);
    check(!(await p.locator('#abort').count()), `${who} can still abort`);
  }
  const g = await (await a.request.get(`${t.url}/api/games/${id}`)).json();
  check(g.result === null || g.result.reason === 'aborted', `the game's result: ${JSON.stringify(g.result)}`);
});

test('sterile-said-in-plain-words', async (t) => {
  // a draw agreed before anything was taken is sterile (R8): every place
  // the result is read says what that means
  const a = await t.newPage();
  const b = await t.newPage();
  const { id, nameA } = await twoPeopleGame(t, a, b, 'rampart');
  await waitText(a.locator('#draw'), /^Offer draw$/, "A's draw button");
  await a.click('#draw');
  await waitText(b.locator('#draw'), /^Accept draw$/, "B's accept button");
  await b.click('#draw');
  await waitText(a.locator('.result'), /neither side lost game material, so ratings do not change/, 'the game page');
  await a.goto(`${t.url}/review/${id}`);
  await waitText(a.locator('#main'), /Draw \(sterile: no game material was lost, so no rating changed\)/, 'the review');
  await a.goto(`${t.url}/players/${encodeURIComponent(nameA)}`);
  await waitText(a.locator(`tr[data-game="${id}"]`), /a sterile draw: no game material was lost, so no rating changed/, "the player's games");
});

test('the-form-says-what-play-starts', async (t) => {
  const page = trackApi(await t.newPage());
  await page.goto(t.url + '/');
  const summary = page.locator('#new-game-summary');
  await summary.waitFor();
  const first = await summary.innerText();
  check(/^Play starts Rampart Classic, unrated, clock 10\+5, move limit 100, against .+; you play Bottom/.test(first),
    `a new visitor's form says "${first}"`);
  // each change shows at once
  await page.getByLabel('Stratego', { exact: true }).check();
  await page.getByLabel('3+2', { exact: true }).check();
  const changed = await summary.innerText();
  check(/^Play starts Stratego, unrated, clock 3\+2/.test(changed), `after choosing Stratego and 3+2: "${changed}"`);
  await page.click('#start-game');
  await page.waitForURL(/\/game\/\d+$/);
  // back on the start page the form begins from those choices, and says so
  await settle(page);
  await page.goto(t.url + '/');
  await summary.waitFor();
  const again = await summary.innerText();
  check(/^As your last game \(change anything above\): Play starts Stratego, unrated, clock 3\+2/.test(again),
    `the form restored the last choices as "${again}"`);
});

test('play-refused-says-why-beside-the-button', async (t) => {
  const page = trackApi(await t.newPage());
  await page.goto(t.url + '/');
  await page.locator('#new-game-summary').waitFor();
  // as many bot games as a person may have at once, each still running
  for (let k = 0; k < 2; k++) {
    await hold(page, `
      send({ type: 'play_bot', variant: 'rampart', base_ms: 0, inc_ms: 0, rated: false, bot: 'bot-random', side: 0, ref: 'bg' + arg });
      const m = await wait((m) => m.type === 'game' || (m.type === 'error' && m.ref === 'bg' + arg));
      if (m.type === 'error') throw new Error(m.error);
      return m.game.id;`, k);
  }
  await page.getByLabel('A bot', { exact: true }).check();
  await page.click('#start-game');
  const err = page.locator('#new-game-error');
  await err.waitFor();
  const said = await err.innerText();
  check(/^The game could not start: .*against bots/.test(said), `beside the button: "${said}"`);
  // it stands just under the Play button
  const box = await page.locator('#start-game').boundingBox(), ebox = await err.boundingBox();
  check(ebox.y >= box.y && ebox.y - (box.y + box.height) < 120, 'the reason is not next to the Play button');
  check(await page.locator('#start-game').isEnabled(), 'Play stays disabled after the refusal');
});

test('a-spectator-follows-the-rematch', async (t) => {
  const a = await t.newPage();
  const b = await t.newPage();
  const c = await t.newPage();
  const { id } = await twoPeopleGame(t, a, b, 'rampart');
  await c.goto(`${t.url}/game/${id}`);
  await c.locator('#game-status').waitFor();
  await resign(a);
  await waitText(a.locator('#rematch'), /^Rematch$/, "A's Rematch button");
  await a.click('#rematch');
  await waitText(b.locator('#rematch'), /^Accept rematch$/, "B's Accept button");
  await b.click('#rematch');
  await Promise.all([a, b].map((p) => p.waitForURL((u) => /\/game\/\d+$/.test(u.pathname) && u.pathname !== `/game/${id}`)));
  const next = new URL(a.url()).pathname;
  await c.waitForURL((u) => u.pathname === next, { timeout: 10000 }).catch(() => {
    throw new Error(`the spectator stayed on ${new URL(c.url()).pathname}; the rematch is ${next}`);
  });
  await c.locator('#game-status').waitFor();
  check(!(await c.locator('#resign').count()), 'the spectator became a player');
});

test('a-bot-enters-the-ladder-at-its-strength', async (t) => {
  // one rated game lost to bot-greedy, whose first: it enters at its seed
  // (1100 on Classic), the person at 1500, both rated with K = 40 (R8)
  const page = trackApi(await t.newPage());
  await page.goto(t.url + '/');
  await signUpAs(page, t.url, `ladder${String(Date.now()).slice(-6)}`);
  await botGamesResigned(page, 1, { variant: 'rampart', bot: 'bot-greedy', rated: true });
  await settle(page);
  await page.goto(t.url + '/ladder/rampart');
  const row = page.locator('tr', { hasText: 'bot-greedy' });
  await row.waitFor();
  const cells = await row.locator('td').allTextContents();
  // 1100 + 40 x (1 - 1 / (1 + 10^(-400/400))) = 1136.4
  check(cells[2] === '1136', `bot-greedy's rating after its first game reads ${cells[2]}, not 1136`);
  check(/bots at their measured strength/.test(await page.locator('caption').innerText()), 'the ladder does not say where bots start');
});

await run();
