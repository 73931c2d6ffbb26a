// tests/browser/lib.mjs -- what every browser test shares: the real server
// on a free loopback port with a throwaway database, headless Chromium, and a
// tiny registry that prints TAP, as every tier of tests/run.sh does (one
// `ok N - NAME` or `not ok N - NAME` line per test, why as a `# ` line, and
// the plan), saves a screenshot of each step to build/screenshots/, and
// exits non-zero when any test failed.

import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { contract } from './contract.mjs';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const shots = join(root, 'build', 'screenshots');

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Starts `citadel serve` on a free port; resolves to {url, db, stop()}
 *  (db: its database file, for `citadel admin`). The binary may be being
 *  rebuilt at this moment: a failed start is retried. */
export async function startServer() {
  const bin = join(root, 'build', 'release', 'citadel');
  const dir = mkdtempSync(join(tmpdir(), 'citadel-browser-'));
  let lastErr = '';
  for (let attempt = 0; attempt < 5; attempt++) {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    if (!existsSync(bin)) {
      lastErr = `${bin} is missing`;
      await sleep(1000);
      continue;
    }
    const db = join(dir, `db${attempt}.sqlite`);
    const proc = spawn(bin, ['serve', '--listen', `127.0.0.1:${port}`, '--db', db,
      '--web', join(root, 'web', 'dist'), '--abandon-ms', '60000'], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    proc.stderr.on('data', (d) => { stderr += d; });
    let exited = false;
    proc.on('exit', () => { exited = true; });
    for (let i = 0; i < 100 && !exited; i++) {
      try {
        const r = await fetch(`${url}/api/health`);
        if (r.ok) {
          return {
            url,
            db,
            async stop() {
              if (!exited) {
                proc.kill('SIGTERM');
                for (let k = 0; k < 30 && !exited; k++) await sleep(100);
                if (!exited) proc.kill('SIGKILL');
              }
              rmSync(dir, { recursive: true, force: true });
            },
          };
        }
      } catch {
        // not listening yet
      }
      await sleep(100);
    }
    lastErr = exited ? `server exited: ${stderr.trim().split('\n').pop()}` : 'server did not answer /api/health';
    if (!exited) proc.kill('SIGKILL');
    await sleep(500);
  }
  rmSync(dir, { recursive: true, force: true });
  throw new Error(`cannot start the server: ${lastErr}`);
}

/** `citadel admin grant NAME ROLE --db` on the test server's database: makes
 *  an account a moderator or an admin while the server runs. */
export function grant(server, name, role) {
  const r = spawnSync(join(root, 'build', 'release', 'citadel'), ['admin', 'grant', name, role, '--db', server.db], { encoding: 'utf8', timeout: 20000 });
  if (r.status !== 0) throw new Error(`citadel admin grant ${name} ${role}: ${(r.stderr || r.stdout || '').trim().split('\n').pop()}`);
}

export async function launchBrowser() {
  return chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox'] });
}

const tests = [];
const schema = contract(root);

/** Registers a test: fn(t) gets t.shot(page, step) and t.server / t.browser. */
export function test(name, fn) {
  tests.push({ name, fn });
}

/** Fails with a message unless cond holds. */
export function check(cond, message) {
  if (!cond) throw new Error(message);
}

/** Runs every registered test against one server and browser; exits 1 if any failed. */
export async function run() {
  mkdirSync(shots, { recursive: true });
  let failed = 0;
  let server, browser;
  try {
    server = await startServer();
    browser = await launchBrowser();
  } catch (e) {
    for (const [i, t] of tests.entries()) console.log(`not ok ${i + 1} - ${t.name}\n# ${e.message}`);
    console.log(`1..${tests.length}`);
    await server?.stop();
    process.exit(1);
  }
  for (const [i, t] of tests.entries()) {
    const contexts = [];
    const broken = [];  // messages against docs/api.schema.json (contract.mjs)
    const ctx = {
      server,
      browser,
      url: server.url,
      /** A fresh browser context (its own cookies: another person) and page. */
      async newPage(viewport = { width: 1100, height: 900 }) {
        const c = await browser.newContext({ viewport });
        contexts.push(c);
        const page = await c.newPage();
        page.setDefaultTimeout(15000);
        // every message of the page's socket, both ways (web/src/ws.ts's
        // hook), and every /api/ answer it reads, against the schema
        await page.exposeFunction('__citadelWire', (kind, text) => {
          const bad = schema.message(kind, text);
          if (bad) broken.push(bad);
        });
        page.on('response', async (r) => {
          const u = new URL(r.url());
          if (!u.pathname.startsWith('/api/')) return;
          const ct = r.headers()['content-type'] || '';
          let body = null;
          if (ct.startsWith('application/json')) {
            body = await r.json().catch(() => undefined);
            if (body === undefined) return;  // the page went on before the body came: unread
          }
          const bad = schema.answer(r.request().method(), u.pathname, r.status(), ct, body);
          if (bad) broken.push(bad);
        });
        page.on('pageerror', (err) => console.error(`  [${t.name}] page error: ${err.message}`));
        return page;
      },
      async shot(page, step) {
        const safe = `${t.name}-${step}`.replace(/[^A-Za-z0-9_.-]+/g, '_');
        await page.screenshot({ path: join(shots, `${safe}.png`) }).catch(() => {});
      },
    };
    try {
      await t.fn(ctx);
      if (broken.length) {
        throw new Error(`${broken.length} messages not as docs/api.schema.json says; the first: ${broken[0]}`);
      }
      console.log(`ok ${i + 1} - ${t.name}`);
    } catch (e) {
      failed++;
      // the first line, and what playwright was waiting for when it gave up
      const lines = String(e && e.message || e).split('\n');
      const waiting = lines.find((l) => /waiting for /.test(l));
      console.log(`not ok ${i + 1} - ${t.name}\n# ${lines[0]}${waiting ? ` (${waiting.trim()})` : ''}`);
      for (const [k, c] of contexts.entries()) {
        for (const [j, p] of c.pages().entries()) await ctx.shot(p, `failed-${k}-${j}`);
      }
    }
    for (const c of contexts) await c.close().catch(() => {});
  }
  await browser.close().catch(() => {});
  await server.stop();
  console.log(`1..${tests.length}`);
  if (failed) process.exit(1);
}

/** Waits until the page has its session: the header names who the visitor
 *  is. A socket a test opens on the page before then would make a guest of
 *  its own, and the page's cookie, set later, another (the page itself
 *  waits for /api/me before it connects, web/src/main.ts). */
export async function hasSession(page) {
  await page.locator('#who .who-name').first().waitFor();
}

/** The board's square element (its <g data-square>) as a locator. */
export function square(page, name, within = 'body') {
  return page.locator(`${within} [data-square="${name}"]`).first();
}

/** Clicks the middle of a square, as a person would. */
export async function clickSquare(page, name, within = 'body') {
  const box = await square(page, name, within).boundingBox();
  if (!box) throw new Error(`square ${name} is not on screen`);
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
}

/** Reads the page's legal moves from the server for the shown game: the move
 *  list the board was given, found through the target marks, is not exposed,
 *  so tests ask /api/games/ID (the player's own view comes from the socket). */
export async function gameState(page, url, id) {
  const r = await page.request.get(`${url}/api/games/${id}`);
  return r.json();
}

export { sleep };

/** Fails if the page shows words no person should read: "undefined",
 *  "null", "NaN" or "[object Object]" anywhere in its visible text. */
export async function checkReadable(page, where) {
  const text = await page.evaluate(() => document.body.innerText);
  const bad = text.match(/\bundefined\b|\bnull\b|\bNaN\b|\[object Object\]/);
  if (bad) throw new Error(`${where}: the page shows "${bad[0]}" in "${text.slice(Math.max(0, bad.index - 60), bad.index + 40).replace(/\s+/g, ' ')}"`);
  return text;
}

/** Fails if the page is wider than its viewport (sideways scrolling). */
export async function checkFits(page, where) {
  const { sw, w } = await page.evaluate(() => ({ sw: document.documentElement.scrollWidth, w: window.innerWidth }));
  if (sw > w) throw new Error(`${where}: the page is ${sw} px wide in a ${w} px window`);
}

/** Signs a page up as `name` through the header's "Sign up" link. */
export async function signUpAs(page, url, name, password = 'correct horse battery') {
  if (!page.url().startsWith(url)) await page.goto(url + '/');
  await page.locator('.who').getByRole('link', { name: 'Sign up' }).click();
  await page.fill('#auth-name', name);
  await page.fill('#auth-pass', password);
  await page.click('button[type=submit]');
  await page.locator('.who').getByText(name).waitFor();
}

const pending = new WeakMap();
/** Counts the page's /api/ requests under way, for settle(); call it at
 *  once after t.newPage(). */
export function trackApi(page) {
  if (pending.has(page)) return page;
  const state = { n: 0, last: Date.now() };
  pending.set(page, state);
  const isApi = (r) => new URL(r.url()).pathname.startsWith('/api/');
  page.on('request', (r) => { if (isApi(r)) { state.n++; state.last = Date.now(); } });
  const done = (r) => { if (isApi(r)) { state.n = Math.max(0, state.n - 1); state.last = Date.now(); } };
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  return page;
}

/** Resolves once a tracked page has had no /api/ request under way for
 *  `quiet` ms, so leaving it (page.goto) cuts no answer short: an answer cut
 *  short cannot be read, and the contract check counts it as broken. */
export async function settle(page, quiet = 600, timeoutMs = 10000) {
  const state = pending.get(trackApi(page));
  const end = Date.now() + timeoutMs;
  while (Date.now() < end && (state.n > 0 || Date.now() - state.last < quiet)) await sleep(50);
}
