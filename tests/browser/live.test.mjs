// live.test.mjs -- two people play each other live: one opens a seek, the
// other accepts it in the lobby, a third watches; every move shows on all three.

import { test, run, check, sleep } from './lib.mjs';
import { playMove, waitTurn } from './moves.mjs';

async function moveCount(page) {
  return page.locator('#move-list .mv').count();
}

test('live-seek-and-watch', async (t) => {
  const a = await t.newPage();
  const b = await t.newPage({ width: 360, height: 740 }); // one player on a phone
  const c = await t.newPage();
  await a.goto(t.url + '/');
  await a.getByLabel('Rampart Classic').check();
  await a.getByLabel('Anyone (open a seek in the lobby)').check();
  await a.getByLabel('10+5').check();
  await a.click('#start-game');
  await a.getByText('Waiting for an opponent').waitFor();
  await t.shot(a, 'seek-open');

  await b.goto(t.url + '/');
  const accept = b.locator('#lobby-seeks button[data-seek]').first();
  await accept.waitFor();
  await t.shot(b, 'lobby');
  await accept.click();
  await Promise.all([a.waitForURL(/\/game\/\d+$/), b.waitForURL(/\/game\/\d+$/)]);
  check(a.url() === b.url(), `the players are in different games: ${a.url()} ${b.url()}`);

  // the spectator finds the game in the lobby
  await c.goto(t.url + '/');
  const gameLink = c.locator('#lobby-games a').first();
  await gameLink.waitFor();
  await gameLink.click();
  await c.waitForURL(a.url());
  await c.locator('[data-square]').first().waitFor();
  check(!(await c.locator('#resign').count()), 'a spectator sees the resign button');

  const sideOf = async (p) => ((await p.locator('.player-bar:has-text("(you)")').getAttribute('data-side')) === '0' ? 'Bottom' : 'Top');
  const players = [[a, await sideOf(a)], [b, await sideOf(b)]];
  check(players[0][1] !== players[1][1], 'both players play the same side');
  for (let n = 1; n <= 4; n++) {
    const [p, side] = players.find(([, s]) => s === (n % 2 ? 'Bottom' : 'Top'));
    check((await waitTurn(p)) === 'turn', 'the game ended early');
    check(await playMove(p, side), `${side} found no move`);
    for (const q of [a, b, c]) {
      const end = Date.now() + 5000;
      while ((await moveCount(q)) < n && Date.now() < end) await sleep(50);
      check((await moveCount(q)) === n, `move ${n} did not appear on every screen`);
    }
  }
  await t.shot(a, 'player-a');
  await t.shot(b, 'player-b-phone');
  await t.shot(c, 'spectator');
});

await run();
