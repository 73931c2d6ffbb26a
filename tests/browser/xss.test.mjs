// xss.test.mjs -- words meant to run as script, written everywhere a person
// can write (a thread's title, a post, a chat line, a support message, a
// report's reason, a player's name in an address) and then read in
// Chromium: nothing runs (window.__xss stays undefined, no dialog opens,
// even after clicking the link), the page holds no script, no event
// attribute and no javascript: link, and the words show as the text they
// are. The server's HTML of the post is checked too, so a fault of its
// sanitiser is found even though the page sanitises again.

import { test, run, check } from './lib.mjs';
import { twoPeopleGame } from './play-lib.mjs';
import { stamp, person, makeStaff, seen, waitSeen } from './community-lib.mjs';

const SCRIPT = '<script>window.__xss=1</script>';
const IMG = '<img src=x onerror="window.__xss=1">';
const LINK = '[x](javascript:window.__xss=1)';
const MORE = ['<a href="javascript:window.__xss=1">raw link</a>', '<svg onload="window.__xss=1"></svg>', '<iframe src="javascript:window.__xss=1"></iframe>'];

/** Nothing ran on the page and nothing active is in it. */
async function clean(page, where) {
  const r = await page.evaluate(() => ({
    xss: typeof window.__xss,
    scripts: [...document.querySelectorAll('main script, header script')].length,
    handlers: [...document.querySelectorAll('*')].filter((e) => [...e.attributes].some((a) => /^on/i.test(a.name))).map((e) => e.tagName),
    js: [...document.querySelectorAll('[href], [src]')].filter((e) => /^\s*javascript:/i.test(e.getAttribute('href') || e.getAttribute('src') || '')).length,
    frames: document.querySelectorAll('main iframe, main img, main svg image').length,
  }));
  check(r.xss === 'undefined', `${where}: a script ran (window.__xss is ${r.xss})`);
  check(!r.scripts, `${where}: the page holds a <script> element`);
  check(!r.handlers.length, `${where}: elements with event attributes: ${r.handlers.join(', ')}`);
  check(!r.js, `${where}: the page holds a javascript: link`);
  check(!r.frames, `${where}: the page holds an image or frame from what a person wrote`);
}

/** Fails the test on any dialog (alert and the like). */
function noDialogs(page, where) {
  page.on('dialog', (d) => {
    void d.dismiss();
    throw new Error(`${where}: a dialog opened: ${d.message()}`);
  });
  return page;
}

test('xss-everywhere-shown-as-text', async (t) => {
  const title = `${SCRIPT} ${IMG} ${stamp}`;
  const body = [SCRIPT, IMG, LINK, ...MORE, `[fine](https://example.org/ok) ${stamp}`].join('\n\n');

  // a thread whose title and post are all of it
  const an = `alice${stamp}`, bn = `bob${stamp}`;
  const a = noDialogs(await person(t, an, '/forum/general'), 'alice');
  await a.locator('.forum-new summary').click();
  await a.fill('#thread-title', title);
  await a.fill('#thread-body', body);
  await a.getByRole('button', { name: 'Post thread' }).click();
  await a.waitForURL(/\/forum\/thread\/\d+$/);
  const threadId = Number(a.url().split('/').pop());
  await a.locator('#posts').waitFor();
  const shownTitle = await seen(a.locator('h1'));
  check(shownTitle === title, `the title does not read as its text: ${JSON.stringify(shownTitle)} for ${JSON.stringify(title)}`);
  const post = a.locator('#posts .post-body').first();
  await waitSeen(post, SCRIPT, 'the post\'s <script> as text');
  await waitSeen(post, IMG, 'the post\'s <img> as text');
  await waitSeen(post, MORE[0], 'the post\'s raw link as text');
  await clean(a, 'the thread');

  // the Markdown link to javascript: is clicked as a person would
  const x = post.getByText('x', { exact: true });
  if (await x.count()) await x.first().click();
  else await waitSeen(post, 'x', 'the javascript: link\'s text');
  await a.waitForTimeout(300);
  check(a.url().includes(`/forum/thread/${threadId}`), `clicking the link left the page for ${a.url()}`);
  await clean(a, 'the thread after clicking the link');
  await post.getByRole('link', { name: 'fine' }).waitFor();
  await t.shot(a, 'thread');

  // what the server sent: no element or attribute of the attack survives in its HTML
  const r = await a.evaluate(async (id) => (await fetch(`/api/forum/threads/${id}`)).json(), threadId);
  const html = r.posts[0].html;
  check(!/<script|<img|<svg|<iframe/i.test(html), `the server's html keeps a tag: ${html.slice(0, 300)}`);
  check(!/<[a-z][^>]*\son[a-z]+\s*=/i.test(html), `the server's html keeps an event attribute: ${html.slice(0, 300)}`);
  check(!/href\s*=\s*["']?\s*javascript:/i.test(html), `the server's html keeps a javascript: link: ${html.slice(0, 300)}`);
  check(/rel="nofollow ugc"/.test(html), 'the server\'s links lack rel="nofollow ugc"');

  // the board's list and the search show the title as text
  await a.goto(`${t.url}/forum/general`);
  await waitSeen(a.locator('#forum-threads'), title, 'the board\'s list');
  await clean(a, 'the board');
  await a.goto(`${t.url}/forum/search?q=${stamp}`);
  await waitSeen(a.locator('#search-results'), title, 'the search result\'s title');
  await clean(a, 'the search');

  // a reply tells alice: the notification's title is text too
  const b = noDialogs(await person(t, bn, `/forum/thread/${threadId}`), 'bob');
  await b.fill('#reply-body', `${IMG} a reply ${stamp}`);
  await b.getByRole('button', { name: 'Post reply' }).click();
  await waitSeen(b.locator('#posts'), `${IMG} a reply`, 'bob\'s reply');
  await waitSeen(a.locator('#notes-count'), '1', 'alice\'s unread count');
  await a.click('#notes-button');
  await waitSeen(a.locator('#notes-list'), `replied in “${title}”`, 'the notification\'s title');
  await clean(a, 'the notifications');

  // a report whose reason is an attack, read in the moderation queue
  await a.goto(`${t.url}/forum/thread/${threadId}`);
  const reply = a.locator('#posts article.post', { hasText: 'a reply' });
  await reply.getByRole('button', { name: 'Report' }).click();
  await reply.locator('.report-reason').fill(`${SCRIPT}${IMG}`);
  await reply.getByRole('button', { name: 'Send report' }).click();
  await waitSeen(reply, 'Reported', 'the report');
  await makeStaff(t, b, bn);
  await b.goto(`${t.url}/staff/reports`);
  const item = b.locator('#reports li.report-item').first();
  await waitSeen(item, `${SCRIPT}${IMG}`, 'the report\'s reason');
  await waitSeen(item, `${IMG} a reply`, 'the reported post\'s words');
  await clean(b, 'the moderation queue');
  await t.shot(b, 'queue');

  // a support message: the list and the conversation, for its sender and for staff
  const v = noDialogs(await t.newPage(), 'visitor');
  await v.goto(`${t.url}/support`);
  await v.fill('#support-subject', `${SCRIPT} ${stamp}`);
  await v.fill('#support-body', `${IMG}\n${LINK}`);
  await v.fill('#support-email', `v${stamp}@example.org`);
  await v.getByRole('button', { name: 'Send' }).click();
  await waitSeen(v.locator('#support-received'), 'Your message was received', 'the support message');
  await waitSeen(v.locator('#my-tickets'), `${SCRIPT} ${stamp}`, 'the sender\'s list');
  await v.locator('#my-tickets a').first().click();
  await waitSeen(v.locator('#ticket-messages'), `${IMG}\n${LINK}`, 'the sender\'s conversation');
  await clean(v, 'the ticket, for its sender');
  await b.goto(`${t.url}/staff/tickets`);
  await waitSeen(b.locator('#staff-tickets'), `${SCRIPT} ${stamp}`, 'the staff\'s list');
  await b.locator('#staff-tickets a', { hasText: stamp }).first().click();
  await waitSeen(b.locator('#ticket-messages'), IMG, 'the staff\'s conversation');
  await clean(b, 'the ticket, for staff');

  // a chat in a live game
  const p1 = noDialogs(await t.newPage(), 'player 1');
  const p2 = noDialogs(await t.newPage(), 'player 2');
  await twoPeopleGame(t, p1, p2, 'rampart');
  for (const words of [SCRIPT, IMG, LINK]) {
    await p1.fill('#chat-input', words);
    await p1.press('#chat-input', 'Enter');
    for (const p of [p1, p2]) await waitSeen(p.locator('#chat-lines'), words, 'a chat line');
  }
  for (const p of [p1, p2]) await clean(p, 'the game\'s chat');
  await t.shot(p2, 'chat');

  // names: the server takes none of these, and a page named by one shows it as text
  for (const name of ['<script>x</script>', '<img src=x onerror=1>']) {
    const status = await a.evaluate(async (name) => (await fetch('/api/signup', {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ name, password: 'correct horse battery' }),
    })).status, name);
    check(status === 400, `signing up as ${name} was answered ${status}`);
  }
  // (a dot in an address is a file's to the server, so the page goes there itself, as its links do)
  // (and the router leaves %3D and %2F encoded, so the name is one without "=" or "/")
  const tag = '<img src onerror><b>bold<b>';
  await a.evaluate((path) => { history.pushState(null, '', path); dispatchEvent(new PopStateEvent('popstate')); }, `/players/${encodeURIComponent(tag)}`);
  await waitSeen(a.locator('h1'), tag, 'a player page named by an attack');
  await clean(a, 'a player page named by an attack');
});

await run();
