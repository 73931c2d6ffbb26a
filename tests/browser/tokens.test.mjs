// tokens.test.mjs -- the account page's API tokens (docs/bot-api.md,
// "Tokens"): a person makes a token with two scopes, reads it off the page
// where it is shown once, and a program (fetch from here) uses it; the list
// shows its use; revoked on the page, the token is refused. The password
// changed on the page signs out the account's other devices, not this one.

import { test, run, check, signUpAs, checkReadable } from './lib.mjs';

async function asToken(url, token) {
  const r = await fetch(`${url}/api/account`, { headers: { Authorization: `Bearer ${token}` } });
  return { status: r.status, body: await r.json().catch(() => null) };
}

test('account-api-tokens', async (t) => {
  const page = await t.newPage();
  const name = `tok${String(Date.now()).slice(-7)}`;
  await signUpAs(page, t.url, name);
  await page.locator('.who').getByRole('link', { name: 'Account' }).click();
  await page.waitForURL(`${t.url}/account`);
  await page.getByRole('heading', { name: 'API tokens' }).waitFor();
  await page.locator('#no-tokens').waitFor();
  await t.shot(page, 'empty');

  // no scope ticked: refused on the page, nothing made
  await page.fill('#token-description', 'my bot');
  await page.click('#make-token');
  check((await page.locator('#token-error').textContent()).includes('at least one scope'), 'making a token without a scope was not refused');

  await page.getByRole('checkbox', { name: /^bot:play/ }).check();
  await page.getByRole('checkbox', { name: /^challenge:write/ }).check();
  await page.click('#make-token');
  const field = page.locator('#new-token');
  await field.waitFor();
  const token = await field.inputValue();
  check(/^cit_[0-9a-z]+$/.test(token), `the token shown is not a token: "${token}"`);
  const box = await page.locator('.new-token').textContent();
  check(box.includes('it will not be shown again'), `no warning that the token is shown once: ${box}`);
  const row = page.locator('#token-list tbody tr');
  await row.first().waitFor();
  check(await row.count() === 1, `the list has ${await row.count()} rows, not 1`);
  const cells = await row.first().locator('td').allTextContents();
  check(cells[0] === 'my bot' && cells[1] === 'bot:play, challenge:write' && cells[3] === 'never',
    `the row says ${JSON.stringify(cells)}`);
  check(!(await page.locator('#token-list').textContent()).includes(token), 'the list shows the token itself');
  await checkReadable(page, 'the new token');
  await t.shot(page, 'made');

  // a program uses it, as the person copied it
  const used = await asToken(t.url, token);
  check(used.status === 200 && used.body?.name === name && used.body?.bot === false,
    `GET /api/account with the token: ${used.status} ${JSON.stringify(used.body)}`);

  // read again, the page has no way to show it, and the list has its use
  await page.reload();
  await row.first().waitFor();
  check(await page.locator('#new-token').count() === 0, 'the token is shown again after a reload');
  check(!(await page.locator('body').textContent()).includes(token), 'the token is on the page after a reload');
  const usedCell = await row.first().locator('td').nth(3).textContent();
  check(usedCell && usedCell !== 'never', `the token's use is not shown: "${usedCell}"`);
  await t.shot(page, 'used');

  await page.getByRole('button', { name: 'Revoke my bot' }).click();
  await page.getByRole('button', { name: 'Yes, revoke' }).click();
  await page.locator('#no-tokens').waitFor();
  await t.shot(page, 'revoked');
  const after = await asToken(t.url, token);
  check(after.status === 401 && typeof after.body?.error === 'string',
    `GET /api/account with the revoked token: ${after.status} ${JSON.stringify(after.body)}`);
});

async function signInAs(page, url, name, password) {
  await page.goto(`${url}/signin`);
  await page.fill('#auth-name', name);
  await page.fill('#auth-pass', password);
  await page.click('button[type=submit]');
}

test('account-password-change', async (t) => {
  const page = await t.newPage();
  const other = await t.newPage();   /* another device of the same person */
  const name = `pw${String(Date.now()).slice(-7)}`;
  await signUpAs(page, t.url, name);
  await signInAs(other, t.url, name, 'correct horse battery');
  await other.locator('.who').getByText(name).waitFor();
  await page.goto(`${t.url}/account`);
  await page.getByRole('heading', { name: 'Password' }).waitFor();

  // the wrong current password: refused, said on the page
  await page.getByLabel('Current password').fill('not my password');
  await page.getByLabel('New password', { exact: true }).fill('a better password');
  await page.getByLabel('The new password again').fill('a better password');
  await page.click('#change-password');
  await page.locator('#password-error').getByText('current password is wrong').waitFor();
  // the repetition differs: refused before it is sent
  await page.getByLabel('Current password').fill('correct horse battery');
  await page.getByLabel('The new password again').fill('a better passwort');
  await page.click('#change-password');
  await page.locator('#password-error').getByText('differ').waitFor();
  await page.getByLabel('The new password again').fill('a better password');
  await page.click('#change-password');
  await page.locator('#password-done').getByText('Your password is changed').waitFor();
  await checkReadable(page, 'the password changed');
  await t.shot(page, 'password-changed');

  // this device stays signed in; the other is signed out
  await page.reload();
  await page.locator('.who').getByText(name).waitFor();
  await other.reload();
  await other.locator('.who').getByRole('link', { name: 'Sign in' }).waitFor();
  check(!(await other.locator('.who').textContent()).includes(name), 'the other device is still signed in');
  // the old password no longer works, the new one does
  await signInAs(other, t.url, name, 'correct horse battery');
  await other.getByRole('alert').getByText('wrong name or password').waitFor();
  await signInAs(other, t.url, name, 'a better password');
  await other.locator('.who').getByText(name).waitFor();
});

test('account-page-guest', async (t) => {
  const page = await t.newPage();
  await page.goto(`${t.url}/account`);
  await page.locator('.signin-note').waitFor();
  check(await page.locator('#api-tokens').count() === 0, 'a guest sees the tokens section');
});

await run();
