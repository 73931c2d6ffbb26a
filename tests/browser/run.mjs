// run.mjs -- runs every tests/browser/*.test.mjs in turn (each starts its own
// server and browser) and prints their results as one TAP stream, the format
// of every tier of tests/run.sh: each file's `ok`/`not ok` lines numbered on
// from the last, anything else they print as `# ` lines, a file that died
// without saying why as a failure of its own, and the plan at the end.
// Exits non-zero if any of them failed.
//
//   node tests/browser/run.mjs [PART-OF-A-FILE-NAME...]

import { readdirSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
const TIMEOUT_MS = 180000;
let count = 0, failed = 0;

/** Runs one test file, its TAP lines renumbered into ours; resolves when it ends. */
function runFile(f) {
  return new Promise((resolve) => {
    const began = Date.now();
    const child = spawn(process.execPath, [join(here, f)], { stdio: ['ignore', 'pipe', 'inherit'] });
    const timer = setTimeout(() => child.kill('SIGTERM'), TIMEOUT_MS);
    let bad = 0;
    createInterface({ input: child.stdout }).on('line', (line) => {
      const m = /^(ok|not ok)\s+\d*\s*(?:-\s*)?(.*)$/.exec(line);
      if (m) {
        if (m[1] === 'not ok') bad++;
        console.log(`${m[1]} ${++count} - ${m[2]}`);
      } else if (!/^1\.\.\d+/.test(line)) {
        console.log(line.startsWith('#') ? line : `# ${line}`);
      }
    });
    child.on('close', (status, signal) => {
      clearTimeout(timer);
      console.log(`# took ${Math.round((Date.now() - began) / 1000)}s: ${f}`);
      if (bad) failed++;
      if ((status !== 0 || signal) && !bad) {
        failed++;
        console.log(`not ok ${++count} - ${f}\n# ${signal ? `stopped by ${signal}` : `exit status ${status}`}`);
      }
      resolve();
    });
  });
}

for (const f of readdirSync(here).filter((f) => f.endsWith('.test.mjs')).sort()) {
  if (only.length && !only.some((o) => f.includes(o))) continue;
  await runFile(f);
}
console.log(`1..${count}`);
process.exit(failed ? 1 : 0);
