// tests/browser/lib.mjs -- what every browser test shares: the real server
// on a free loopback port with a throwaway database, headless Chromium, and a
// tiny registry that prints one line per test (`ok NAME` or `FAIL NAME: why`),
// saves a screenshot of each step to build/screenshots/, and exits non-zero
// when any test failed.

import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

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

/** Starts `citadel serve` on a free port; resolves to {url, stop()}. The
 *  binary may be being rebuilt at this moment: a failed start is retried. */
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
    const proc = spawn(bin, ['serve', '--listen', `127.0.0.1:${port}`, '--db', join(dir, `db${attempt}.sqlite`),
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

export async function launchBrowser() {
  return chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox'] });
}

const tests = [];

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
    for (const t of tests) console.log(`FAIL ${t.name}: ${e.message}`);
    await server?.stop();
    process.exit(1);
  }
  for (const t of tests) {
    const contexts = [];
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
      console.log(`ok ${t.name}`);
    } catch (e) {
      failed++;
      console.log(`FAIL ${t.name}: ${String(e && e.message || e).split('\n')[0]}`);
    }
    for (const c of contexts) await c.close().catch(() => {});
  }
  await browser.close().catch(() => {});
  await server.stop();
  if (failed) process.exit(1);
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
