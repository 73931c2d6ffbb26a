// run.mjs -- runs every tests/browser/*.test.mjs in turn (each starts its own
// server and browser) and prints their results as one TAP stream, the format
// of every tier of tests/run.sh: each file's `ok`/`not ok` lines numbered on
// from the last, anything else they print as `# ` lines, a file that died
// without saying why as a failure of its own, and the plan at the end.
// Exits non-zero if any of them failed. Files named *.solo.test.mjs run
// last, alone.
//
//   node tests/browser/run.mjs [PART-OF-A-FILE-NAME...]
//
// BROWSER_JOBS (default 2): how many files run at once.

import { readdirSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
const TIMEOUT_MS = 180000, SOLO_TIMEOUT_MS = 600000;
let count = 0, failed = 0;

/** Runs one test file; resolves, when it ends, with what it printed: its
 * TAP results ({ ok, name }), its other lines, and how it ended. */
function runFile(f) {
  return new Promise((resolve) => {
    const began = Date.now();
    const child = spawn(process.execPath, [join(here, f)], { stdio: ['ignore', 'pipe', 'inherit'] });
    const timer = setTimeout(() => child.kill('SIGTERM'), f.endsWith('.solo.test.mjs') ? SOLO_TIMEOUT_MS : TIMEOUT_MS);
    const lines = [];
    createInterface({ input: child.stdout }).on('line', (line) => {
      const m = /^(ok|not ok)\s+\d*\s*(?:-\s*)?(.*)$/.exec(line);
      if (m) lines.push({ ok: m[1] === 'ok', name: m[2] });
      else if (!/^1\.\.\d+/.test(line)) lines.push(line.startsWith('#') ? line : `# ${line}`);
    });
    child.on('close', (status, signal) => {
      clearTimeout(timer);
      const seconds = Math.round((Date.now() - began) / 1000);
      resolve({ f, lines, seconds, died: status !== 0 || signal ? (signal ? `stopped by ${signal}` : `exit status ${status}`) : '' });
    });
  });
}

/** Prints one file's results, numbered on from the last. */
function report({ f, lines, seconds, died }) {
  let bad = 0;
  for (const l of lines) {
    if (typeof l === 'string') {
      console.log(l);
    } else {
      if (!l.ok) bad++;
      console.log(`${l.ok ? 'ok' : 'not ok'} ${++count} - ${l.name}`);
    }
  }
  console.log(`# took ${seconds}s: ${f}`);
  if (bad) failed++;
  if (died && !bad) {
    failed++;
    console.log(`not ok ${++count} - ${f}\n# ${died}`);
  }
}

// The files run JOBS at a time (each has its own server, database and
// browser); each one's results are printed whole, in the files' order.
// Files named *.solo.test.mjs (audits whose scores move with the machine's
// load) run after all the others, one at a time.
const chosen = readdirSync(here).filter((f) => f.endsWith('.test.mjs')).sort()
  .filter((f) => !only.length || only.some((o) => f.includes(o)));
const files = chosen.filter((f) => !f.endsWith('.solo.test.mjs'));
const solo = chosen.filter((f) => f.endsWith('.solo.test.mjs'));
const jobs = Math.max(1, Number(process.env.BROWSER_JOBS) || 2);
const running = [];
let next = 0;
for (let i = 0; i < files.length; i++) {
  while (next < files.length && next < i + jobs) running.push(runFile(files[next++]));
  report(await running[i]);
}
for (const f of solo) report(await runFile(f));
console.log(`1..${count}`);
process.exit(failed ? 1 : 0);
