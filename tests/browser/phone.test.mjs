// phone.test.mjs -- each game page on a 360x740 phone: the board, the
// player's own clock and the turn line fit on one screen without scrolling,
// and nothing scrolls sideways; on a desktop screen the board and the turn
// line fit too. Rampart Classic (the tallest board), Stratego once both
// armies are set up, and Keeps & Moats at a table of two people and two bots.

import { test, run, check } from './lib.mjs';
import { fitsPhone, keepsTable, noJunk, twoPeopleGame, waitText } from './play-lib.mjs';

const PHONE = { width: 360, height: 740 };

/** On a desktop screen: the board and the turn line are on the first screen. */
async function fitsDesktop(page, where) {
  const r = await page.evaluate(() => {
    const b = document.querySelector('.board svg').getBoundingClientRect();
    const s = document.querySelector('#game-status').getBoundingClientRect();
    return { board: b.bottom, status: s.bottom, h: window.innerHeight, sw: document.documentElement.scrollWidth, w: window.innerWidth, bw: b.width };
  });
  check(r.sw <= r.w, `${where}: the page scrolls sideways (${r.sw}px)`);
  check(r.board <= r.h && r.status <= r.h, `${where}: the board ends at ${Math.round(r.board)}px on a ${r.h}px screen`);
  check(r.bw >= 250, `${where}: the board is only ${Math.round(r.bw)}px wide`);
}

test('phone-rampart', async (t) => {
  const a = await t.newPage();
  const b = await t.newPage(PHONE);
  await twoPeopleGame(t, a, b, 'rampart');
  for (const [p, who] of [[a, 'desktop'], [b, 'phone']]) {
    await p.locator('.player-bar.mine .clock').waitFor();
    await waitText(p.locator('#game-status'), /Your move|to move/, `Rampart ${who}`);
  }
  await fitsPhone(b, 'Rampart on a phone');
  await fitsDesktop(a, 'Rampart on a desktop');
  await noJunk(b, 'Rampart on a phone');
  await t.shot(b, 'phone');
  await t.shot(a, 'desktop');
});

test('phone-stratego', async (t) => {
  const a = await t.newPage();
  const b = await t.newPage(PHONE);
  await twoPeopleGame(t, a, b, 'stratego');
  for (const p of [a, b]) {
    await p.locator('#setup-ready').click();
  }
  for (const [p, who] of [[a, 'desktop'], [b, 'phone']]) {
    await waitText(p.locator('#game-status'), /Your move|to move/, `Stratego ${who}`);
    await p.locator('.st-game [data-piece]').first().waitFor();
  }
  await fitsPhone(b, 'Stratego on a phone');
  await fitsDesktop(a, 'Stratego on a desktop');
  await noJunk(b, 'Stratego on a phone');
  await t.shot(b, 'phone');
  await t.shot(a, 'desktop');
});

test('phone-keeps', async (t) => {
  const a = await t.newPage();
  const b = await t.newPage(PHONE);
  await keepsTable(t, a, b, ['me', 'bot-capture', 'open', 'bot-capture']);
  for (const [p, who] of [[a, 'desktop'], [b, 'phone']]) {
    await p.locator('.player-bar.mine .clock').waitFor();
    await waitText(p.locator('#game-status'), /your move|to move|thinking/i, `Keeps & Moats ${who}`);
  }
  await fitsPhone(b, 'Keeps & Moats on a phone');
  await fitsPhone(a, 'Keeps & Moats on a desktop');
  await noJunk(b, 'Keeps & Moats on a phone');
  await t.shot(b, 'phone');
  await t.shot(a, 'desktop');
});

await run();
