// challenge.test.mjs -- a challenge link (/play/TOKEN) as the friend who
// follows it reads it: who challenges, the game's title, the clock, the move
// limit and whether it is rated. A guest sent a rated challenge is told to
// sign in or up (and offered no button that would fail), comes back and
// accepts; a signed-in player accepts at once; an unrated Rampart XL
// challenge says so. No page may show "undefined", "null", "NaN" or
// "[object Object]".

import { test, run, check, checkReadable, signUpAs, sleep, trackApi, settle } from './lib.mjs';

/** A new person's page, its API requests counted (settle). */
const open = async (t, viewport) => trackApi(await t.newPage(viewport));
/** Goes to url once the page's API answers are all in. */
async function go(page, url) {
  await settle(page);
  await page.goto(url);
}

const stamp = String(Date.now()).slice(-6);

/** Opens a challenge from the start page; resolves to its link. */
async function challenge(page, url, { variant, clock, rated }) {
  await go(page, url + '/');
  await page.locator('#new-game').waitFor();
  await page.getByLabel(variant, { exact: true }).check();
  await page.getByLabel('A friend (share a link)').check();
  await page.getByLabel(clock, { exact: true }).check();
  if (rated) await page.check('#rated');
  await page.click('#start-game');
  const link = await page.locator('#challenge-link').inputValue();
  check(/\/play\/[0-9a-f]+$/.test(link), `the challenge link is "${link}"`);
  return link;
}

/** The terms the challenge page shows, as one line of text. */
async function terms(page) {
  await page.locator('#challenge-terms').waitFor();
  return (await page.locator('#challenge-terms').innerText()).replace(/\s+/g, ' ');
}

test('challenge-rated-guest', async (t) => {
  const a = await open(t);
  const an = `chal${stamp}`;
  await signUpAs(a, t.url, an);
  const url = await challenge(a, t.url, { variant: 'Rampart Classic', clock: '5+3', rated: true });

  const b = await open(t);
  await go(b, url);
  await b.locator('#challenge-signin').waitFor();
  const heading = await b.locator('h1').innerText();
  check(heading === `${an} challenges you to a game of Rampart Classic`, `the heading reads "${heading}"`);
  const tm = await terms(b);
  for (const w of [an, 'Rampart Classic', '5+3', '100 full moves', 'rated'])
    check(tm.includes(w), `the terms do not show "${w}": "${tm}"`);
  check(!/unrated/.test(tm), `a rated challenge says unrated: "${tm}"`);
  const text = await checkReadable(b, 'rated challenge, guest');
  check(/This game is rated/.test(text) && /sign in/i.test(text), 'the guest is not told the game is rated and needs signing in');
  check(!/You will play as a guest/.test(text), 'the guest is told it will play as a guest');
  check(!(await b.locator('#accept-challenge').count()), 'the guest is offered an accept button that would fail');
  await t.shot(b, 'guest');

  // the way in comes back here: sign up, then accept
  await b.locator('#challenge-signin').getByRole('link', { name: 'Sign up' }).click();
  await b.waitForURL(/\/signup\?next=/);
  check((await b.locator('main').innerText()).includes('go back to the challenge'), 'the sign-up page does not say it returns to the challenge');
  const bn = `frnd${stamp}`;
  await b.fill('#auth-name', bn);
  await b.fill('#auth-pass', 'correct horse battery');
  await b.click('button[type=submit]');
  await b.waitForURL(url);
  await b.locator('#accept-challenge').waitFor();
  check(!(await b.locator('#challenge-signin').count()), 'a signed-in player is still told to sign in');
  await checkReadable(b, 'rated challenge, after signing up');
  await b.click('#accept-challenge');
  await Promise.all([a.waitForURL(/\/game\/\d+$/), b.waitForURL(/\/game\/\d+$/)]);
  check(a.url() === b.url(), 'the two players are in different games');
  await b.locator('[data-square]').first().waitFor();
  const title = await b.locator('h1').innerText();
  check(/rated/.test(title), `the game is not rated: "${title}"`);
  await t.shot(b, 'game');

  // a taken challenge is gone, and its page says so
  const c = await open(t);
  await go(c, url);
  await c.getByText('This challenge is no longer open').waitFor();
  check(!(await c.locator('#accept-challenge').count()), 'a taken challenge still offers its accept button');
  await checkReadable(c, 'taken challenge');
});

test('challenge-rated-signed-in', async (t) => {
  const a = await open(t);
  const b = await open(t);
  await signUpAs(a, t.url, `host${stamp}`);
  await signUpAs(b, t.url, `gst${stamp}`);
  const url = await challenge(a, t.url, { variant: 'Rampart Classic', clock: '3+2', rated: true });
  // the API says the same as the page
  const token = url.split('/').pop();
  const api = await (await fetch(`${t.url}/api/challenges/${token}`)).json();
  check(api.challenger?.name === `host${stamp}` && api.variant === 'rampart' && api.title === 'Rampart Classic' &&
    api.base_ms === 180000 && api.inc_ms === 2000 && api.move_limit === 100 && api.rated === true, `GET /api/challenges/TOKEN gave ${JSON.stringify(api)}`);
  check((await fetch(`${t.url}/api/challenges/0123456789abcdef0123456789abcdef`)).status === 404, 'an unknown challenge is not 404');

  await go(b, url);
  const tm = await terms(b);
  check(tm.includes('3+2') && tm.includes('rated'), `the terms read "${tm}"`);
  check(!(await b.locator('#challenge-signin').count()), 'a signed-in player is told to sign in');
  await checkReadable(b, 'rated challenge, signed in');
  await t.shot(b, 'signed-in');
  await b.click('#accept-challenge');
  await Promise.all([a.waitForURL(/\/game\/\d+$/), b.waitForURL(/\/game\/\d+$/)]);
  await b.locator('[data-square]').first().waitFor();
  check(a.url() === b.url(), 'the two players are in different games');
});

test('challenge-unrated-xl', async (t) => {
  const a = await open(t);
  const url = await challenge(a, t.url, { variant: 'Rampart XL', clock: '5+3', rated: false });
  const me = (await (await a.request.get(`${t.url}/api/me`)).json()).player.name;

  // its sender sees it is their own
  const own = await a.context().newPage();
  await go(own, url);
  await own.getByText('This is your own challenge').waitFor();
  check(!(await own.locator('#accept-challenge').count()), 'the sender is offered to accept its own challenge');
  await own.close();

  const b = await open(t);
  await go(b, url);
  const tm = await terms(b);
  const heading = await b.locator('h1').innerText();
  check(heading === `${me} challenges you to a game of Rampart XL`, `the heading reads "${heading}"`);
  for (const w of ['Rampart XL', '5+3', 'unrated', '100 full moves'])
    check(tm.includes(w), `the terms do not show "${w}": "${tm}"`);
  await checkReadable(b, 'unrated XL challenge');
  await t.shot(b, 'xl');
  await b.click('#accept-challenge');
  await Promise.all([a.waitForURL(/\/game\/\d+$/), b.waitForURL(/\/game\/\d+$/)]);
  await b.locator('[data-square]').first().waitFor();
  const title = await b.locator('h1').innerText();
  check(/Rampart XL/.test(title), `the game opened is "${title}"`);

  // a challenge without a clock says so
  const c = await open(t);
  const url2 = await challenge(c, t.url, { variant: 'Stratego', clock: 'None', rated: false });
  const d = await open(t);
  await go(d, url2);
  const tm2 = await terms(d);
  check(tm2.includes('no clock') && tm2.includes('Stratego') && /single moves/.test(tm2), `the Stratego challenge's terms read "${tm2}"`);
  await checkReadable(d, 'Stratego challenge');
  await sleep(100);
});

test('challenge-unknown', async (t) => {
  const page = await open(t);
  await go(page, `${t.url}/play/0123456789abcdef0123456789abcdef`);
  await page.getByText('This challenge is no longer open').waitFor();
  check(!(await page.locator('#accept-challenge').count()), 'an unknown challenge offers an accept button');
  await checkReadable(page, 'unknown challenge');
});

await run();
