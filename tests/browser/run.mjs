// run.mjs -- runs every tests/browser/*.test.mjs in turn (each starts its own
// server and browser); exits non-zero if any of them failed.

import { readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
let failed = 0;
for (const f of readdirSync(here).filter((f) => f.endsWith('.test.mjs')).sort()) {
  if (only.length && !only.some((o) => f.includes(o))) continue;
  const r = spawnSync(process.execPath, [join(here, f)], { stdio: 'inherit', timeout: 180000 });
  if (r.status !== 0) {
    failed++;
    if (r.signal) console.log(`FAIL ${f}: stopped by ${r.signal}`);
  }
}
process.exit(failed ? 1 : 0);
