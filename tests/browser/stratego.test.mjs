// stratego.test.mjs -- Stratego on the page: a game against a bot from the
// setup screen, a one-device game with the pass-the-device cover, a
// spectator's view, and the help page. Throughout, no rank the viewer may not
// know is ever in the page.

import { test, run, check, clickSquare, sleep } from './lib.mjs';
import { axeViolations } from './axe.mjs';

/** Every square's label on the game board. */
async function labels(page) {
  return page.$$eval('.st-game [data-square]', (els) => els.map((e) => ({ name: e.dataset.square, label: e.getAttribute('aria-label') || '' })));
}

/** Fails if a piece of `side` ('red'/'blue', or both) shows a rank it should
 *  not: an unrevealed enemy piece must be a blank back with no text at all. */
async function checkHidden(page, sides, what) {
  const leaks = await page.$$eval('.st-game [data-piece]', (els, sides) => els
    .filter((e) => sides.some((s) => e.classList.contains(`st-${s}`)))
    .filter((e) => !e.querySelector('.st-revealed-mark') && (!e.classList.contains('st-unknown') || e.querySelector('text')))
    .map((e) => e.dataset.piece), sides);
  check(!leaks.length, `${what}: unrevealed ranks shown on ${leaks.join(' ')}`);
  for (const l of await labels(page)) {
    for (const s of sides) {
      const name = s === 'red' ? 'Red' : 'Blue';
      if (l.label.includes(`, ${name} `) && !l.label.includes(`${name} piece, unknown`) && !l.label.includes('revealed'))
        throw new Error(`${what}: the label of ${l.name} says "${l.label}"`);
    }
  }
}

async function newStrategoGame(page, url, opponent, clock = 'None') {
  await page.goto(url + '/');
  await page.locator('#new-game').waitFor();
  await page.getByLabel('Stratego', { exact: true }).check();
  await page.getByLabel(opponent).check();
  if (opponent === 'A bot') {
    await page.selectOption('#bot-select', 'bot-random');
    await page.selectOption('#side-select', '0');
  }
  await page.getByLabel(clock, { exact: true }).check();
  await page.click('#start-game');
  await page.waitForURL(/\/game\/\d+$/);
  return Number(page.url().split('/').pop());
}

/** Plays one move of `side` ('Red'/'Blue') with two clicks; returns it. */
async function playMove(page, side) {
  const mine = (await labels(page)).filter((s) => s.label.includes(`, ${side} `) && !s.label.includes('unknown'));
  mine.sort(() => Math.random() - 0.5);
  for (const s of mine) {
    await clickSquare(page, s.name, '.st-game');
    const targets = (await labels(page)).filter((x) => x.label.includes('can move here')).map((x) => x.name);
    if (!targets.length) continue;
    const to = targets[Math.floor(Math.random() * targets.length)];
    await clickSquare(page, to, '.st-game');
    return s.name + to;
  }
  return null;
}

async function waitStatus(page, re, timeoutMs = 20000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const st = (await page.locator('#game-status').textContent()) || '';
    if (re.test(st)) return st;
    if (await page.locator('#result .result').count()) return 'over';
    if (Date.now() > end) throw new Error(`status stayed "${st}", expected ${re}`);
    await sleep(50);
  }
}

test('stratego-bot-game', async (t) => {
  const page = await t.newPage();
  await newStrategoGame(page, t.url, 'A bot');
  await page.locator('#setup-ready').waitFor();
  await page.click('#setup-random');
  await sleep(300);
  await t.shot(page, 'setup');
  // swap two different pieces of the front row by clicking one then the other
  const before = await labels(page);
  const row4 = before.filter((s) => /^[a-j]4$/.test(s.name));
  const a = row4[0];
  const b = row4.find((s) => s.label.split(', ')[1] !== a.label.split(', ')[1]);
  check(b, 'the front row holds one kind only');
  await clickSquare(page, a.name, '.st-game');
  await clickSquare(page, b.name, '.st-game');
  const after = await labels(page);
  const kind = (list, sq) => list.find((s) => s.name === sq).label.split(', ')[1];
  check(kind(after, a.name) === kind(before, b.name) && kind(after, b.name) === kind(before, a.name), 'the two pieces did not swap');
  await page.click('#setup-ready');
  let moves = 0, over = false;
  for (; moves < 6; moves++) {
    const st = await waitStatus(page, /^Your move$/);
    if (st === 'over') { over = true; break; }
    await checkHidden(page, ['blue'], `before move ${moves + 1}`);
    const mv = await playMove(page, 'Red');
    check(mv, 'no Red piece could move on our turn');
    if (moves === 1) await t.shot(page, 'playing');
  }
  await sleep(500);
  // a random setup may leave the Flag in reach: a game the bot won within
  // these moves shows its whole position, as every finished hidden game does
  if (!over) await checkHidden(page, ['blue'], 'at the end');
  // an unrated game: the player may take their own view (and only it) to the
  // analysis board, where the bot's belief sits on Blue's hidden pieces
  if (!over) {
    const href = await page.locator('#st-analyse').getAttribute('href');
    check(await page.locator('#st-analyse').isVisible() && href?.startsWith('/analysis/stratego?fen='),
      `the link to analyse my view: ${href}`);
    const fen = new URL(href, t.url).searchParams.get('fen');
    check(/x/.test(fen) && !/X/.test(fen), `the view analysed hides Blue's ranks only: ${fen}`);
    const an = await t.newPage();
    await an.goto(t.url + href);
    await an.locator('.st-note').first().waitFor();
    const notes = await an.locator('.st-note').count();
    const hidden = (fen.split(' ')[0].match(/x/g) || []).length;
    check(notes === hidden, `${notes} beliefs for ${hidden} hidden pieces`);
  }
  check(moves >= 3 || (await page.locator('#result .result').count()), `only ${moves} moves were played`);
  const list = await page.locator('#move-list li').count();
  check(list >= moves, `the move list shows ${list} moves, not ${moves}`);
  await t.shot(page, 'after-moves');
});

test('stratego-one-device', async (t) => {
  const page = await t.newPage({ width: 390, height: 860 });
  await newStrategoGame(page, t.url, 'Two players on this device', '10+5');
  await page.locator('#setup-ready').waitFor();
  check((await page.locator('#setup-h').textContent()).includes('Red'), 'Red does not set up first');
  await page.click('#setup-ready');
  const coverUp = async (who) => {
    await page.locator('#st-cover:not([hidden])').waitFor();
    const text = await page.locator('#st-cover').textContent();
    check(text.includes(`Pass the device to ${who}`), `the cover says "${text}"`);
    check((await page.locator('.st-game [data-piece]').count()) === 0, 'pieces are on the board while the cover is up');
    check(await page.locator('.st-game .board').evaluate((e) => !!e.closest('[inert]')), 'the board is not inert under the cover');
    // every side panel goes too: no "Arrange your army (Red)" under Blue's cover, nothing to click
    const side = page.locator('.st-game .game-side');
    check(!(await side.isVisible()) || await side.evaluate((e) => getComputedStyle(e).visibility === 'hidden'),
      'the side panels show under the cover');
    check(await side.evaluate((e) => e.hasAttribute('inert')), 'the side panels can be used under the cover');
    const shown = await page.evaluate(() => document.querySelector('.st-game')?.innerText ?? '');
    check(!/Arrange your|Analyse my view/.test(shown), `under the cover the page reads: ${shown.slice(0, 200)}`);
    return text;
  };
  /** Both clocks as the page shows them, a second and a half apart. */
  const clocksOverTime = async () => {
    const read = () => page.$$eval('.st-game .clock', (els) => els.map((e) => e.textContent));
    const first = await read();
    await page.waitForTimeout(1500);
    return [first, await read()];
  };
  await coverUp('Blue');
  await t.shot(page, 'cover-setup');
  const found = await axeViolations(page);  // the cover, a dialog, as axe-core reads it
  check(!found.length, `axe-core on the cover: ${found.join(', ')}`);
  await page.click('#st-cover-go');
  await page.locator('#setup-ready').waitFor();
  check((await page.locator('#setup-h').textContent()).includes('Blue'), 'Blue does not set up second');
  await page.click('#setup-ready');
  await coverUp('Red');
  await page.click('#st-cover-go');
  let side = 'Red';
  for (let i = 0; i < 4; i++) {
    await waitStatus(page, new RegExp(`^${side} to move$`));
    await page.locator('.st-game svg.can-move').waitFor();
    await checkHidden(page, [side === 'Red' ? 'blue' : 'red'], `${side}'s turn ${i}`);
    const mv = await playMove(page, side);
    check(mv, `no ${side} piece could move`);
    side = side === 'Red' ? 'Blue' : 'Red';
    if (await page.locator('#result .result').count()) return;
    const text = await coverUp(side);
    check(text.includes(`${mv.slice(0, 2)} to ${mv.slice(2)}`), `the cover does not show the last move ${mv}: "${text}"`);
    if (i === 0) await t.shot(page, 'cover-move');
    if (i === 0) {
      // no clock runs under the cover; once the device has changed hands, the next player's does
      const [a, b] = await clocksOverTime();
      check(JSON.stringify(a) === JSON.stringify(b), `a clock ran under the cover: ${a} then ${b}`);
      await page.click('#st-cover-go');
      const [c, d] = await clocksOverTime();
      check(JSON.stringify(c) !== JSON.stringify(d), `no clock ran after the cover went: ${c} then ${d}`);
      check((await page.locator('.st-game [data-piece]').count()) > 0, 'no pieces after the cover went');
      continue;
    }
    await page.click('#st-cover-go');
    check((await page.locator('.st-game [data-piece]').count()) > 0, 'no pieces after the cover went');
  }
  await t.shot(page, 'one-device-end');
});

test('stratego-spectator', async (t) => {
  const player = await t.newPage();
  const watcher = await t.newPage();
  // a random setup may leave a Flag in the front row, taken at once: a game
  // over shows its whole position to everyone, so one still going is watched
  let watched = false;
  for (let tries = 0; tries < 5 && !watched; tries++) {
    const id = await newStrategoGame(player, t.url, 'A bot');
    await player.locator('#setup-ready').waitFor();
    await player.click('#setup-ready');
    if ((await waitStatus(player, /^Your move$/)) === 'over') continue;
    await playMove(player, 'Red');
    if ((await waitStatus(player, /^Your move$/)) === 'over') continue;
    await watcher.goto(`${t.url}/game/${id}`);
    await watcher.locator('.st-game [data-piece]').first().waitFor();
    await sleep(300);
    watched = !(await watcher.locator('#result .result').count());
  }
  check(watched, 'five games in a row ended within their first two moves');
  await checkHidden(watcher, ['red', 'blue'], 'spectator');
  check((await watcher.locator('.st-game [data-piece].st-unknown').count()) >= 70, 'the spectator does not see the armies as blank backs');
  await t.shot(watcher, 'spectator');
});

test('stratego-help', async (t) => {
  const page = await t.newPage({ width: 360, height: 800 });
  await page.goto(t.url + '/stratego/help');
  await page.locator('#st-chart').waitFor();
  const rows = await page.locator('#st-chart tbody tr').count();
  check(rows === 12, `the piece chart has ${rows} rows, not 12`);
  const chart = await page.locator('#st-chart').textContent();
  for (const w of ['Marshal', 'Spy', 'Miner', 'Bomb', 'Flag', 'Scout'])
    check(chart.includes(w), `the chart does not name the ${w}`);
  const ex = page.locator('#example-spy');
  await ex.scrollIntoViewIfNeeded();
  check((await ex.locator('[data-piece]').count()) >= 3, 'the Spy example shows no pieces');
  const labelsAfter = await ex.locator('.st-diagram').nth(1).locator('[data-square="h4"]').getAttribute('aria-label');
  check(/Red Spy \(1\)/.test(labelsAfter), `after the Spy's attack h4 reads "${labelsAfter}"`);
  await t.shot(page, 'help');
});

await run();
