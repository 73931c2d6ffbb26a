// controls-keeps.test.mjs -- the shared game controls on the Keeps & Moats
// page, as two people read them. At a table of the two people only (A
// White and Black, B Red and Blue: bots take no draw offers), A offers a
// draw: A reads that the offer is made and has no Accept button, B reads A's
// name and accepts; after the draw A asks for a rematch, which B reads and
// accepts. At a table of the two people and two bots (Crossroad Allies:
// White and Black against Red and Blue), A resigns White after confirming:
// White is out on both screens and its ally Black, B, plays on (docs/api.md:
// a kingdom that resigns is out, its team plays on). No screen ever reads
// undefined, null, NaN or [object Object].

import { test, run, check } from './lib.mjs';
import { buttonWords, keepsTable, noJunk, resign, waitText } from './play-lib.mjs';

test('controls-keeps-offers', async (t) => {
  const a = await t.newPage();
  const b = await t.newPage({ width: 360, height: 740 });
  const { id, nameA } = await keepsTable(t, a, b, ['me', 'open', 'me', 'open']);
  await noJunk(a, 'Keeps & Moats start: A');
  await noJunk(b, 'Keeps & Moats start: B');
  await waitText(a.locator('#draw'), /^Offer draw$/, "A's draw button");
  await a.click('#draw');
  for (const when of ['after the offer', 'after a reload']) {
    if (when === 'after a reload') await Promise.all([a.reload(), b.reload()]);
    const mine = await waitText(a.locator('#offers'), /You offered a draw\. Waiting for /, `${when}: A's screen`);
    check(!/offers? a draw/.test(mine), `${when}: A reads "${mine}"`);
    const aButtons = await buttonWords(a);
    check(!aButtons.some((w) => /Accept/.test(w)), `${when}: the offerer has a button "${aButtons.join('", "')}"`);
    await waitText(b.locator('#offers'), new RegExp(`^${nameA} offers a draw\\.$`), `${when}: B's screen`);
    await waitText(b.locator('#draw'), /^Accept draw$/, `${when}: B's button`);
    await noJunk(a, `draw offer ${when}: A`);
    await noJunk(b, `draw offer ${when}: B`);
  }
  await t.shot(b, 'draw-offer-seen');
  await b.click('#draw');
  for (const [p, who] of [[a, 'A'], [b, 'B']]) {
    await waitText(p.locator('#result .result h2'), /^Draw$/, `${who}'s result`);
    await waitText(p.locator('#result-reason'), /Draw agreed/, `${who}'s reason`);
    await noJunk(p, `drawn: ${who}`);
  }
  await a.click('#rematch');
  await waitText(a.locator('#offers'), /You offered a rematch/, "A's rematch");
  check(!(await buttonWords(a)).some((w) => /Accept|Rematch/.test(w)), 'the offerer can still press a rematch button');
  await waitText(b.locator('#offers'), new RegExp(`^${nameA} wants a rematch\\.$`), "B's screen");
  await waitText(b.locator('#rematch'), /^Accept rematch$/, "B's button");
  await noJunk(b, 'rematch offer: B');
  await t.shot(b, 'rematch-offer-seen');
  await b.click('#rematch');
  await Promise.all([a, b].map((p) => p.waitForURL((u) => /\/game\/\d+$/.test(u.pathname) && !u.pathname.endsWith(`/${id}`))));
  check(a.url() === b.url(), 'the players went to different rematches');
  await a.locator('#km-kingdoms li').first().waitFor();
  await noJunk(a, 'the rematch: A');
});

test('controls-keeps-resign', async (t) => {
  const a = await t.newPage();
  const b = await t.newPage({ width: 360, height: 740 });
  await keepsTable(t, a, b, ['me', 'bot-capture', 'open', 'bot-capture']);
  check(!(await a.locator('#draw').count()), 'a draw can be offered to bots');
  await a.click('#resign');
  const question = await a.locator('#resign-question').innerText();
  check(/White/.test(question) && /out/.test(question), `the confirmation reads "${question}"`);
  await t.shot(a, 'confirm');
  await a.click('#resign-yes');
  // the server's answer: White is out (its refusal, if any, is on the screen)
  const bar = (p) => p.locator('#km-bars .player-bar[data-side="0"]');
  const refused = a.locator('#play-error:visible');
  const end = Date.now() + 15000;
  while (Date.now() < end && !(await refused.count()) && !/out/.test(await bar(a).innerText())) await a.waitForTimeout(100);
  if (await refused.count()) throw new Error(`the server refused: "${await refused.innerText()}"`);
  for (const [p, who] of [[a, 'A'], [b, 'B']]) {
    await waitText(bar(p), /\bout\b/, `${who}: White's bar`);
    await waitText(p.locator('#km-kingdoms li[data-kingdom="0"]'), /White is out of the game/, `${who}: the kingdoms`);
    check(!(await p.locator('#km-kingdoms li[data-kingdom="2"]').innerText()).includes('out of the game'), `${who}: Black is out too`);
    await noJunk(p, `White resigned: ${who}`);
  }
  await waitText(a.locator('#offers'), /White is out of the game; the others play on\./, "A's controls after resigning");
  check(!(await a.locator('#resign').count()), 'A, out, can still resign');
  check(!(await b.locator('#result .result').count()), 'the game ended though Black plays on');
  check(await b.locator('#resign').count(), 'B, still in, has no Resign button');
  await t.shot(a, 'white-out');
  await t.shot(b, 'white-out-black');
});

await run();
