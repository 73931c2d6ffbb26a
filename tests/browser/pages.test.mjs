// pages.test.mjs -- the pages around the games, as a new player reads them:
// the start page (the three games, the bot menu of each, the games in
// progress), a player's page (variant titles, counts, older games), the
// site's icon, and every such page on a 360 px phone without sideways
// scrolling. No page may show "undefined", "null", "NaN" or "[object Object]".

import { test, run, check, checkReadable, checkFits, signUpAs, sleep, trackApi, settle } from './lib.mjs';

/** A new person's page, its API requests counted (settle). */
const open = async (t, viewport) => trackApi(await t.newPage(viewport));
/** Goes to url once the page's API answers are all in. */
async function go(page, url) {
  await settle(page);
  await page.goto(url);
}
import { botGamesResigned, resign } from './wsplay.mjs';

/** The visible entries of a <select>. */
const optionTexts = (page, sel) => page.$$eval(`${sel} option`, (os) => os.map((o) => ({ value: o.value, text: o.textContent.trim() })));

async function home(page, url) {
  await go(page, url + '/');
  await page.locator('#new-game').waitFor();
  await page.locator('#bot-select option').first().waitFor({ state: 'attached' });
}

/** Checks one game's bot menu against /api/bots: only bots that play it, each once, by a name for people. */
function checkMenu(options, bots, variant, what) {
  const plays = new Set(bots.filter((b) => b.variants.includes(variant)).map((b) => b.name));
  check(options.length > 0, `${what}: the bot menu is empty`);
  for (const o of options) {
    check(plays.has(o.value), `${what}: the menu offers ${o.value} ("${o.text}"), which does not play ${variant}`);
    check(!/\bbot-/.test(o.text), `${what}: the menu shows a raw name "${o.text}"`);
    check(o.text.length > 0, `${what}: an entry has no name`);
  }
  const texts = options.map((o) => o.text);
  const dup = texts.find((t, i) => texts.indexOf(t) !== i);
  check(!dup, `${what}: "${dup}" is listed twice`);
}

test('bot-menus', async (t) => {
  const bots = (await (await fetch(`${t.url}/api/bots`)).json()).bots;
  const page = await open(t);
  await home(page, t.url);

  await page.getByLabel('Rampart Classic', { exact: true }).check();
  const rampart = await optionTexts(page, '#bot-select');
  checkMenu(rampart, bots, 'rampart', 'Rampart Classic');
  check(rampart.some((o) => o.text.startsWith('Level 3')), `Rampart's menu has no "Level 3": ${rampart.map((o) => o.text).join(', ')}`);
  check(rampart.some((o) => o.text.startsWith('Monte Carlo')), 'Rampart\'s menu lacks the Monte Carlo bot, which plays it');
  await t.shot(page, 'rampart-menu');

  // changing the game changes the menu
  await page.getByLabel('Stratego', { exact: true }).check();
  const stratego = await optionTexts(page, '#bot-select');
  checkMenu(stratego, bots, 'stratego', 'Stratego');
  check(!stratego.some((o) => o.value === 'bot-mcts'), 'Stratego\'s menu still offers the Monte Carlo bot');
  check(stratego.some((o) => o.text === 'Random mover'), `Stratego's menu has no "Random mover": ${stratego.map((o) => o.text).join(', ')}`);

  // Keeps & Moats: the bots are offered seat by seat
  await page.getByLabel('Keeps & Moats Chess', { exact: true }).check();
  await page.locator('#km-table').waitFor();
  for (let k = 0; k < 4; k++) {
    const seats = (await optionTexts(page, `#km-seat-${k}`)).filter((o) => o.value !== 'me' && o.value !== 'open');
    checkMenu(seats, bots, 'keeps-moats', `Keeps & Moats seat ${k}`);
    check(!seats.some((o) => /^Level /.test(o.text)), 'Keeps & Moats offers Rampart\'s levels');
  }
  check(await page.locator('#opp-bot').isHidden(), 'Keeps & Moats shows the two-player opponent choice');
  await t.shot(page, 'keeps-seats');
  await checkReadable(page, 'start page');

  // back to Rampart: its menu is whole again
  await page.getByLabel('Rampart XL', { exact: true }).check();
  checkMenu(await optionTexts(page, '#bot-select'), bots, 'rampart-xl', 'Rampart XL');

  // each game's menu starts a game (each game with its own guest: two bot games at once is the limit)
  const rp = await open(t);
  await home(rp, t.url);
  await rp.getByLabel('Rampart Classic', { exact: true }).check();
  await rp.getByLabel('A bot').check();
  await rp.selectOption('#bot-select', { label: 'Level 1 (beginner)' });
  await rp.getByLabel('None').check();
  await rp.click('#start-game');
  await rp.waitForURL(/\/game\/\d+$/);
  await rp.locator('[data-square]').first().waitFor();
  check((await rp.locator('body').innerText()).includes('bot-level1'), 'the Rampart game does not show its bot');
  await checkReadable(rp, 'Rampart game against Level 1');

  const sp = await open(t);
  await home(sp, t.url);
  await sp.getByLabel('Stratego', { exact: true }).check();
  await sp.getByLabel('A bot').check();
  await sp.selectOption('#bot-select', { label: 'Attacker (attacks and captures when it can)' });
  await sp.getByLabel('None').check();
  await sp.click('#start-game');
  await sp.waitForURL(/\/game\/\d+$/);
  await sp.locator('#setup-ready').waitFor();
  await t.shot(sp, 'stratego-setup');

  const kp = await open(t);
  await home(kp, t.url);
  await kp.getByLabel('Keeps & Moats Chess', { exact: true }).check();
  await kp.getByLabel('None').check();
  await kp.selectOption('#km-seat-0', 'me');
  for (let k = 1; k < 4; k++) await kp.selectOption(`#km-seat-${k}`, { label: 'Random mover' });
  await kp.click('#start-game');
  await kp.waitForURL(/\/game\/\d+$/);
  await kp.locator('.km-game [data-square]').first().waitFor();
});

test('home-three-games', async (t) => {
  const page = await open(t);
  await home(page, t.url);
  const hero = await page.locator('.hero').innerText();
  for (const g of ['Rampart', 'Stratego', 'Keeps & Moats'])
    check(hero.includes(g), `the home banner does not speak of ${g}: "${hero}"`);
  for (const [id, title, linkText, path, heading] of [
    ['rampart', 'Rampart', 'Learn to play (lessons)', '/learn', /Learn Rampart/],
    ['stratego', 'Stratego', 'How to play Stratego', '/stratego/help', /Stratego/],
    ['keeps-moats', 'Keeps & Moats Chess', 'How to play Keeps & Moats', '/keeps/help', /Keeps & Moats/],
  ]) {
    await home(page, t.url);
    const card = page.locator(`#about-${id}`);
    check((await card.locator('h2').innerText()) === title, `the ${id} banner is not titled ${title}`);
    check((await card.innerText()).length > 80, `the ${title} banner says too little`);
    // its "Play" button chooses that game in the form
    await card.getByRole('button').click();
    const chosen = await page.$eval('input[name="variant"]:checked', (i) => i.closest('label').textContent.trim());
    check(chosen.startsWith(title === 'Keeps & Moats Chess' ? 'Keeps & Moats' : title), `"Play ${title}" chose ${chosen}`);
    await card.getByRole('link', { name: linkText }).click();
    await page.waitForURL(t.url + path);
    await page.locator('h1').first().waitFor();
    check(heading.test(await page.locator('h1').first().innerText()), `${path} opens without a heading about ${title}`);
    await checkReadable(page, path);
  }
  // Learn says it is Rampart's, and where the other games are taught
  await go(page, t.url + '/learn');
  const learn = await page.locator('.learn-intro').innerText();
  check(/Rampart/.test(learn) && /Stratego/.test(learn) && /Keeps & Moats/.test(learn), `Learn does not say whose tutorial it is: "${learn}"`);
  // Keeps & Moats has its own place in the form, not under Rampart's Fun Zone
  await home(page, t.url);
  const groups = await page.$$eval('#new-game .game-group', (gs) => gs.map((g) => g.innerText));
  const fun = groups.find((g) => /Fun Zone/.test(g)) ?? '';
  check(!/Keeps/.test(fun), 'Keeps & Moats is still listed in Rampart\'s Fun Zone');
  check(groups.some((g) => /^Keeps & Moats Chess/.test(g)), 'Keeps & Moats has no group of its own');
  await t.shot(page, 'home');
});

test('games-in-progress', async (t) => {
  const page = await open(t);
  await home(page, t.url);
  await sleep(500);
  check(await page.locator('#my-games').isHidden(), 'a newcomer with no game sees a "games in progress" list');
  check(!(await page.locator('body').innerText()).includes('Your games in progress'), 'the empty list is shown');

  await page.getByLabel('Rampart Classic', { exact: true }).check();
  await page.getByLabel('A bot').check();
  await page.selectOption('#bot-select', 'bot-level2');
  await page.getByLabel('None').check();
  await page.click('#start-game');
  await page.waitForURL(/\/game\/\d+$/);
  const id = Number(page.url().split('/').pop());
  await page.locator('[data-square]').first().waitFor();

  // back to the start page through the menu, and after a reload (the server's hello)
  for (const how of ['menu', 'reload']) {
    if (how === 'menu') await page.locator('#nav').getByRole('link', { name: 'Play' }).click();
    else await go(page, t.url + '/');
    const item = page.locator(`#my-games li[data-game="${id}"]`);
    await item.waitFor();
    const text = await item.innerText();
    check(/Rampart Classic/.test(text) && /vs bot-level2/.test(text), `${how}: the entry reads "${text}"`);
    check(/your move/.test(text), `${how}: the entry does not say whose move it is: "${text}"`);
    check((await page.locator('#my-games h2').innerText()) === 'Your games in progress', 'the list has no heading');
    await checkReadable(page, `start page with a game (${how})`);
    if (how === 'menu') await t.shot(page, 'in-progress');
  }
  await page.locator(`#my-games li[data-game="${id}"] a`).click();
  await page.waitForURL(`${t.url}/game/${id}`);
  await page.locator('[data-square]').first().waitFor();

  // once it is over, it is gone from the list
  await resign(page, id);
  await home(page, t.url);
  await sleep(800);
  check(await page.locator('#my-games').isHidden(), 'a finished game is still listed as in progress');
});

test('player-page-stratego', async (t) => {
  const page = await open(t);
  const name = `strat${String(Date.now()).slice(-6)}`;
  await signUpAs(page, t.url, name);
  await home(page, t.url);
  await page.getByLabel('Stratego', { exact: true }).check();
  await page.getByLabel('A bot').check();
  await page.selectOption('#bot-select', 'bot-random');
  await page.getByLabel('None').check();
  await page.check('#rated');
  await page.click('#start-game');
  await page.waitForURL(/\/game\/\d+$/);
  const id = Number(page.url().split('/').pop());
  await page.locator('#setup-ready').waitFor();
  await page.click('#setup-ready');
  const result = await resign(page, id);
  check(result.winner === 1, `the resignation gave ${JSON.stringify(result)}`);

  await go(page, `${t.url}/players/${name}`);
  await page.locator('#ratings tbody tr').first().waitFor().catch(() => { throw new Error('the player page shows no rating after a rated game'); });
  await page.locator('#games tbody tr[data-game]').first().waitFor().catch(() => { throw new Error('the player page lists no game'); });
  const text = await checkReadable(page, 'player page');
  await t.shot(page, 'player');
  const ratings = await page.locator('#ratings tbody tr').first().innerText();
  check(/^Stratego\b/.test(ratings), `the ratings table reads "${ratings}"`);
  check(/\b1 game\b/.test(ratings), `the ratings table does not say "1 game": "${ratings}"`);
  check(text.includes('Stratego: rating history'), 'the chart is not titled "Stratego: rating history"');
  const row = await page.locator(`#games tr[data-game="${id}"]`).innerText();
  check(/Stratego, No clock, rated/.test(row), `the game list reads "${row}"`);
  check(!/\bstratego\b/.test(text), 'the page shows the raw id "stratego"');
  check(!/\b1 games\b/.test(text), 'the page says "1 games"');
  const chart = await page.locator('.chart svg').innerHTML();
  check(!chart.includes('1 games'), 'the chart says "1 games"');
  // dated: the game's date under the line, and in its point's tooltip
  const today = await page.evaluate(() => new Date().toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' }));
  const labels = await page.locator('.chart svg > text').allTextContents();
  check(labels.includes(today), `the chart's labels do not date it: ${JSON.stringify(labels)}`);
  const tips = await page.locator('.chart svg circle title').allTextContents();
  check(tips.some((x) => x.includes(`(${today})`)), `no point of the chart is dated: ${JSON.stringify(tips)}`);
  // one game: no "Show older games"
  check(await page.locator('#more-games').isHidden(), '"Show older games" is offered with one game');
});

test('player-older-games', async (t) => {
  const page = await open(t);
  await home(page, t.url);
  const me = (await (await page.request.get(`${t.url}/api/me`)).json()).player.name;
  const ids = await botGamesResigned(page, 51, { variant: 'rampart-mini', bot: 'bot-random', move_limit: 50 });
  await go(page, `${t.url}/players/${me}`);
  await page.locator('#games tbody tr[data-game]').first().waitFor();
  const rows = () => page.locator('#games tbody tr[data-game]').count();
  check((await rows()) === 50, `the first page lists ${await rows()} games, not 50`);
  check(await page.locator('#more-games').isVisible(), '"Show older games" is not offered with 51 games');
  check(!(await page.locator(`#games tr[data-game="${ids[0]}"]`).count()), 'the oldest game is on the first page');
  await page.click('#more-games');
  await page.locator(`#games tr[data-game="${ids[0]}"]`).waitFor();
  check((await rows()) === 51, `after "Show older games" ${await rows()} games are listed, not 51`);
  check(await page.locator('#more-games').isHidden(), '"Show older games" stays after the last game');
  const text = await checkReadable(page, 'player page, all games');
  check(text.includes('51 games shown'), 'the page does not say how many games it shows');
  check(text.includes('Rampart Mini'), 'the games are not named by their title');
  await t.shot(page, 'older-games');
});

test('favicon', async (t) => {
  const r = await fetch(`${t.url}/favicon.ico`);
  check(r.status === 200, `/favicon.ico answers ${r.status}`);
  const type = r.headers.get('content-type') || '';
  check(/^image\//.test(type), `/favicon.ico is sent as "${type}"`);
  const body = await r.text();
  check(body.includes('<svg'), '/favicon.ico is not the site\'s icon');
  // a game record opened as text: the browser's own request for the icon is answered
  const page = await open(t);
  await home(page, t.url);
  const [id] = await botGamesResigned(page, 1, { variant: 'rampart-mini', bot: 'bot-random', move_limit: 50 });
  const icon = await page.request.get(`${t.url}/favicon.ico`);
  check(icon.status() === 200, `the page's /favicon.ico answers ${icon.status()}`);
  await go(page, `${t.url}/api/games/${id}/record`);
  check((await page.locator('body').innerText()).includes('[Variant "rampart-mini"]'), 'the record does not open as text');
});

test('narrow-pages', async (t) => {
  // something on every page: a signed-up player with a finished game, and an open challenge
  const owner = await open(t);
  const name = `narrow${String(Date.now()).slice(-6)}`;
  await signUpAs(owner, t.url, name);
  await home(owner, t.url);
  const finished = await botGamesResigned(owner, 2, { variant: 'rampart', bot: 'bot-level1', rated: true }); // rows on the ladder too
  await owner.getByLabel('Rampart XL', { exact: true }).check();
  await owner.getByLabel('A friend (share a link)').check();
  await owner.getByLabel('15+10').check();
  await owner.click('#start-game');
  const link = await owner.locator('#challenge-link').inputValue();
  // and an open seek in the lobby
  await owner.getByRole('button', { name: 'Close' }).click();
  await owner.getByLabel('Rampart Classic', { exact: true }).check();
  await owner.getByLabel('Anyone (open a seek in the lobby)').check();
  await owner.click('#start-game');
  await owner.getByText('Waiting for an opponent').waitFor();

  const page = await open(t, { width: 360, height: 740 });
  const paths = ['/', `/players/${name}`, '/players/bot-level1', new URL(link).pathname, '/play/0123456789abcdef0123456789abcdef',
    '/ladder/rampart', '/ladder/rampart-xl', '/ladder/stratego', '/signin', '/signup', `/signin?next=${new URL(link).pathname}`,
    '/learn', '/stratego/help', '/keeps/help', `/review/${finished[0]}`];
  // every lesson and every Keeps & Moats help page
  await go(page, t.url + '/learn');
  await page.locator('.learn-list a').first().waitFor();
  paths.push(...await page.$$eval('.learn-list a', (as) => as.map((a) => a.getAttribute('href'))));
  await go(page, t.url + '/keeps/help');
  await page.locator('.km-help-nav a').first().waitFor();
  paths.push(...await page.$$eval('.km-help-nav a', (as) => as.map((a) => a.getAttribute('href'))));
  check(paths.length > 20, `only ${paths.length} pages to try`);
  for (const path of paths) {
    await go(page, t.url + path);
    await page.locator('h1').first().waitFor();
    await sleep(400); // lists and tables come from the API
    await checkFits(page, path);
    await checkReadable(page, path);
    if (!path.startsWith('/learn/') && !path.startsWith('/keeps/help/')) await t.shot(page, path.replace(/\W+/g, '-'));
  }
  // the start page with the Keeps & Moats table and Stratego chosen, and the lobby's seek
  await home(page, t.url);
  await page.locator('#lobby-seeks button[data-seek]').first().waitFor();
  await checkFits(page, '/ with a seek in the lobby');
  for (const g of ['Keeps & Moats Chess', 'Stratego']) {
    await page.getByLabel(g, { exact: true }).check();
    await checkFits(page, `/ with ${g}`);
  }
  // and with a game in progress listed
  await page.getByLabel('Rampart Classic', { exact: true }).check();
  await page.getByLabel('A bot').check();
  await page.getByLabel('None').check();
  await page.click('#start-game');
  await page.waitForURL(/\/game\/\d+$/);
  await page.locator('#nav').getByRole('link', { name: 'Play' }).click();
  await page.locator('#my-games li').first().waitFor();
  await checkFits(page, '/ with a game in progress');
});

await run();
