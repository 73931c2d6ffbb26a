// axe.mjs -- axe-core (npm) run on a page as it stands, for the browser
// tests that audit pages (audit.solo.test.mjs, settings.test.mjs).

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './lib.mjs';

let source = null;

/** axe-core's violations on the page, each as "id (nodes: the first's selector)". */
export async function axeViolations(page) {
  source ??= readFileSync(join(root, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');
  await page.evaluate(source);  // through the debugger: the page's policy allows no inline script
  return page.evaluate(async () => (await window.axe.run(document, { resultTypes: ['violations'] }))
    .violations.map((v) => `${v.id} (${v.nodes.length}: ${v.nodes[0]?.target?.join(' ')})`));
}
