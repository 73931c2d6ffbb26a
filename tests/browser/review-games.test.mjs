// review-games.test.mjs -- the review page for Stratego and Keeps & Moats:
// a short finished game of each (made over the WebSocket from the page, then
// ended on its game page), opened from "Review this game" and stepped with
// the keyboard: the board changes at each step and End shows the last position.
// In Stratego the bot's belief about the hidden pieces is shown on request,
// and the strongest bot reviews the finished game.

import { test, run, check, hasSession } from './lib.mjs';

/** Every square's label on the page, without the marks of the shown move. */
const boardText = async (page) => (await page.$$eval('[data-square]', (els) => els.map((e) => e.getAttribute('aria-label') || '')))
  .map((l) => l.replace(/, (last move|combat)/g, '')).join('|');

const plyText = (page) => page.locator('#review-ply').textContent();

/** Runs `script` in the page with a WebSocket of its own (the page's cookie:
 *  the same guest as the page) and helpers `send` and `wait(pred)`. The whole
 *  is one expression handed to the browser to evaluate, as DevTools would:
 *  the page's Content-Security-Policy rightly forbids it to make code from
 *  text itself. */
async function withSocket(page, script, arg) {
  await hasSession(page);
  return page.evaluate(`(async () => {
    const ws = new WebSocket('ws://' + location.host + '/ws');
    const seen = [];
    const waiters = [];
    ws.onmessage = (e) => {
      const m = JSON.parse(e.data);
      seen.push(m);
      for (const w of [...waiters]) if (w.pred(m)) { waiters.splice(waiters.indexOf(w), 1); w.resolve(m); }
    };
    const wait = (pred) => {
      const m = seen.find(pred);
      if (m) return Promise.resolve(m);
      return new Promise((resolve, reject) => {
        waiters.push({ pred, resolve });
        setTimeout(() => reject(new Error('no answer from the server')), 15000);
      });
    };
    const send = (o) => ws.send(JSON.stringify(o));
    await wait((m) => m.type === 'hello');
    try {
      return await (async (send, wait, arg) => { ${script} })(send, wait, ${JSON.stringify(arg ?? null)});
    } finally {
      ws.close();
    }
  })()`);
}

/** Opens the finished game's page and follows its "Review this game" link. */
async function openReview(t, page, id) {
  await page.locator('#result .result').waitFor();
  await page.getByRole('link', { name: 'Review this game' }).click();
  await page.waitForURL(`${t.url}/review/${id}`);
  await page.locator('#review-ply').waitFor();
}

test('review-stratego', async (t) => {
  const page = await t.newPage();
  await page.goto(t.url + '/stratego/help');
  // A one-device game: Red has a Scout on a4 that runs up the open a-file
  // into Blue's front row at once, so the replay has a combat to show.
  const id = await withSocket(page, `
    send({ type: 'local', variant: 'stratego', base_ms: 0, inc_ms: 0, move_limit: 0 });
    const g0 = (await wait((m) => m.type === 'game')).game;
    const setups = await (await fetch('/api/setups/stratego')).json();
    const red = [...setups.library[0].setup.replace(/\\//g, '')];
    const scout = red.indexOf('O');
    [red[0], red[scout]] = [red[scout], red[0]];
    const rows = [0, 1, 2, 3].map((i) => red.slice(i * 10, i * 10 + 10).join('')).join('/');
    send({ type: 'setup', game: g0.id, side: 0, setup: rows });
    send({ type: 'setup', game: g0.id, side: 1, setup: setups.library[0].setup });
    const g = (await wait((m) => m.type === 'game' && m.game.id === g0.id && m.game.phase === 'play')).game;
    let legal = g.legal;
    for (let ply = 0; ply < 3; ply++) {
      const move = ply === 0 ? 'a4a7' : legal.find((m) => m !== 'a4a7') ?? legal[0];
      send({ type: 'move', game: g.id, ply, move });
      legal = (await wait((m) => m.type === 'move' && m.game === g.id && m.ply === ply)).legal ?? [];
    }
    return g.id;`);
  await page.goto(`${t.url}/game/${id}`);
  // the one-device game is covered until the next player says it is them
  // (under the cover every panel is hidden, Resign too)
  await page.click('#st-cover-go');
  await page.click('#resign');
  await page.click('#resign-yes');
  await openReview(t, page, id);
  await t.shot(page, 'end');

  check(/\(3 of 3\)/.test(await plyText(page)), `the review does not open on the last move: ${await plyText(page)}`);
  check(/wins/.test(await page.locator('#review-result').textContent()), 'the result is not shown');
  const events = await page.locator('#move-list .st-event').allTextContents();
  check(events.length >= 1 && /Red Scout \(2\) attacks Blue/.test(events[0]), `the Scout's attack is not in the move list: ${events}`);
  const last = await boardText(page);
  check(!last.includes('unknown'), 'a finished game still hides ranks');

  await page.keyboard.press('Home');
  check((await plyText(page)).startsWith('Start position'), 'Home did not go to the start');
  const start = await boardText(page);
  check(start.includes('a4, Red Scout (2)') && start.includes('a7, Blue'), 'the start is not the two setups');
  check(start !== last, 'the start looks like the end');

  await page.keyboard.press('ArrowRight');
  const one = await boardText(page);
  check(one !== start, 'Right did not change the board');
  check(one.includes('a4, empty'), 'the Scout did not leave a4');
  check(/^Move 1, Red: a4a7 \(1 of 3\)\. Red Scout/.test(await plyText(page)), `Right did not show move 1 with its combat: ${await plyText(page)}`);
  check((await page.locator('.st-mark-combat').count()) === 1, 'the combat square is not marked');
  await t.shot(page, 'move1');

  // the bot's belief, from the side to move's view: Red's about Blue's 40
  // pieces before move 1; Blue's about Red's after it (less what combat showed)
  await page.keyboard.press('Home');
  await page.click('#st-belief');
  await page.locator('.st-note').first().waitFor();
  check((await page.locator('.st-note').count()) === 40, `${await page.locator('.st-note').count()} beliefs at the start`);
  check(/^What Red's bot would believe of Blue's 40 hidden pieces here/.test(await page.locator('#st-belief-note').textContent()),
    `the belief's note: ${await page.locator('#st-belief-note').textContent()}`);
  const labelled = (await page.$$eval('.st-board [data-square]', (els) => els.map((e) => e.getAttribute('aria-label'))))
    .filter((l) => /, believed [A-Z][a-z]+ \d+%/.test(l));
  check(labelled.length === 40 && labelled.every((l) => l.includes(', Blue ')), 'the beliefs read out on Blue\'s squares');
  await page.keyboard.press('ArrowRight');
  check(/^What Blue's bot would believe of Red's \d+ hidden pieces/.test(await page.locator('#st-belief-note').textContent()),
    'Blue\'s belief after Red\'s move');
  const blue = await page.locator('.st-note').count();
  check(blue > 30 && blue <= 40, `${blue} beliefs of Blue's`);
  await page.click('#st-belief');
  check((await page.locator('.st-note').count()) === 0, 'the beliefs stay when hidden');
  check((await page.locator('#rv-analyse').count()) === 1, 'a finished Stratego game cannot be analysed');

  await page.keyboard.press('ArrowRight');
  check((await boardText(page)) !== one, 'the second Right did not change the board');
  await page.keyboard.press('ArrowLeft');
  check((await boardText(page)) === one, 'Left did not go back to move 1');
  await page.keyboard.press('End');
  check((await boardText(page)) === last, 'End did not show the last position');
  await page.click('#rv-first');
  check((await boardText(page)) === start, 'the First button did not go to the start');

  const record = await (await page.request.get(`${t.url}/api/games/${id}/record`)).text();
  check(record.includes('a4a7'), 'the record does not hold the moves');

  // the computer review, by the strongest bot with every rank known: a
  // verdict per move in Red's and Blue's names, a graph point per position
  check((await page.locator('#cr-kept').count()) === 0, 'the server offered to keep a Stratego review');
  await page.locator('#cr-start').click();
  await page.locator('#cr-done').waitFor({ timeout: 60000 });
  const summary = await page.locator('#cr-summary li').allTextContents();
  check(summary.length === 2 && /^Red: (1 inaccuracy|(0|[2-9]|[1-9]\d+) inaccuracies), (1 mistake|(0|[2-9]|[1-9]\d+) mistakes), (1 blunder|(0|[2-9]|[1-9]\d+) blunders)$/.test(summary[0]) &&
    /^Blue: /.test(summary[1]), `the Stratego review's summary: ${JSON.stringify(summary)}`);
  const points = (await page.locator('#cr-graph polygon').getAttribute('points')).trim().split(/\s+/).length;
  check(points === 4 + 2, `the graph has ${points - 2} points for 4 positions`);
  await page.keyboard.press('End');
  check(/^[a-j]\d+[a-j]\d+ by (Red|Blue): /.test(await page.locator('#cr-move').textContent()),
    `the verdict: ${await page.locator('#cr-move').textContent()}`);
});

test('review-keeps', async (t) => {
  const page = await t.newPage();
  await page.goto(t.url + '/keeps/help');
  // Me and three bots with a one-round move limit: a draw after four moves.
  const id = await withSocket(page, `
    send({ type: 'table', variant: 'keeps-moats', options: {}, base_ms: 0, inc_ms: 0, move_limit: 1,
      seats: ['me', 'bot-capture', 'bot-capture', 'bot-capture'] });
    const g = (await wait((m) => m.type === 'game' && m.game.variant === 'keeps-moats')).game;
    send({ type: 'move', game: g.id, ply: 0, move: g.legal.includes('h3i5') ? 'h3i5' : g.legal[0] });
    await wait((m) => m.type === 'end' && m.game === g.id);
    return g.id;`);
  await page.goto(`${t.url}/game/${id}`);
  await openReview(t, page, id);
  await t.shot(page, 'end');

  check(/\(4 of 4\)/.test(await plyText(page)), `the review does not open on the last move: ${await plyText(page)}`);
  check(/^Draw/.test(await page.locator('#review-result').textContent()), 'the draw is not shown');
  check((await page.locator('#move-list button.mv').count()) === 4, 'the move list does not have the four moves');
  const last = await boardText(page);

  await page.keyboard.press('Home');
  const start = await boardText(page);
  check(start.includes('i2, White King') && start.includes('h3, White Knight'), 'the start is not the Keeps & Moats start');
  check(start !== last, 'the start looks like the end');
  await page.keyboard.press('ArrowRight');
  const one = await boardText(page);
  check(one !== start, 'Right did not change the board');
  check(/^Round 1, White: /.test(await plyText(page)), `Right did not show White's move: ${await plyText(page)}`);
  await page.keyboard.press('ArrowRight');
  check(/^Round 1, Red: /.test(await plyText(page)), `the second move is not Red's: ${await plyText(page)}`);
  await t.shot(page, 'move2');
  await page.keyboard.press('End');
  check((await boardText(page)) === last, 'End did not show the last position');
  await page.click('#rv-turn');
  check((await boardText(page)) === last, 'turning the board changed the position');
  await page.keyboard.press('ArrowLeft');
  check(/\(3 of 4\)/.test(await plyText(page)), 'Left did not step back');

  // the computer review by the four-sided search: a summary for each kingdom,
  // a verdict on each move in its kingdom's name, and no two-ended graph
  await page.locator('#cr-start').click();
  await page.locator('#cr-done').waitFor({ timeout: 60000 });
  const summary = await page.locator('#cr-summary li').allTextContents();
  check(summary.length === 4 && ['White', 'Red', 'Black', 'Blue'].every((k, i) =>
    new RegExp(`^${k}: (1 inaccuracy|(0|[2-9]|[1-9]\\d+) inaccuracies), (1 mistake|(0|[2-9]|[1-9]\\d+) mistakes), (1 blunder|(0|[2-9]|[1-9]\\d+) blunders)$`).test(summary[i])),
  `the Keeps & Moats review's summary: ${JSON.stringify(summary)}`);
  check(!(await page.locator('#cr-graph').isVisible()), 'a two-ended graph for four kingdoms');
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowRight');
  check(/^[a-q]\d+[a-q]\d+\S* by White: (the best move|a good move|an inaccuracy|a mistake|a blunder)/
    .test(await page.locator('#cr-move').textContent()), `White's first move: ${await page.locator('#cr-move').textContent()}`);
  await page.keyboard.press('ArrowRight');
  check(/ by Red: /.test(await page.locator('#cr-move').textContent()), 'Red\'s move judged as Red\'s');
});

await run();
