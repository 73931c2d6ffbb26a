// controls.test.mjs -- the game controls every game page shares, as two
// people (two browser contexts) read them, for Rampart and Stratego: a draw
// offer (the offerer reads that the offer is made and has no Accept button;
// the other reads the offerer's name and accepts), also after both reload;
// a rematch offered after the game ends, accepted; and a resignation in the
// rematch, whose result line names the winner and who resigned; a draw
// offer declined (both read who declined, and the offer is gone). In
// Stratego the finished game shows both armies on the game page. No screen
// ever reads undefined, null, NaN or [object Object].

import { test, run, check, sleep } from './lib.mjs';
import { buttonWords, controlsText, noJunk, resign, twoPeopleGame, waitText } from './play-lib.mjs';

/** A offers a draw; both screens say so rightly, before and after a reload;
 *  B accepts and both read the draw. */
async function drawOffer(t, a, b, nameA, label) {
  await waitText(a.locator('#draw'), /^Offer draw$/, `${label}: A's draw button`);
  await a.click('#draw');
  const check2 = async (when) => {
    const mine = await waitText(a.locator('#offers'), /You offered a draw/, `${label} ${when}: A's screen`);
    check(!/offers a draw/.test(mine), `${label} ${when}: A reads "${mine}"`);
    const aButtons = await buttonWords(a);
    check(!aButtons.some((w) => /Accept/.test(w)), `${label} ${when}: the offerer has a button "${aButtons.join('", "')}"`);
    const theirs = await waitText(b.locator('#offers'), new RegExp(`${nameA} offers a draw\\.`), `${label} ${when}: B's screen`);
    check(!/You offered/.test(theirs), `${label} ${when}: B reads "${theirs}"`);
    await waitText(b.locator('#draw'), /^Accept draw$/, `${label} ${when}: B's button`);
    await noJunk(a, `${label} ${when}: A`);
    await noJunk(b, `${label} ${when}: B`);
  };
  await check2('after the offer');
  await t.shot(a, 'draw-offered');
  await t.shot(b, 'draw-offer-seen');
  await Promise.all([a.reload(), b.reload()]);
  await check2('after a reload');
  await b.click('#draw');
  for (const [p, who] of [[a, 'A'], [b, 'B']]) {
    await waitText(p.locator('#result .result h2'), /^Draw/, `${label}: ${who}'s result`);
    await waitText(p.locator('#result-reason'), /Draw agreed/, `${label}: ${who}'s reason`);
    await noJunk(p, `${label} drawn: ${who}`);
  }
}

/** A asks for a rematch; B reads A's name and accepts; both go to the new game. */
async function rematch(t, a, b, nameA, id, label) {
  await a.click('#rematch');
  const mine = await waitText(a.locator('#offers'), /You offered a rematch/, `${label}: A's rematch`);
  check(!/wants a rematch/.test(mine), `${label}: A reads "${mine}"`);
  check(!(await buttonWords(a)).some((w) => /Accept|Rematch/.test(w)), `${label}: the offerer can still press a rematch button`);
  await waitText(b.locator('#offers'), new RegExp(`${nameA} wants a rematch\\.`), `${label}: B's screen`);
  // the offer survives a reload of either page (the game message carries it)
  await b.reload();
  await waitText(b.locator('#offers'), new RegExp(`${nameA} wants a rematch\\.`), `${label}: B's screen after a reload`);
  await a.reload();
  await waitText(a.locator('#offers'), /You offered a rematch/, `${label}: A's rematch after a reload`);
  await waitText(b.locator('#rematch'), /^Accept rematch$/, `${label}: B's button`);
  await noJunk(a, `${label} rematch: A`);
  await noJunk(b, `${label} rematch: B`);
  await t.shot(b, 'rematch-offer-seen');
  await b.click('#rematch');
  await Promise.all([a.waitForURL((u) => /\/game\/\d+$/.test(u.pathname) && !u.pathname.endsWith(`/${id}`)),
    b.waitForURL((u) => /\/game\/\d+$/.test(u.pathname) && !u.pathname.endsWith(`/${id}`))]);
  const next = a.url().split('/').pop();
  check(b.url().endsWith(`/game/${next}`), `${label}: the players went to different rematches`);
  return next;
}

/** A resigns; both result lines name B as the winner and A as resigning. */
async function resignation(t, a, b, nameA, nameB, label) {
  await resign(a);
  for (const [p, who] of [[a, 'A'], [b, 'B']]) {
    const head = await waitText(p.locator('#result .result h2'), /wins/, `${label}: ${who}'s result`);
    check(head.includes(nameB) && !head.includes(nameA), `${label}: ${who} reads "${head}"; ${nameB} won`);
    const why = await p.locator('#result-reason').innerText();
    check(why.includes(nameA) && /resigned/.test(why), `${label}: ${who} reads "${why}"; ${nameA} resigned`);
    await noJunk(p, `${label} resigned: ${who}`);
  }
}

test('controls-rampart', async (t) => {
  const a = await t.newPage();
  const b = await t.newPage({ width: 360, height: 740 });
  const { id, nameA, nameB } = await twoPeopleGame(t, a, b, 'rampart');
  await noJunk(a, 'Rampart start: A');
  await drawOffer(t, a, b, nameA, 'Rampart');
  const next = await rematch(t, a, b, nameA, id, 'Rampart');
  await a.locator('#resign').waitFor();
  await resignation(t, a, b, nameA, nameB, `Rampart rematch ${next}`);
  await t.shot(a, 'resigned');
  await t.shot(b, 'resigned-phone');
});

test('decline-a-draw', async (t) => {
  const a = await t.newPage();
  const b = await t.newPage();
  const { nameB } = await twoPeopleGame(t, a, b, 'rampart');
  await waitText(a.locator('#draw'), /^Offer draw$/, "A's draw button");
  await a.click('#draw');
  await waitText(b.locator('#draw-decline'), /^Decline draw$/, "B's Decline button");
  await b.click('#draw-decline');
  // both read the refusal, in their own words; the offer is gone for both
  await waitText(a.locator('#offers'), new RegExp(`^${nameB} declined the draw\\.$`), "A's screen after the refusal");
  await waitText(b.locator('#offers'), /^You declined the draw\.$/, "B's screen after the refusal");
  for (const [p, who] of [[a, 'A'], [b, 'B']]) {
    await waitText(p.locator('#draw'), /^Offer draw$/, `${who}'s draw button after the refusal`);
    check(!(await p.locator('#draw-decline').count()), `${who} still has a Decline button`);
    check(!/offers? a draw|You offered/.test(await p.locator('#offers').innerText()), `${who} still reads an offer`);
    await noJunk(p, `after the refusal: ${who}`);
  }
  await t.shot(a, 'draw-declined');
});

/** Both players press Ready on their setup screens. */
async function setUp(a, b) {
  for (const p of [a, b]) await p.locator('#setup-ready').click();
  for (const p of [a, b]) await waitText(p.locator('#game-status'), /Your move|to move/, 'after the setups');
}

/** Pieces the board draws as blank backs. */
const unknownPieces = (p) => p.locator('.st-game [data-piece].st-unknown').count();

test('controls-stratego', async (t) => {
  const a = await t.newPage();
  const b = await t.newPage({ width: 360, height: 740 });
  const { id, nameA, nameB } = await twoPeopleGame(t, a, b, 'stratego');
  check(!(await a.locator('#draw').count()), 'a draw can be offered before the armies are set up');
  await setUp(a, b);
  check((await unknownPieces(a)) === 40, 'A does not see the 40 hidden pieces of B');
  await drawOffer(t, a, b, nameA, 'Stratego');
  const next = await rematch(t, a, b, nameA, id, 'Stratego');
  await setUp(a, b);
  await resignation(t, a, b, nameA, nameB, `Stratego rematch ${next}`);
  // the finished game is public: both armies show on the game page, without a reload and after one
  for (const [p, who] of [[a, 'A'], [b, 'B']]) {
    const end = Date.now() + 5000;
    while ((await unknownPieces(p)) && Date.now() < end) await sleep(100);
    check((await unknownPieces(p)) === 0, `${who} still sees ${await unknownPieces(p)} hidden pieces after the end`);
    check((await p.locator('.st-game [data-piece]').count()) === 80, `${who} does not see both armies`);
  }
  await t.shot(a, 'over-armies');
  await b.reload();
  await waitText(b.locator('#result .result h2'), /wins/, 'Stratego after a reload');
  const end = Date.now() + 5000;
  while ((await unknownPieces(b)) && Date.now() < end) await sleep(100);
  check((await unknownPieces(b)) === 0, `after a reload B sees ${await unknownPieces(b)} hidden pieces`);
  await noJunk(b, 'Stratego over, reloaded');
  await t.shot(b, 'over-armies-reloaded');
  const words = await controlsText(a);
  check(!/offers a draw/.test(words), `an old offer is still shown: ${words}`);
});

await run();
