// support.test.mjs -- writing to Support, as people do: a visitor (no
// account) must give an e-mail address, sends the form and reads "Your
// message was received"; a signed-in player may leave the address out;
// staff find both tickets, answer them and close one; the visitor reads the
// answer on the ticket's page and writes back; the player is told in the
// header at once and reaches the answer from the notification. And each
// game's Technical Support help page, reached from its rules.

import { test, run, check, checkReadable, checkFits } from './lib.mjs';
import { stamp, person, makeStaff, seen, waitSeen } from './community-lib.mjs';

test('support-visitor-player-staff', async (t) => {
  const visitorSubject = `The board does not load ${stamp}`;
  const playerSubject = `Rename my account ${stamp}`;

  // a visitor: the address is required
  const v = await t.newPage({ width: 360, height: 740 });
  await v.goto(t.url + '/');
  await v.locator('#nav').getByRole('link', { name: 'Support' }).click();
  await v.waitForURL(`${t.url}/support`);
  await v.getByLabel('Something does not work (a bug)').check();
  await v.fill('#support-subject', visitorSubject);
  await v.fill('#support-body', `I open a game and see nothing.\nChromium on a phone. ${stamp}`);
  await v.getByRole('button', { name: 'Send' }).click();
  await waitSeen(v.locator('#support-error'), 'e-mail address', 'the missing address');
  await v.fill('#support-email', `visitor${stamp}@example.org`);
  await v.getByRole('button', { name: 'Send' }).click();
  await waitSeen(v.locator('#support-received'), 'Your message was received', 'the visitor\'s confirmation');
  await waitSeen(v.locator('#my-tickets'), visitorSubject, 'the visitor\'s messages');
  await checkFits(v, 'Support on a phone');
  await checkReadable(v, 'Support');
  await t.shot(v, 'received');

  // a signed-in player: the address is optional
  const pn = `player${stamp}`;
  const p = await person(t, pn, '/support');
  await waitSeen(p.locator('#support-form'), 'optional', 'the player\'s address label');
  await p.getByLabel('My account').check();
  await p.fill('#support-subject', playerSubject);
  await p.fill('#support-body', 'Please rename me.');
  await p.getByRole('button', { name: 'Send' }).click();
  await waitSeen(p.locator('#support-received'), 'Your message was received', 'the player\'s confirmation');
  await p.goto(t.url + '/forum');

  // staff: both tickets, the visitor's words as text, an answer
  const sn = `helper${stamp}`;
  const s = await person(t, sn);
  await makeStaff(t, s, sn);
  await s.locator('#nav-staff').click();
  await s.locator('.staff-nav').getByRole('link', { name: 'Support tickets' }).click();
  const list = s.locator('#staff-tickets');
  await waitSeen(list, visitorSubject, 'the staff\'s ticket list');
  await waitSeen(list, playerSubject, 'the staff\'s ticket list');
  await waitSeen(list, `visitor${stamp}@example.org`, 'the visitor\'s address for staff');
  await t.shot(s, 'tickets');
  await list.getByRole('link', { name: visitorSubject }).click();
  await waitSeen(s.locator('#ticket-messages'), `I open a game and see nothing.\nChromium on a phone. ${stamp}`, 'the visitor\'s message (its line break kept)');
  await s.fill('#ticket-reply', `Reload the page, please. ${stamp}`);
  await s.getByRole('button', { name: 'Send answer' }).click();
  await waitSeen(s.locator('#ticket-messages'), `Reload the page, please. ${stamp}`, 'the answer on the staff\'s page');

  // the player's ticket: answered (the player is told at once), then closed
  await s.goto(t.url + '/staff/tickets');
  await s.locator('#staff-tickets').getByRole('link', { name: playerSubject }).click();
  await s.fill('#ticket-reply', `Done: write to us again if you need. ${stamp}`);
  await s.getByRole('button', { name: 'Send answer' }).click();
  await waitSeen(s.locator('#ticket-messages'), 'Done: write to us again', 'the second answer');
  await waitSeen(p.locator('#notes-count'), '1', 'the player\'s unread count');
  await p.click('#notes-button');
  const note = p.locator('#notes-list li').first();
  await waitSeen(note, `Support answered “${playerSubject}”`, 'the player\'s notification');
  await note.getByRole('link').click();
  await waitSeen(p.locator('#ticket-messages'), `Done: write to us again if you need. ${stamp}`, 'the answer, for the player');
  await waitSeen(p.locator('#ticket-messages'), `Support (${sn})`, 'who answered');
  await t.shot(p, 'answer');
  await s.click('#ticket-close');
  await waitSeen(s.locator('#ticket-status'), 'closed', 'the closed ticket');
  await p.reload();
  await waitSeen(p.locator('#ticket-status'), 'closed', 'the closed ticket, for the player');
  await waitSeen(p.locator('#ticket-reply-form'), 'writing again opens it', 'the closed ticket\'s note');

  // the visitor reads the answer in "My messages" and writes back
  await v.goto(t.url + '/support');
  await v.locator('#my-tickets').getByRole('link', { name: visitorSubject }).click();
  await waitSeen(v.locator('#ticket-messages'), `Reload the page, please. ${stamp}`, 'the answer, for the visitor');
  await waitSeen(v.locator('#ticket-messages'), 'Support', 'who answered, for the visitor');
  check(!(await seen(v.locator('.ticket-meta'))).includes('@example.org'), 'the sender is shown the address, which is for staff only');
  await v.fill('#ticket-reply', `It works now, thank you. ${stamp}`);
  await v.getByRole('button', { name: 'Send' }).click();
  await waitSeen(v.locator('#ticket-messages'), `It works now, thank you. ${stamp}`, 'the visitor\'s follow-up');
  const mine = v.locator('#ticket-messages li', { hasText: 'It works now' });
  await waitSeen(mine, 'You', 'the follow-up\'s author');
  check(!(await v.locator('#ticket-close').count()), 'the sender may close the ticket');
  await checkFits(v, 'a ticket on a phone');
  await checkReadable(v, 'a ticket');
  await t.shot(v, 'conversation');

  // someone else cannot read the ticket
  const other = await t.newPage();
  await other.goto(v.url());
  await waitSeen(other.locator('h1'), 'Message not found', 'another visitor on the ticket\'s address');
});

test('help-technical-support-pages', async (t) => {
  const page = await t.newPage({ width: 360, height: 740 });
  for (const [rules, link, board, game] of [
    ['/learn', 'Rampart: Technical Support', '/forum/rampart', 'rampart'],
    ['/stratego/help', 'Technical Support', '/forum/stratego', 'stratego'],
    ['/keeps/help', 'Technical Support', '/forum/keeps', 'keeps'],
  ]) {
    await page.goto(t.url + rules);
    await page.locator('main').getByRole('link', { name: link, exact: true }).first().click();
    await page.waitForURL(`${t.url}/${game}/help/support`);
    await waitSeen(page.locator('h1'), 'Technical Support', `${game}'s help page`);
    const links = await page.locator('main a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    check(links.includes(board), `${game}'s help page does not link to ${board}: ${links.join(' ')}`);
    check(links.some((h) => h && h.startsWith('/support')), `${game}'s help page does not link to /support`);
    const questions = await page.locator('main .faq h3').allInnerTexts();
    check(questions.length >= 5 && questions.length <= 8, `${game}'s help page answers ${questions.length} questions`);
    const text = await checkReadable(page, `${game}'s help page`);
    check(/no password reset|cannot send a password reset/i.test(text), `${game}'s help page does not say there is no password reset by mail`);
    if (game !== 'keeps') check(/Elo/.test(text), `${game}'s help page does not explain Elo`);
    if (game === 'rampart') check(/sterile draw/i.test(text), 'Rampart\'s help page does not say sterile draws change nothing');
    if (game === 'stratego') check(/covered/i.test(text), 'Stratego\'s help page does not say why the board is covered');
    await checkFits(page, `${game}'s help page on a phone`);
    await t.shot(page, game);
  }
});

await run();
