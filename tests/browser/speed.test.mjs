// speed.test.mjs -- what a page costs before a person sees it (issue 47):
// the page's files come compressed, the games' engine is fetched only by a
// page that draws a board, and a page without one is drawn without
// waiting for it. Read from the network as the browser saw it.

import { test, run, check, trackApi, settle } from './lib.mjs';

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
  await forum.page.locator('[data-square]').first().waitFor();
  check(forum.seen.some((r) => isEngine(r.path)), 'the board was drawn without the engine');
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
