// load.ts -- the page's one copy of the engines (engine.ts): engine.wasm
// fetched and compiled once, on first use, under the hashed name the build
// gave it, compiling as it streams; and the analyser, a Web Worker (worker.ts) that searches with a
// copy of its own, so the board keeps working while it thinks.

import { Engine } from './engine';
import type { How, Info, Request } from './worker';

declare const ENGINE_WASM_URL: string;
declare const ENGINE_WORKER_URL: string;

let compiled: Promise<WebAssembly.Module> | null = null;
let shared: Promise<Engine> | null = null;

function module(): Promise<WebAssembly.Module> {
  // Compiled while it streams in where the browser can (the server sends
  // it as application/wasm), else once it has all arrived.
  // low priority: what a page's first paint needs goes first on a slow line
  compiled ??= fetch(ENGINE_WASM_URL, { priority: 'low' }).then(async (r) => {
    if (!r.ok) throw new Error(`the engine could not be loaded (${r.status})`);
    const wasmType = (r.headers.get('content-type') ?? '').startsWith('application/wasm');
    if (wasmType && typeof WebAssembly.compileStreaming === 'function') return WebAssembly.compileStreaming(r);
    return WebAssembly.compile(await r.arrayBuffer());
  });
  compiled.catch(() => (compiled = null));  // a failed load may be tried again
  return compiled;
}

/** The engine for rules: legal moves, positions, results (the main thread's copy). */
export function engine(): Promise<Engine> {
  shared ??= module().then((m) => Engine.instantiate(m));
  shared.catch(() => (shared = null));
  return shared;
}

/** Runs the engine's work in a Web Worker, one piece of work at a time,
 * reporting as it goes: a position searched deeper and deeper (analyse), or
 * every position of a game to one depth (review). New work stops the old at
 * once (the worker is ended and another started: a search in WebAssembly
 * cannot be interrupted). */
export class Analyser {
  onInfo: (info: Info) => void = () => {};
  private worker: Worker | null = null;

  /** how: which search (worker.ts How); maxDepth counts its rounds;
   *  lines: how many best moves the two-sided search gives (MultiPV). */
  async analyse(variant: string, position: string, maxDepth = 14, how: How = 'search', lines = 1,
    settings: Record<string, number> = {}): Promise<void> {
    await this.start({ kind: 'analyse', module: await module(), variant, position, maxDepth,
      hashMb: 16, how, lines, settings });
  }

  async review(variant: string, positions: string[], depth: number, how: How = 'search'): Promise<void> {
    await this.start({ kind: 'review', module: await module(), variant, positions, depth,
      hashMb: 16, how });
  }

  private async start(req: Request): Promise<void> {
    this.stop();
    const w = new Worker(ENGINE_WORKER_URL, { type: 'module' });
    this.worker = w;
    w.onmessage = (e: MessageEvent<Info>) => {
      if (this.worker === w) this.onInfo(e.data);
    };
    w.postMessage(req);
  }

  stop(): void {
    this.worker?.terminate();
    this.worker = null;
  }
}
