// tests/browser/learn-positions.mjs -- proves every Learn page right against
// the engine: each example and puzzle position is read by the server and the
// game is not over; each key move is legal and does exactly what the lesson's
// goal says (what it takes or surrounds, how the game ends, what it
// threatens, what stays safe); and no other move of a puzzle meets its goal,
// so a learner who finds a good move is never told it is wrong.
//
// `node tests/browser/learn-positions.mjs` starts its own server (the built
// build/release/citadel); with CITADEL_URL=http://127.0.0.1:PORT it uses that
// one. learn.test.mjs runs the same check as one of its tests.

import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { root, startServer } from './lib.mjs';

/** The lessons and the checking code, bundled from the page's own sources. */
async function loadLessons() {
  const out = await build({
    stdin: {
      contents: "export { LESSONS } from './lessons'; export { outcome, goalFailures, wants } from './check';" +
        " export { useEngine } from '../../../engine/read'; export { Engine } from '../../../engine/engine';",
      resolveDir: join(root, 'web', 'src', 'games', 'rampart', 'learn'),
      loader: 'ts',
    },
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    write: false,
    logLevel: 'warning',
  });
  const code = out.outputFiles[0].text;
  return import(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`);
}

/** Checks every lesson against the server at `url`; prints one line per
 *  scene and returns the lines of the failures ([] when all hold). */
export async function checkLessons(url, log = console.log) {
  const { LESSONS, outcome, goalFailures, wants, useEngine, Engine } = await loadLessons();
  // the page's readers of positions read through the games' engine (engine/read.ts)
  useEngine(await Engine.load(readFileSync(join(root, 'build', 'wasm', 'engine.wasm'))));
  const ask = async (position) => {
    const res = await fetch(`${url}/api/position`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ variant: 'rampart', position }) });
    const body = await res.json();
    if (!res.ok) throw new Error(`${position}: ${body.error}`);
    return body;
  };
  const failures = [];
  for (const lesson of LESSONS) {
    for (const kind of ['example', 'puzzle']) {
      const scene = lesson[kind];
      const name = `learn ${lesson.id} ${kind}`;
      const fails = [];
      try {
        const info = await ask(scene.position);
        if (info.result.over) fails.push(`the position is already over (${info.result.reason})`);
        for (const move of scene.answers) {
          const out = await outcome(ask, scene.position, move, wants(scene.goal));
          for (const f of goalFailures(scene.goal, scene.position, move, out)) fails.push(`${move} ${f}`);
        }
        if (kind === 'puzzle') {
          for (const { move } of info.legal) {
            if (scene.answers.includes(move)) continue;
            const out = await outcome(ask, scene.position, move, wants(scene.goal));
            if (!goalFailures(scene.goal, scene.position, move, out).length) fails.push(`${move} also solves it but is not an answer`);
          }
        }
      } catch (e) {
        fails.push(e.message);
      }
      if (fails.length) failures.push(`${name}: ${fails.join('; ')}`);
      log(fails.length ? `FAIL ${name}: ${fails.join('; ')}` : `ok ${name}`);
    }
  }
  return failures;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const server = process.env.CITADEL_URL ? { url: process.env.CITADEL_URL, stop: async () => {} } : await startServer();
  let failures;
  try {
    failures = await checkLessons(server.url);
  } finally {
    await server.stop();
  }
  if (failures.length) {
    console.log(`${failures.length} failed`);
    process.exit(1);
  }
}
