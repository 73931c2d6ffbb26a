// speed.test.mjs -- what a page costs before a person sees it (issue 47):
// the page's files come compressed, the games' engine is fetched only by a
// page that draws a board, a page without one is drawn without waiting for
// it, and a page with boards (a game, a review, analysis, a lesson) draws
// them from the server's reading of its positions while the engine is
// still on its way, the same squares the engine draws once it has come.
// Read from the network as the browser saw it.

import { test, run, check, trackApi, settle, signUpAs } from './lib.mjs';

/** A new page whose responses are kept: URL path, status, headers. */
async function watched(t) {
  const page = trackApi(await t.newPage());
  const seen = [];
  page.on('response', (r) => {
    seen.push({ path: new URL(r.url()).pathname, status: r.status(), headers: r.headers() });
  });
  return { page, seen };
}

const isEngine = (p) => /^\/engine\.[0-9a-f]{8,}\.wasm$/.test(p);

test('engine-only-where-a-board-is', async (t) => {
  // the forum, a page of words: drawn, and no engine fetched
  const forum = await watched(t);
  await forum.page.goto(t.url + '/forum');
  await forum.page.getByRole('heading', { level: 1 }).waitFor();
  await settle(forum.page);
  check(!forum.seen.some((r) => isEngine(r.path)), 'the forum fetched the games\' engine, which it does not use');
  const signin = await watched(t);
  await signin.page.goto(t.url + '/signin');
  await signin.page.getByRole('heading', { name: 'Sign in' }).waitFor();
  await settle(signin.page);
  check(!signin.seen.some((r) => isEngine(r.path)), 'the sign-in page fetched the games\' engine');

  // the analysis board needs it: fetched once, compressed, and the board drawn
  const board = await watched(t);
  await board.page.goto(t.url + '/analysis/rampart');
  await board.page.locator('[data-square]').first().waitFor();
  await settle(board.page);
  const engines = board.seen.filter((r) => isEngine(r.path));
  check(engines.length === 1, `the analysis page fetched the engine ${engines.length} times`);
  const coding = engines[0].headers['content-encoding'];
  check(coding === 'br' || coding === 'gzip', `the engine came uncompressed (content-encoding: ${coding})`);
  check((engines[0].headers['content-type'] || '').startsWith('application/wasm'),
    `the engine came as ${engines[0].headers['content-type']}, so it cannot compile while it streams`);

  // going from a page without the engine to one with it loads it then
  await forum.page.evaluate(() => {
    history.pushState(null, '', '/analysis/rampart');
    dispatchEvent(new PopStateEvent('popstate'));
  });
  await forum.page.locator('#an-eval', { hasText: /^Depth/ }).waitFor();
  check(forum.seen.some((r) => isEngine(r.path)), 'the analysis ran without fetching the engine');
});

/** Every square's accessible name on the page's board, in order, without
 *  what the engine adds once it has come: the analysis's hint marks, and
 *  which pieces can move (legal moves are the engine's). */
const squareNames = (page) => page.$$eval('[data-square]', (els) =>
  els.map((e) => (e.getAttribute('aria-label') || e.dataset.square).replace(/(, hint|, can move)+$/, '')));

test('boards-before-the-engine', async (t) => {
  // a game of a person's against a bot, and a finished one, to look at
  const owner = trackApi(await t.newPage());
  const name = `early${String(Date.now()).slice(-6)}`;
  await owner.goto(t.url + '/');
  await signUpAs(owner, t.url, name);
  const made = await owner.request.post(`${t.url}/api/account/tokens`, { data: { scopes: ['board:play', 'challenge:write'], description: 'speed' } });
  const auth = { Authorization: `Bearer ${(await made.json()).token}` };
  const start = async () => (await (await owner.request.post(`${t.url}/api/challenge/bot-level1`,
    { headers: auth, data: { variant: 'rampart', clock: { limit: 600, increment: 0 } } })).json()).game;
  const live = await start();
  const done = await start();
  check((await owner.request.post(`${t.url}/api/board/game/${done}/resign`, { headers: auth })).ok(), 'resigning the second game');

  const pages = [[`/game/${live}`, 24], [`/game/${done}`, 24], [`/review/${done}`, 24], ['/analysis/rampart', 24],
    ['/analysis/stratego', 80], ['/learn/queen', null]];
  for (const [path, pieces] of pages) {
    // the engine held back until the board has been looked at
    const { page, seen } = await watched(t);
    let release;
    const held = new Promise((r) => (release = r));
    await page.route(/\/engine\.[0-9a-f]+\.wasm$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(t.url + path);
    await page.locator('[data-square]').first().waitFor();
    const before = await squareNames(page);
    const drawn = await page.locator('[data-piece]').count();
    check(!seen.some((r) => isEngine(r.path)), `${path}: the engine came before the board was looked at`);
    check(seen.some((r) => r.path === '/api/read' && r.status === 200), `${path}: the board was not drawn from the server's reading`);
    if (pieces) check(drawn === pieces, `${path}: ${drawn} pieces drawn before the engine came, want ${pieces}`);
    else check(drawn > 0, `${path}: no piece drawn before the engine came`);
    // once it comes, the page goes on, and the engine reads the same squares
    release();
    await page.waitForFunction(() => performance.getEntriesByType('resource').some((e) => /engine\.[0-9a-f]+\.wasm$/.test(e.name)));
    await settle(page);
    await page.close();
    if (path === `/game/${live}`) continue;  // its position moves on as the bot plays
    // the same page drawn by the engine alone (the server's reading refused)
    const fresh = trackApi(await t.newPage());
    await fresh.route(/\/api\/read$/, (route) => route.abort());
    await fresh.goto(t.url + path);
    await fresh.locator('[data-square]').first().waitFor();
    await fresh.waitForFunction(() => performance.getEntriesByType('resource').some((e) => /engine\.[0-9a-f]+\.wasm$/.test(e.name)));
    await settle(fresh);
    const after = await squareNames(fresh);
    const differ = before.map((b, i) => [b, after[i]]).filter(([b, a]) => b !== a);
    check(before.length === after.length && !differ.length,
      `${path}: the board drawn before the engine differs from the engine's: ${JSON.stringify(differ.slice(0, 3))} (${before.length} and ${after.length} squares)`);
    await fresh.close();
  }
});

test('page-files-come-compressed', async (t) => {
  const { page, seen } = await watched(t);
  await page.goto(t.url + '/');
  await page.locator('#new-game').waitFor();
  await settle(page);
  const files = seen.filter((r) => /\.(js|css)$/.test(r.path) || r.path === '/');
  check(files.length >= 3, `the start page loaded ${files.length} files: ${files.map((f) => f.path).join(', ')}`);
  for (const f of files) {
    const coding = f.headers['content-encoding'];
    check(coding === 'br' || coding === 'gzip', `${f.path} came uncompressed (content-encoding: ${coding})`);
    check(/accept-encoding/i.test(f.headers.vary || ''), `${f.path} does not say it varies by Accept-Encoding`);
  }
});

await run();
