// forum.test.mjs -- the message board as people use it: a player starts a
// thread, another replies (the first is told at once, in the header), the
// author edits the opening post, a reply is deleted, the search finds the
// thread, a guest may read but not post, a post is reported; a moderator
// sees the report in the queue, hides the post (gone for every player and
// from the search) and locks the thread (no reply form any more). And an
// author deletes a reply of theirs.

import { test, run, check, checkReadable, checkFits } from './lib.mjs';
import { stamp, person, signedInAs, makeStaff, seen, waitSeen, waitGone, notOnPage } from './community-lib.mjs';

test('forum-thread-reply-search-report-moderate', async (t) => {
  const an = `alice${stamp}`, bn = `bob${stamp}`, mn = `mod${stamp}`;
  const title = `Opening with the blockers ${stamp}`;
  const secret = `quokka${stamp}`;

  // alice starts a thread on the Rampart board
  const a = await person(t, an, '/forum');
  await a.locator('#forum-cats').getByRole('link', { name: 'Rampart', exact: true }).click();
  await a.waitForURL(`${t.url}/forum/rampart`);
  await a.locator('.forum-new summary').click();
  await a.fill('#thread-title', title);
  await a.fill('#thread-body', `Has anyone tried **c2a2** first? zebra${stamp}`);
  await t.shot(a, 'new-thread');
  await a.getByRole('button', { name: 'Post thread' }).click();
  await a.waitForURL(/\/forum\/thread\/\d+$/);
  const threadUrl = a.url();
  await a.locator('#posts').waitFor();
  check((await seen(a.locator('h1'))) === title, `the thread's heading reads "${await seen(a.locator('h1'))}"`);
  check((await seen(a.locator('#posts .post-body strong'))) === 'c2a2', 'the Markdown **c2a2** is not shown bold');
  const authorHref = await a.locator('#posts .post-author a').first().getAttribute('href');
  check(authorHref === `/players/${an}`, `the author links to ${authorHref}`);

  // bob replies; alice, on the thread, is told in the header at once
  const b = await person(t, bn, threadUrl.slice(t.url.length));
  await b.fill('#reply-body', `I tried it: it loses a Queen. ${secret}`);
  await b.getByRole('button', { name: 'Post reply' }).click();
  await waitSeen(b.locator('#posts'), secret, 'bob\'s reply on his page');
  check((await b.locator('#posts article.post').count()) === 2, 'the thread does not show two posts');
  await waitSeen(a.locator('#notes-count'), '1', 'alice\'s unread count');
  await a.click('#notes-button');
  const note = a.locator('#notes-list li').first();
  await waitSeen(note, `${bn} replied in “${title}”`, 'alice\'s notification');
  await t.shot(a, 'notification');
  await note.getByRole('link').click();
  await waitSeen(a.locator('#posts'), secret, 'the thread, reached from the notification');
  check(!(await a.locator('#notes-count').isVisible()), 'the unread count still shows after reading');

  // alice edits her opening post (within 30 minutes)
  const first = a.locator('#posts article.post').first();
  await first.getByRole('button', { name: 'Edit' }).click();
  await first.locator('textarea').fill(`Has anyone tried **c2a2** first? Edited: zebra${stamp}`);
  await first.getByRole('button', { name: 'Save' }).click();
  await waitSeen(first, 'Edited: zebra', 'the edited post');
  await waitSeen(first.locator('.post-head'), 'edited', 'the edited mark');
  // nobody edits another's post
  await b.reload();
  await b.locator('#posts article.post').first().waitFor();
  check(!(await b.locator('#posts article.post').first().getByRole('button', { name: 'Edit' }).count()), 'bob may edit alice\'s post');

  // the search finds bob's reply, with its snippet as text
  await b.goto(t.url + '/forum');
  await b.fill('#forum-q', secret);
  await b.press('#forum-q', 'Enter');
  await b.waitForURL(/\/forum\/search\?q=/);
  const hit = b.locator('#search-results li').first();
  await waitSeen(hit, title, 'the search result\'s thread');
  await waitSeen(hit.locator('.snippet'), secret, 'the search result\'s snippet');
  await t.shot(b, 'search');

  // a guest reads, but may not post
  const g = await t.newPage({ width: 360, height: 740 });
  await g.goto(threadUrl);
  await waitSeen(g.locator('#posts'), secret, 'the thread for a guest');
  await waitSeen(g.locator('main'), 'to reply', 'the guest\'s sign-in note');
  check(!(await g.locator('#reply-form').count()), 'a guest gets the reply form');
  check(!(await g.getByRole('button', { name: 'Report' }).count()), 'a guest gets Report buttons');
  await checkFits(g, 'a thread on a phone');
  await checkReadable(g, 'a thread');
  await g.goto(t.url + '/forum/rampart');
  await waitSeen(g.locator('#forum-threads'), title, 'the board\'s thread list for a guest');
  await waitSeen(g.locator('main'), 'to start a thread', 'the guest\'s note on the board');
  await t.shot(g, 'guest-phone');

  // alice reports bob's reply
  await a.goto(threadUrl);
  const reply = a.locator('#posts article.post', { hasText: secret });
  await reply.getByRole('button', { name: 'Report' }).click();
  await reply.locator('.report-reason').fill('Spoils the question');
  await reply.getByRole('button', { name: 'Send report' }).click();
  await waitSeen(reply, 'Reported: thank you', 'the report\'s confirmation');

  // a moderator: the queue shows the post as text; hide it, resolve the report
  const m = await person(t, mn);
  await makeStaff(t, m, mn);
  await m.locator('#nav-staff').click();
  const item = m.locator('#reports li.report-item', { hasText: secret });
  await item.waitFor();
  await waitSeen(item, 'Spoils the question', 'the report\'s reason');
  await waitSeen(item, an, 'the reporter\'s name');
  await t.shot(m, 'queue');
  await item.getByRole('button', { name: 'Hide post' }).click();
  await waitSeen(item, 'The post is hidden.', 'hiding the post');
  await item.getByRole('button', { name: 'Resolve' }).click();
  await waitSeen(item, 'Resolved.', 'resolving the report');

  // the post is gone for players, in the thread and in the search
  await b.goto(threadUrl);
  await b.locator('#posts article.post').first().waitFor();
  await notOnPage(b, secret, 'the thread after the post was hidden');
  check((await b.locator('#posts article.post').count()) === 1, 'the hidden post still counts on the page');
  await b.goto(`${t.url}/forum/search?q=${secret}`);
  await waitSeen(b.locator('#search-count'), 'No post has', 'the search after hiding');

  // the moderator locks the thread: no more replies
  await m.goto(threadUrl);
  await m.click('#mod-lock');
  await m.locator('#thread-locked').waitFor();
  await waitSeen(m.locator('#locked-note'), 'This thread is locked', 'the locked thread for the moderator');
  await a.goto(threadUrl);
  await waitSeen(a.locator('#locked-note'), 'This thread is locked', 'the locked thread for alice');
  check(!(await a.locator('#reply-form').count()), 'a locked thread still has a reply form');
  await t.shot(a, 'locked');
  await checkReadable(a, 'a locked thread');
});

// an admin reads the audit log of the moderation above, makes a player a
// moderator and closes an account, by name (the same server: the tests of a
// file share it)
test('staff-audit-roles-close', async (t) => {
  const rn = `root${stamp}`;
  const r = await person(t, rn);
  await makeStaff(t, r, rn, 'admin');
  await r.locator('#nav-staff').click();
  await r.locator('.staff-nav').getByRole('link', { name: 'Audit log' }).click();
  const log = r.locator('#audit');
  await waitSeen(log, 'hide-post', 'the audit log\'s hidden post');
  await waitSeen(log, 'lock-thread', 'the audit log\'s locked thread');
  await waitSeen(log, `mod${stamp}`, 'who did it');
  await waitSeen(log, `quokka${stamp}`, 'what was hidden, kept in the log');
  await t.shot(r, 'audit');

  await r.fill('#role-name', `bob${stamp}`);
  await r.selectOption('#role-role', 'moderator');
  await r.locator('#role-form').getByRole('button', { name: 'Set role' }).click();
  await waitSeen(r.locator('#role-form'), `bob${stamp} is now a moderator`, 'the role change');
  const b = await signedInAs(t, `bob${stamp}`);
  await b.locator('#nav-staff').waitFor(); // bob is staff now
  await b.goto(`${t.url}/staff/audit`);
  await waitSeen(b.locator('main'), 'Only admins read the audit log.', 'the audit log for a moderator');
  check(!(await b.locator('#audit').count()), 'a moderator reads the audit log');

  await r.fill('#close-name', `alice${stamp}`);
  await r.fill('#close-reason', 'asked to leave');
  await r.locator('#close-form').getByRole('button', { name: 'Close the account' }).click();
  await r.locator('#close-form').getByRole('button', { name: `Yes, close alice${stamp}'s account` }).click();
  await waitSeen(r.locator('#close-form'), `alice${stamp}'s account is closed.`, 'closing the account');
  const gone = await t.newPage();
  await gone.goto(`${t.url}/signin`);
  await gone.fill('#auth-name', `alice${stamp}`);
  await gone.fill('#auth-pass', 'correct horse battery');
  await gone.click('button[type=submit]');
  await gone.locator('.form .error').filter({ hasText: /\w/ }).waitFor();
  check(!(await gone.locator('.who').getByText(`alice${stamp}`).count()), 'a closed account could still sign in');
  await checkReadable(r, 'the audit log');
});

// a reply its author deletes is gone from the thread; the rest stays
test('forum-delete-own-reply', async (t) => {
  const a = await signedInAs(t, `bob${stamp}`, '/forum/general');
  await a.locator('.forum-new summary').click();
  await a.fill('#thread-title', `A thread to delete from ${stamp}`);
  await a.fill('#thread-body', 'The opening post stays.');
  await a.getByRole('button', { name: 'Post thread' }).click();
  await a.waitForURL(/\/forum\/thread\/\d+$/);
  await a.fill('#reply-body', `delete me ${stamp}`);
  await a.getByRole('button', { name: 'Post reply' }).click();
  const mistake = a.locator('#posts article.post', { hasText: `delete me ${stamp}` });
  await mistake.waitFor();
  await mistake.getByRole('button', { name: 'Delete' }).click();
  await mistake.getByRole('button', { name: 'Yes, delete' }).click();
  await waitGone(a.locator('#posts'), `delete me ${stamp}`, 'the deleted reply');
  await waitSeen(a.locator('#posts'), 'The opening post stays.', 'the opening post after the deletion');
  await notOnPage(a, 'no such post', 'deleting one\'s own reply');
  check((await a.locator('#posts article.post').count()) === 1, 'the thread does not show one post');
});

await run();
