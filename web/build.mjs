// web/build.mjs -- builds the page into web/dist: the message types generated
// from docs/api.schema.json (gen-types.mjs), web/src/main.ts bundled by
// esbuild, the engines as WebAssembly (`make wasm`) and their Web Worker,
// web/static/* copied, and web/index.html rewritten to name them.
// `node web/build.mjs` (or `npm run build`); the server serves web/dist.
//
// Every file but index.html carries a hash of its content in its name
// (app.3f9a61c0.js, static/style.0c1d2e3f.css), so the server lets browsers
// keep it for good, and a new build is seen at once because index.html,
// which is checked again on every visit, names the new files. No source map
// is built into dist: it would publish the whole source to every visitor.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, extname, join } from 'node:path';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { genTypes } from './gen-types.mjs';

const root = dirname(fileURLToPath(import.meta.url));
const dist = join(root, 'dist');

const hashed = (name, bytes) => {
  const h = createHash('sha256').update(bytes).digest('hex').slice(0, 10);
  const ext = extname(name);
  return `${name.slice(0, name.length - ext.length)}.${h}${ext}`;
};

await genTypes();  // web/src/gen/api.ts, from docs/api.schema.json
rmSync(dist, { recursive: true, force: true });
mkdirSync(join(dist, 'static'), { recursive: true });
// The engines as WebAssembly (docs/wasm.md), made by the Makefile, and the
// Web Worker that searches with them; the page learns their hashed names
// at build time (ENGINE_WASM_URL, ENGINE_WORKER_URL).
execFileSync('make', ['-s', '-C', join(root, '..'), 'build/wasm/engine.wasm'], { stdio: 'inherit' });
const wasm = readFileSync(join(root, '..', 'build', 'wasm', 'engine.wasm'));
const wasmName = hashed('engine.wasm', wasm);
writeFileSync(join(dist, wasmName), wasm);
const bundle = async (entry, outfile, define = {}) => {
  const out = await build({
    entryPoints: [join(root, 'src', ...entry)],
    bundle: true,
    format: 'esm',
    target: ['es2020'],
    minify: true,
    write: false,
    outfile,
    define,
    logLevel: 'warning',
  });
  return out.outputFiles[0].contents;
};
const worker = await bundle(['engine', 'worker.ts'], 'worker.js');
const workerName = hashed('worker.js', worker);
writeFileSync(join(dist, workerName), worker);
const app = await bundle(['main.ts'], 'app.js', {
  ENGINE_WASM_URL: JSON.stringify('/' + wasmName),
  ENGINE_WORKER_URL: JSON.stringify('/' + workerName),
});
const names = { '/app.js': '/' + hashed('app.js', app) };
writeFileSync(join(dist, names['/app.js']), app);
for (const f of readdirSync(join(root, 'static'))) {
  const bytes = readFileSync(join(root, 'static', f));
  const name = hashed(f, bytes);
  names[`/static/${f}`] = `/static/${name}`;
  writeFileSync(join(dist, 'static', name), bytes);
}
let html = readFileSync(join(root, 'index.html'), 'utf8');
html = html.replace(/(src|href)="(\/[^"]+)"/g, (all, attr, path) =>
  names[path] ? `${attr}="${names[path]}"` : all);
writeFileSync(join(dist, 'index.html'), html);

// Every file a browser may take compressed gets its brotli (NAME.br) and
// gzip (NAME.gz) copies beside it, made once here at the strongest
// settings; the server sends the one the browser's Accept-Encoding names
// (src/server/net/net_static.c). Files already compressed (images, sound)
// and small ones are left alone.
const compressible = new Set(['.html', '.js', '.css', '.svg', '.wasm', '.json', '.txt', '.webmanifest']);
const compressAll = (dir) => {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, e.name);
    if (e.isDirectory()) {
      compressAll(path);
      continue;
    }
    if (!compressible.has(extname(e.name))) continue;
    const bytes = readFileSync(path);
    if (bytes.length < 1024) continue;
    writeFileSync(path + '.br', brotliCompressSync(bytes, {
      params: {
        [zlibConstants.BROTLI_PARAM_QUALITY]: zlibConstants.BROTLI_MAX_QUALITY,
        [zlibConstants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      },
    }));
    writeFileSync(path + '.gz', gzipSync(bytes, { level: 9 }));
  }
};
compressAll(dist);
console.log(`web: built web/dist (${names['/app.js'].slice(1)})`);
