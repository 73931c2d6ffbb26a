// web/build.mjs -- builds the page into web/dist: web/src/main.ts bundled by
// esbuild into app.js, and web/index.html and web/static/* copied beside it.
// `node web/build.mjs` (or `npm run build`); the server serves web/dist.
import { build } from 'esbuild';
import { cpSync, mkdirSync, rmSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(fileURLToPath(import.meta.url));
const dist = join(root, 'dist');

rmSync(dist, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });
await build({
  entryPoints: [join(root, 'src', 'main.ts')],
  bundle: true,
  format: 'esm',
  target: ['es2020'],
  minify: true,
  sourcemap: true,
  outfile: join(dist, 'app.js'),
  logLevel: 'warning',
});
cpSync(join(root, 'index.html'), join(dist, 'index.html'));
if (existsSync(join(root, 'static')))
  cpSync(join(root, 'static'), join(dist, 'static'), { recursive: true });
console.log('web: built web/dist');
