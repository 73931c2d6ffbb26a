// chat.test.mjs -- a live game's two chats, as people read them: the two
// players (one on a 360 px phone) talk in the players' room; spectators, in
// other browser contexts, see the spectators' room only, and the players
// never see theirs; a guest spectator reads but is asked to sign in; a line
// over 400 bytes is refused on the page; a spectator reports a line, and
// once a moderator hides it, it leaves every screen of that room at once.

import { test, run, check, sleep, checkFits } from './lib.mjs';
import { twoPeopleGame, fitsPhone, noJunk } from './play-lib.mjs';
import { stamp, person, makeStaff, seen, waitSeen, waitGone } from './community-lib.mjs';

const PHONE = { width: 360, height: 740 };

/** Says `text` in the page's chat, as a person types it. */
async function say(page, text) {
  await page.fill('#chat-input', text);
  await page.press('#chat-input', 'Enter');
}

test('chat-players-and-spectators', async (t) => {
  const a = await t.newPage();
  const b = await t.newPage(PHONE);
  const { id, nameA, nameB } = await twoPeopleGame(t, a, b, 'rampart');
  for (const p of [a, b]) await waitSeen(p.locator('#chat-title'), 'Chat: Players', 'a player\'s chat');

  // the players talk; both read both lines, each as "name: text"
  await say(a, `hello from a ${stamp}`);
  for (const p of [a, b]) await waitSeen(p.locator('#chat-lines'), `${nameA}: hello from a ${stamp}`, 'a\'s line');
  await say(b, `hi, good luck ${stamp}`);
  for (const p of [a, b]) await waitSeen(p.locator('#chat-lines'), `${nameB}: hi, good luck ${stamp}`, 'b\'s line');
  check((await a.inputValue('#chat-input')) === '', 'the input keeps the line that was sent');

  // a line over 400 bytes is refused before it is sent: 400 "é" are 800 bytes
  await a.fill('#chat-input', 'é'.repeat(400));
  await waitSeen(a.locator('#chat-error'), 'at most 400', 'the length warning');
  await a.press('#chat-input', 'Enter');
  await sleep(500);
  check(!(await seen(b.locator('#chat-lines'))).includes('éééé'), 'a line over 400 bytes reached the other player');
  await a.fill('#chat-input', '');

  // the phone: the game still fits, nothing scrolls sideways, the chat is below
  await fitsPhone(b, 'a game with chat on a phone');
  await checkFits(b, 'a game with chat on a phone');
  await b.locator('#chat').scrollIntoViewIfNeeded();
  await t.shot(b, 'players-phone');

  // a signed-in spectator: the spectators' room only
  const c = await person(t, `watcher${stamp}`, `/game/${id}`);
  await waitSeen(c.locator('#chat-title'), 'Chat: Spectators', 'the spectator\'s chat');
  check(!(await seen(c.locator('#chat-lines'))).includes('hello from a'), 'a spectator sees the players\' chat');
  await say(c, `nice game ${stamp}`);
  await waitSeen(c.locator('#chat-lines'), `watcher${stamp}: nice game ${stamp}`, 'the spectator\'s own line');
  await sleep(800);
  for (const p of [a, b]) check(!(await seen(p.locator('#chat-lines'))).includes('nice game'), 'a player sees the spectators\' chat');

  // a guest spectator reads the spectators' room and is asked to sign in
  const d = await t.newPage();
  await d.goto(`${t.url}/game/${id}`);
  await waitSeen(d.locator('#chat-lines'), `nice game ${stamp}`, 'the guest spectator\'s chat');
  await waitSeen(d.locator('#chat'), 'to chat with the other spectators', 'the guest\'s sign-in note');
  check(!(await d.locator('#chat-input').count()), 'a guest spectator gets a chat input');
  check(!(await seen(d.locator('#chat-lines'))).includes('hello from a'), 'a guest spectator sees the players\' chat');
  check(!(await a.locator('#chat-lines .report-open').count()), 'a guest player is offered Report');

  // another signed-in spectator reports the line
  const en = `keeper${stamp}`;
  const e = await person(t, en, `/game/${id}`);
  const line = e.locator('#chat-lines li', { hasText: `nice game ${stamp}` });
  await line.waitFor();
  await line.getByRole('button', { name: 'Report' }).click();
  await line.locator('.report-reason').fill('spam');
  await line.getByRole('button', { name: 'Send report' }).click();
  await waitSeen(line, 'Reported: thank you', 'the chat report\'s confirmation');
  check(!(await c.locator('#chat-lines .report-open').count()), 'the spectator may report their own line');
  await t.shot(e, 'reported');

  // the reporter is made a moderator and hides the line: it leaves the room's screens
  await makeStaff(t, e, en);
  await e.goto(`${t.url}/staff/reports`);
  const item = e.locator('#reports li.report-item', { hasText: `nice game ${stamp}` });
  await waitSeen(item, 'A chat line', 'the queue\'s chat report');
  await waitSeen(item, `game ${id}`, 'the chat report\'s game');
  await item.getByRole('button', { name: 'Hide chat line' }).click();
  await waitSeen(item, 'The chat line is hidden.', 'hiding the line');
  for (const p of [c, d]) await waitGone(p.locator('#chat-lines'), `nice game ${stamp}`, 'the hidden line on a spectator\'s screen');
  await t.shot(c, 'hidden');
  for (const p of [a, b, c, d]) await noJunk(p, 'a game with chat');
  // a reload brings it no more
  await d.reload();
  await d.locator('#chat-title').waitFor();
  await sleep(500);
  check(!(await seen(d.locator('#chat-lines'))).includes('nice game'), 'the hidden line comes back after a reload');
});

await run();
