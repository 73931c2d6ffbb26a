// audit.solo.test.mjs -- the outside audits of issue 47, on the pages a
// newcomer meets first: Lighthouse (mobile defaults: a mid-range phone on
// a slow 4G line, simulated) and axe-core, each page held to the budgets
// below. Run alone, after every other browser test (run.mjs runs
// *.solo.test.mjs files one at a time, last), since scores move with the
// machine's load.
//
// How the check stays steady: Lighthouse's timings are simulated from
// what the page loads and runs, so they move little with the machine,
// and each page is audited three times and judged by the median run; the
// bytes and requests a page needs are the same on any machine, and have
// budgets of their own. axe-core's findings do not depend on speed at all.
//
// The pages with boards (a live game, a finished game's review, analysis
// for each game, Learn) draw their boards from the server's reading while
// the games' engine (engine.wasm) arrives after the first paint: they are
// held to the same budgets, their bytes less the engine's.
//
//   node tests/browser/run.mjs audit      (the audits alone)

import lighthouse from 'lighthouse';
import * as chromeLauncher from 'chrome-launcher';
import { test, run, check, signUpAs, trackApi, settle } from './lib.mjs';
import { axeViolations } from './axe.mjs';

const BUDGET = { performance: 95, lcpMs: 2500, cls: 0.05, accessibility: 100 };
/** What a page without boards may load, on any machine: its files and answers. */
const BYTES_MAX = 160 * 1024, REQUESTS_MAX = 16;
const isEngine = (url) => /\/engine\.[0-9a-f]+\.wasm$/.test(new URL(url).pathname);
const RUNS = 3;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Lighthouse, RUNS times on url; the median run's figures. */
async function audit(port, url) {
  const runs = [];
  for (let i = 0; i < RUNS; i++) {
    const r = await lighthouse(url, { port, output: 'json', logLevel: 'error',
      onlyCategories: ['performance', 'accessibility'] });
    const lhr = r.lhr;
    if (lhr.runtimeError) throw new Error(`Lighthouse on ${url}: ${lhr.runtimeError.message}`);
    const a = lhr.audits;
    runs.push({
      performance: Math.round(lhr.categories.performance.score * 100),
      accessibility: Math.round(lhr.categories.accessibility.score * 100),
      lcpMs: a['largest-contentful-paint'].numericValue,
      cls: a['cumulative-layout-shift'].numericValue,
      // the engine, fetched once the page is drawn, counted apart
      bytes: a['network-requests'].details.items.filter((r) => !isEngine(r.url)).reduce((n, r) => n + (r.transferSize || 0), 0),
      requests: a['network-requests'].details.items.filter((r) => !isEngine(r.url)).length,
    });
  }
  const perf = median(runs.map((r) => r.performance));
  return { ...runs.find((r) => r.performance === perf), runs };
}

test('audits-of-the-first-pages', async (t) => {
  // a person, a thread of theirs, for the pages that need them
  const page = trackApi(await t.newPage());
  const name = `audit${String(Date.now()).slice(-6)}`;
  await page.goto(t.url + '/');
  await signUpAs(page, t.url, name);
  const cats = await (await page.request.get(`${t.url}/api/forum`)).json();
  const made = await page.request.post(`${t.url}/api/forum/${cats.categories[0].name}`, {
    data: { title: 'Where do I start?', body: 'Hello all: which game should a newcomer try first, and why?' },
  });
  check(made.ok(), `posting a thread: ${made.status()}`);
  const { thread } = await made.json();
  // a game of theirs against a bot, live, and a finished one to review
  const made2 = await page.request.post(`${t.url}/api/account/tokens`,
    { data: { scopes: ['board:play', 'challenge:write'], description: 'audit' } });
  const auth = { Authorization: `Bearer ${(await made2.json()).token}` };
  const start = async () => (await (await page.request.post(`${t.url}/api/challenge/bot-level1`,
    { headers: auth, data: { variant: 'rampart', clock: { limit: 1800, increment: 0 } } })).json()).game;
  const live = await start();
  const done = await start();
  check((await page.request.post(`${t.url}/api/board/game/${done}/resign`, { headers: auth })).ok(), 'resigning a game');
  // and a live game of Keeps & Moats, for axe-core (a person plays two bot games at most)
  const other = async (variant) => {
    // the resigned game counts until its end is stored: asked again a moment later
    for (let tries = 0; ; tries++) {
      const r = await page.request.post(`${t.url}/api/challenge/bot-random`, { headers: auth, data: { variant } });
      const a = await r.json();
      if (r.ok()) return a.game;
      check(tries < 20 && /already plays/.test(a.error ?? ''), `a ${variant} game against bot-random: ${r.status()} ${JSON.stringify(a)}`);
      await new Promise((done) => setTimeout(done, 250));
    }
  };
  const liveKeeps = await other('keeps-moats');
  const pages = ['/', '/forum', `/forum/thread/${thread}`, `/players/${name}`, '/signup', '/signin',
    `/game/${live}`, `/review/${done}`, '/analysis/rampart', '/analysis/stratego', '/analysis/keeps-moats', '/learn'];

  // axe-core, as the person sees each page (signed in): those above, and
  // the help pages' boards
  const boards = [`/game/${live}`, `/review/${done}`, '/analysis/rampart', '/analysis/stratego', '/analysis/keeps-moats',
    '/stratego/help', '/keeps/help', `/game/${liveKeeps}`];
  const axeFailures = [];
  for (const p of [...pages, '/stratego/help', '/keeps/help', `/game/${liveKeeps}`]) {
    await settle(page);
    await page.goto(t.url + p);
    await page.locator('h1').first().waitFor();
    await settle(page);
    if (boards.includes(p)) await page.locator('[data-square]').first().waitFor();
    const v = await axeViolations(page);
    if (v.length) axeFailures.push(`${p}: ${v.join(', ')}`);
  }
  // the analysis board's editor, open
  await page.goto(t.url + '/analysis/rampart');
  await page.locator('#an-eval', { hasText: /^Depth/ }).waitFor();
  await page.locator('#an-edit').click();
  await page.locator('#an-editor:not([hidden])').waitFor();
  const inEditor = await axeViolations(page);
  if (inEditor.length) axeFailures.push(`the analysis editor: ${inEditor.join(', ')}`);
  await settle(page);

  // Lighthouse, as a visitor arriving (no session)
  const chrome = await chromeLauncher.launch({ chromePath: '/usr/bin/chromium',
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu'] });
  const over = [];
  const lines = [];
  try {
    for (const p of pages) {
      const r = await audit(chrome.port, t.url + p);
      lines.push(`${p}: performance ${r.performance} (runs ${r.runs.map((x) => x.performance).join(' ')}), ` +
        `LCP ${(r.lcpMs / 1000).toFixed(2)} s, CLS ${r.cls.toFixed(3)}, accessibility ${r.accessibility}, ` +
        `${Math.round(r.bytes / 1024)} KiB in ${r.requests} requests`);
      if (r.performance < BUDGET.performance) over.push(`${p}: performance ${r.performance} < ${BUDGET.performance}`);
      if (r.lcpMs > BUDGET.lcpMs) over.push(`${p}: largest paint ${Math.round(r.lcpMs)} ms > ${BUDGET.lcpMs}`);
      if (r.cls > BUDGET.cls) over.push(`${p}: layout shift ${r.cls.toFixed(3)} > ${BUDGET.cls}`);
      if (r.accessibility < BUDGET.accessibility) over.push(`${p}: accessibility ${r.accessibility}`);
      if (r.bytes > BYTES_MAX) over.push(`${p}: ${Math.round(r.bytes / 1024)} KiB > ${BYTES_MAX / 1024}`);
      if (r.requests > REQUESTS_MAX) over.push(`${p}: ${r.requests} requests > ${REQUESTS_MAX}`);
    }
  } finally {
    await chrome.kill();
  }
  for (const l of lines) console.log(`# ${l}`);
  check(!axeFailures.length, `axe-core found violations: ${axeFailures.join('; ')}`);
  check(!over.length, `over budget: ${over.join('; ')}`);
});

await run();
