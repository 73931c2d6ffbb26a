// worker.ts -- the analyser's Web Worker (load.ts): an engine of its own,
// searching one position deeper and deeper, and posting what each depth
// found. It is ended (terminate) when its position is no longer wanted.

import { Engine } from './engine';

export type Request = {
  module: WebAssembly.Module;
  variant: string;
  position: string;
  maxDepth: number;
  hashMb: number;
};

/** One finished depth, or the reason there is none. `score` is for the side
 * to move, as engine.h's eng_search gives it; `pv` the best line. */
export type Info =
  | { kind: 'depth'; depth: number; best: string; score: number; nodes: number; ms: number; pv: string[] }
  | { kind: 'done' }
  | { kind: 'error'; error: string };

const post = (info: Info) => (self as unknown as Worker).postMessage(info);

self.onmessage = async (e: MessageEvent<Request>) => {
  const { module, variant, position, maxDepth, hashMb } = e.data;
  try {
    const engine = await Engine.instantiate(module);
    const pos = engine.position(variant, position);
    for (let depth = 1; depth <= maxDepth; depth++) {
      const t0 = performance.now();
      const r = engine.raw('eng_search', [pos.slot, depth, 0, hashMb]);
      if (r.rc < 0) throw new Error(r.text);
      const [best, score, d, nodes, ...pv] = r.text.split(' ');
      if (best === '-') break;  // the game is over: nothing to search
      post({ kind: 'depth', depth: Number(d), best, score: Number(score), nodes: Number(nodes),
        ms: performance.now() - t0, pv });
      if (Math.abs(Number(score)) > 31000) break;  // a forced end is found: deeper adds nothing
    }
    post({ kind: 'done' });
  } catch (err) {
    post({ kind: 'error', error: err instanceof Error ? err.message : String(err) });
  }
};
