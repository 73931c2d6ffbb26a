// tests/browser/play-lib.mjs -- what the game-page tests (controls, layout,
// capture marks) share: two people's games made over the WebSocket as
// docs/api.md describes (a seek and its acceptance, a Keeps & Moats table and
// its seats), then played on the game pages as people do; and checks of what
// a person reads there.
//
// The games are made from a page of the server's own (so the page's guest
// cookie is the socket's): `hold` keeps a socket open on the page across
// calls, since a seek or a seat lives only as long as its connection.

import { check, sleep } from './lib.mjs';

/** Words that must never reach a person's screen. */
const JUNK = ['undefined', 'null', 'NaN', '[object Object]'];

/** Fails if the page's visible text holds undefined, null, NaN or [object Object]. */
export async function noJunk(page, where) {
  const text = await page.evaluate(() => document.body.innerText);
  for (const w of JUNK) check(!text.includes(w), `${where}: the page reads "${w}": …${text.slice(Math.max(0, text.indexOf(w) - 60), text.indexOf(w) + 40).replace(/\s+/g, ' ')}…`);
}

/** Makes this context a guest on the server and returns its name. */
export async function guest(page, url) {
  await page.goto(`${url}/api/me`);
  const me = JSON.parse(await page.evaluate(() => document.body.innerText));
  return me.player.name;
}

/** Opens (once) a socket on the page, kept on `window`, and runs `script`
 *  with `send(obj)` and `wait(pred)`; returns what the script returns. The
 *  script is text: the page's Content-Security-Policy rightly forbids the page
 *  to make code from text itself, so it is evaluated as DevTools would. */
export function hold(page, script, arg) {
  return page.evaluate(`(async () => {
    if (!window.__sock) {
      const ws = new WebSocket('ws://' + location.host + '/ws');
      const sock = { ws, seen: [], waiters: [] };
      ws.onmessage = (e) => {
        const m = JSON.parse(e.data);
        sock.seen.push(m);
        for (const w of [...sock.waiters]) if (w.pred(m)) { sock.waiters.splice(sock.waiters.indexOf(w), 1); w.resolve(m); }
      };
      window.__sock = sock;
    }
    const sock = window.__sock;
    const wait = (pred) => {
      const m = sock.seen.find(pred);
      if (m) return Promise.resolve(m);
      return new Promise((resolve, reject) => {
        sock.waiters.push({ pred, resolve });
        setTimeout(() => reject(new Error('no answer from the server')), 15000);
      });
    };
    const send = (o) => sock.ws.send(JSON.stringify(o));
    await wait((m) => m.type === 'hello');
    return await (async (send, wait, arg) => { ${script} })(send, wait, ${JSON.stringify(arg ?? null)});
  })()`);
}

/** A two-person game of `variant`: A opens a seek, B takes it. Both pages
 *  end on the game page. Returns {id, nameA, nameB}. */
export async function twoPeopleGame(t, a, b, variant, clock = { base_ms: 600000, inc_ms: 5000 }) {
  const nameA = await guest(a, t.url);
  const nameB = await guest(b, t.url);
  const seek = await hold(a, `
    send({ type: 'seek', variant: arg.variant, base_ms: arg.base_ms, inc_ms: arg.inc_ms, move_limit: arg.variant.startsWith('rampart') ? 100 : 0, rated: false });
    const m = await wait((m) => m.type === 'seek_created' || m.type === 'error');
    if (m.type === 'error') throw new Error(m.error);
    return m.seek;`, { variant, ...clock });
  const id = await hold(b, `
    send({ type: 'accept', seek: arg });
    const m = await wait((m) => m.type === 'game' || m.type === 'error');
    if (m.type === 'error') throw new Error(m.error);
    return m.game.id;`, seek);
  await Promise.all([a.goto(`${t.url}/game/${id}`), b.goto(`${t.url}/game/${id}`)]);
  await Promise.all([a.locator('#game-status').waitFor(), b.locator('#game-status').waitFor()]);
  return { id, nameA, nameB };
}

/** A Keeps & Moats table: `seatsA` lists the seats ("me", "open" or a bot)
 *  as A opens it; B sits on every open one. Both pages end on the game page. */
export async function keepsTable(t, a, b, seatsA, gameType = 1) {
  const nameA = await guest(a, t.url);
  const nameB = await guest(b, t.url);
  const table = await hold(a, `
    send({ type: 'table', variant: 'keeps-moats', options: { GameType: arg.gameType, KingResult: 0 }, base_ms: 600000, inc_ms: 5000, move_limit: 200, seats: arg.seats });
    const m = await wait((m) => m.type === 'table_created' || m.type === 'error');
    if (m.type === 'error') throw new Error(m.error);
    return m.table;`, { seats: seatsA, gameType });
  const open = seatsA.map((s, i) => (s === 'open' ? i : -1)).filter((i) => i >= 0);
  const id = await hold(b, `
    for (const seat of arg.open) send({ type: 'sit', table: arg.table, seat });
    const m = await wait((m) => m.type === 'game' || m.type === 'error');
    if (m.type === 'error') throw new Error(m.error);
    return m.game.id;`, { table, open });
  await Promise.all([a.goto(`${t.url}/game/${id}`), b.goto(`${t.url}/game/${id}`)]);
  await Promise.all([a.locator('#km-kingdoms li').first().waitFor(), b.locator('#km-kingdoms li').first().waitFor()]);
  return { id, nameA, nameB };
}

/** Waits until `locator`'s text matches `re`; returns the text. */
export async function waitText(locator, re, what, timeoutMs = 15000) {
  const end = Date.now() + timeoutMs;
  let text = '';
  for (;;) {
    text = ((await locator.count()) ? await locator.first().innerText() : '') || '';
    if (re.test(text)) return text;
    if (Date.now() > end) throw new Error(`${what}: the page reads "${text.replace(/\s+/g, ' ').slice(0, 200)}", not ${re}`);
    await sleep(100);
  }
}

/** The text of the offers and buttons under the board's side: what a person reads there. */
export async function controlsText(page) {
  return page.locator('.play-controls').innerText();
}

/** The visible buttons' words on the game page's controls. */
export async function buttonWords(page) {
  return page.locator('.play-controls button:visible').allInnerTexts();
}

/** Checks that the board, this person's clock and the turn line lie inside
 *  the viewport at the top of the page, and nothing scrolls sideways. */
export async function fitsPhone(page, where) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await sleep(100);
  const r = await page.evaluate(() => {
    const box = (el) => {
      if (!el) return null;
      const b = el.getBoundingClientRect();
      return { top: b.top, bottom: b.bottom, left: b.left, right: b.right, width: b.width, height: b.height };
    };
    const mine = document.querySelector('.player-bar.mine');
    return {
      scrollWidth: document.documentElement.scrollWidth,
      vw: window.innerWidth,
      vh: window.innerHeight,
      board: box(document.querySelector('.board svg')),
      clock: box(mine && mine.querySelector('.clock')),
      status: box(document.querySelector('#game-status')),
    };
  });
  check(r.scrollWidth <= r.vw, `${where}: the page is ${r.scrollWidth}px wide on a ${r.vw}px screen`);
  for (const k of ['board', 'clock', 'status']) {
    const b = r[k];
    check(b && b.width > 0 && b.height > 0, `${where}: no ${k} on the page`);
    check(b.top >= 0 && b.left >= 0 && b.bottom <= r.vh + 0.5 && b.right <= r.vw + 0.5,
      `${where}: the ${k} is outside the ${r.vw}x${r.vh} screen: top ${Math.round(b.top)}, bottom ${Math.round(b.bottom)}, left ${Math.round(b.left)}, right ${Math.round(b.right)}`);
  }
  check(r.board.width >= 0.6 * r.vw || r.board.height >= 0.45 * r.vh, `${where}: the board is only ${Math.round(r.board.width)}x${Math.round(r.board.height)}`);
  return r;
}

/** Presses Resign and confirms it. */
export async function resign(page) {
  await page.click('#resign');
  await page.locator('#resign-question').waitFor();
  await page.click('#resign-yes');
}
