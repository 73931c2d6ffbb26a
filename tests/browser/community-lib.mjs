// tests/browser/community-lib.mjs -- what the community's browser tests
// (forum, chat, support, xss) share: people signed up through the page,
// made staff with `citadel admin grant` on the test server's database, and
// checks of what a person reads (visible text), never only of what arrived.

import { check, grant, signUpAs, sleep } from './lib.mjs';

/** A short stamp that makes names and words of one run unique. */
export const stamp = String(Date.now()).slice(-6);

/** A new person signed up as `name`, on `path` afterwards. */
export async function person(t, name, path = '/', viewport) {
  const page = await t.newPage(viewport);
  await page.goto(t.url + '/');
  await signUpAs(page, t.url, name);
  if (path !== '/') await page.goto(t.url + path);
  return page;
}

/** A new browser context signed in as the existing account `name`. */
export async function signedInAs(t, name, path = '/', password = 'correct horse battery') {
  const page = await t.newPage();
  await page.goto(`${t.url}/signin`);
  await page.fill('#auth-name', name);
  await page.fill('#auth-pass', password);
  await page.click('button[type=submit]');
  await page.locator('.who').getByText(name).waitFor();
  if (path !== '/') await page.goto(t.url + path);
  return page;
}

/** Makes `name` (signed up on `page`) a moderator or admin and reloads the
 *  page so it reads its new role; waits for the nav's Staff link. */
export async function makeStaff(t, page, name, role = 'moderator') {
  grant(t.server, name, role);
  await page.reload();
  await page.locator('#nav-staff').waitFor();
}

/** The visible text of a locator (innerText: what a person reads). */
export async function seen(locator) {
  return (await locator.count()) ? locator.first().innerText() : '';
}

/** Waits until `locator`'s visible text includes `words`. */
export async function waitSeen(locator, words, what, timeoutMs = 10000) {
  const end = Date.now() + timeoutMs;
  let text = '';
  for (;;) {
    text = await seen(locator);
    if (text.includes(words)) return text;
    if (Date.now() > end) throw new Error(`${what}: "${words}" is not shown; the page reads "${text.replace(/\s+/g, ' ').slice(0, 240)}"`);
    await sleep(100);
  }
}

/** Waits until `locator`'s visible text no longer includes `words`. */
export async function waitGone(locator, words, what, timeoutMs = 10000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const text = await seen(locator);
    if (!text.includes(words)) return text;
    if (Date.now() > end) throw new Error(`${what}: "${words}" is still shown`);
    await sleep(100);
  }
}

/** Fails if `words` is anywhere in the page's visible text. */
export async function notOnPage(page, words, what) {
  const text = await page.evaluate(() => document.body.innerText);
  check(!text.includes(words), `${what}: the page still shows "${words}"`);
}
