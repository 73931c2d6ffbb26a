#!/usr/bin/env node
// tools/deps-web.mjs -- measures two promises of the page (web/src) from its
// own code: no circle of files in the import graph, and no comparison of a
// game's name outside the game registry (web/src/games).
//
//   node tools/deps-web.mjs        (from the repository's root)
//
// The import graph is esbuild's resolution of every import of every file
// (its metafile), type-only imports included: a file that needs another's
// types depends on it as much as one that calls it. Its strongly
// connected components (Tarjan) of more than one file are circles; each is
// printed. A game's name is a string literal naming a variant or family
// ('rampart', 'stratego-...', 'keeps-moats', 'keeps') compared with ===,
// !==, ==, !=, a switch's case or startsWith; every one outside web/src/games
// is printed. Exits 1 if there is any circle or any such comparison.
import { build } from 'esbuild';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { genTypes } from '../web/gen-types.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'web', 'src');
const rel = (p) => relative(root, resolve(root, p));

function walk(dir) {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? walk(p) : p.endsWith('.ts') ? [p] : [];
  });
}
await genTypes();  // web/src/gen/api.ts, which the page imports
const files = walk(src).filter((f) => !f.includes(`${join('web', 'src', 'gen')}`));

// --- the import graph: esbuild's resolution of every import, type-only
// imports included (they still say which file depends on which) ----------------
const out = await build({
  entryPoints: files,
  bundle: true,
  write: false,
  metafile: true,
  outdir: join(root, 'build', 'deps-web'),
  format: 'esm',
  logLevel: 'silent',
  plugins: [{
    name: 'keep-type-imports',
    setup(b) {
      // type-only imports are erased before esbuild resolves imports: each
      // file's every import or export `from '...'` is imported again bare,
      // which is kept, so that a dependency on types alone is counted too
      b.onLoad({ filter: /\.ts$/ }, (a) => {
        const text = readFileSync(a.path, 'utf8');
        const specs = [...text.matchAll(/^(?:import|export)\s[^;]*?\bfrom\s+'([^']+)'/gm)].map((m) => m[1]);
        return { contents: text + '\n' + specs.map((x) => `import '${x}';`).join('\n'), loader: 'ts' };
      });
    },
  }],
});
const graph = new Map();
for (const [file, info] of Object.entries(out.metafile.inputs)) {
  if (!file.startsWith('web/src/') && !rel(file).startsWith('web/src/')) continue;
  graph.set(rel(file), [...new Set(info.imports.map((i) => rel(i.path)).filter((p) => p.startsWith('web/src/')))]);
}

// Tarjan's strongly connected components
let index = 0;
const idx = new Map(), low = new Map(), onStack = new Set(), stack = [], sccs = [];
function strong(v) {
  idx.set(v, index); low.set(v, index); index++;
  stack.push(v); onStack.add(v);
  for (const w of graph.get(v) ?? []) {
    if (!idx.has(w)) { strong(w); low.set(v, Math.min(low.get(v), low.get(w))); }
    else if (onStack.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
  }
  if (low.get(v) === idx.get(v)) {
    const c = [];
    let w;
    do { w = stack.pop(); onStack.delete(w); c.push(w); } while (w !== v);
    if (c.length > 1) sccs.push(c.sort());
  }
}
for (const v of [...graph.keys()].sort()) if (!idx.has(v)) strong(v);
let edges = 0;
for (const t of graph.values()) edges += t.length;
console.log(`web/src: ${graph.size} files, ${edges} imports, ${sccs.length} circle(s) of files`);
for (const c of sccs) console.log(`  circle of ${c.length}: ${c.join(' ')}`);

// --- comparisons of a game's name outside web/src/games ------------------------
const NAME = String.raw`'(?:rampart|stratego|keeps)(?:-[a-z-]*)?'`;
const compare = new RegExp(String.raw`(?:[!=]==?\s*${NAME}|${NAME}\s*[!=]==?|case\s+${NAME}|startsWith\(\s*${NAME})`);
const found = [];
for (const f of files) {
  const r = rel(f);
  if (r.startsWith('web/src/games/')) continue;
  readFileSync(f, 'utf8').split('\n').forEach((line, i) => {
    if (compare.test(line)) found.push(`${r}:${i + 1}: ${line.trim()}`);
  });
}
console.log(`game-name comparisons outside web/src/games: ${found.length}`);
for (const x of found) console.log(`  ${x}`);
process.exit(sccs.length || found.length ? 1 : 0);
