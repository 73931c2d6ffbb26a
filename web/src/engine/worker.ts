// worker.ts -- the engine's Web Worker (load.ts): an engine of its own that
// either searches one position deeper and deeper (analysis), posting what
// each depth found, or searches every position of a game to one depth
// (computer review), posting each position's score. It is ended
// (terminate) when its work is no longer wanted.

import { BOT_NODES, BOT_REVIEW_NODES, MULTI_REVIEW_NODES } from './budgets';
import { Engine, Position } from './engine';

const WIN = 32000;  // src/ai/search.h SEARCH_WIN

/** Which search analyses: the two-sided search of `citadel bench`, the
 *  style bots' search for games of more sides, or the game's own bot
 *  (games of hidden pieces: Stratego's strongest level, on a view). */
export type How = 'search' | 'multi' | 'bot';

export type Request =
  | { kind: 'analyse'; module: WebAssembly.Module; variant: string; position: string;
      maxDepth: number; hashMb: number; how: How; lines: number;
      /** settings the position string does not carry (Rampart's MoveLimit) */
      settings: Record<string, number> }
  | { kind: 'review'; module: WebAssembly.Module; variant: string; positions: string[];
      depth: number; hashMb: number; how: How };

/** One of several best moves (MultiPV), its score for the side to move. */
export type Line = { score: number; pv: string[] };

/** One finished depth, one position of a review, the end, or the reason
 *  there is none. Scores are for the side to move (`side`), as engine.h's
 *  eng_search gives them; a finished game scores as won, lost or drawn. */
export type Info =
  | { kind: 'depth'; depth: number; best: string; score: number; nodes: number; ms: number;
      pv: string[]; values?: number[]; lines?: Line[] }
  | { kind: 'position'; index: number; side: number; score: number; best: string | null;
      /** games of more sides: what the position is worth to the side that
       *  moved into it (its move's verdict), none at the start */
      prev?: number }
  | { kind: 'done' }
  | { kind: 'error'; error: string };

const post = (info: Info) => (self as unknown as Worker).postMessage(info);

// Games of more sides: the style bots' search (engine.h eng_multi), its
// balanced style, within the budget of their strongest level at each depth.
const MULTI_STYLE = 1, MULTI_NODES = 150000;

/** The request's position, with the settings its string does not carry. */
function positionOf(engine: Engine, r: Extract<Request, { kind: 'analyse' }>) {
  const pos = engine.position(r.variant, r.position);
  for (const [name, value] of Object.entries(r.settings)) pos.setOption(name, value);
  return pos;
}

/** Several lines in a game of more sides: each legal move, played, and
 *  what the position after it is worth to the mover's team with every
 *  other team against it (eng_multi_for, a ply shallower, within a share
 *  of the search's budget); the best `lines` of them, best first. */
function multiLines(engine: Engine, pos: Position, depth: number, lines: number): { lines: Line[]; nodes: number } {
  const side = pos.sideToMove();
  const moves = pos.moves();
  const budget = Math.max(5000, Math.floor((2 * MULTI_NODES) / Math.max(1, moves.length)));
  let nodes = 0;
  const scored = moves.map((move) => {
    const q = pos.copy();
    try {
      q.play(move);
      const a = engine.raw('eng_multi_for', [q.slot, Math.max(1, depth - 1), budget, MULTI_STYLE, side]);
      if (a.rc < 0) throw new Error(a.text);
      const [, score, , n] = a.text.split(' ');
      nodes += Number(n);
      return { score: Number(score), pv: [move] };
    } finally {
      q.free();
    }
  });
  scored.sort((x, y) => y.score - x.score);
  return { lines: scored.slice(0, lines), nodes };
}

async function analyseMulti(engine: Engine, r: Extract<Request, { kind: 'analyse' }>): Promise<void> {
  const pos = positionOf(engine, r);
  for (let depth = 1; depth <= r.maxDepth; depth++) {
    const t0 = performance.now();
    const a = engine.raw('eng_multi', [pos.slot, depth, MULTI_NODES, MULTI_STYLE]);
    if (a.rc < 0) throw new Error(a.text);
    const [best, score, d, nodes, ...values] = a.text.split(' ');
    if (best === '-') break;
    const more = r.lines > 1 ? multiLines(engine, pos, Number(d), r.lines) : null;
    post({ kind: 'depth', depth: Number(d), best, score: Number(score), nodes: Number(nodes) + (more?.nodes ?? 0),
      ms: performance.now() - t0, pv: [best], values: values.map(Number), lines: more?.lines });
  }
}

// Games of hidden pieces: the game's own bot (engine.h eng_bot) within a
// node budget that doubles each round (a "depth" here is one round), so
// that what it says does not hang on the machine's speed.


async function analyseBot(engine: Engine, r: Extract<Request, { kind: 'analyse' }>): Promise<void> {
  const pos = positionOf(engine, r);
  for (let round = 0; round < r.maxDepth; round++) {
    const t0 = performance.now();
    // several lines: the same search, each of the best moves scored exactly
    const a = r.lines > 1 ? engine.raw('eng_bot_lines', [pos.slot, 0, BOT_NODES * 2 ** round, r.lines])
      : engine.raw('eng_bot', [pos.slot, 0, BOT_NODES * 2 ** round]);
    if (a.rc < 0) throw new Error(a.text);
    const all = a.text.split('\n').map((l) => l.split(' '));
    const [best, score, d, nodes] = all[0];
    if (best === '-') break;
    const lines = r.lines > 1 ? all.map(([move, sc]) => ({ score: Number(sc), pv: [move] })) : undefined;
    post({ kind: 'depth', depth: Number(d), best, score: Number(score), nodes: Number(nodes),
      ms: performance.now() - t0, pv: [best], lines });
    if (Number(d) === 0) break;  // one legal move: nothing was searched
  }
}

async function analyse(engine: Engine, r: Extract<Request, { kind: 'analyse' }>): Promise<void> {
  if (r.how === 'multi') return analyseMulti(engine, r);
  if (r.how === 'bot') return analyseBot(engine, r);
  const pos = positionOf(engine, r);
  for (let depth = 1; depth <= r.maxDepth; depth++) {
    const t0 = performance.now();
    const a = r.lines > 1 ? engine.raw('eng_lines', [pos.slot, depth, r.hashMb, r.lines])
      : engine.raw('eng_search', [pos.slot, depth, 0, r.hashMb]);
    if (a.rc < 0) throw new Error(a.text);
    const all = a.text.split('\n').map((l) => l.split(' '));
    const [best, score, d, , ...pv] = all[0];
    if (best === '-') break;  // the game is over: nothing to search
    const lines = r.lines > 1
      ? all.map(([, sc, , , ...line]) => ({ score: Number(sc), pv: line })) : undefined;
    const total = all.reduce((sum, l) => sum + Number(l[3]), 0);
    post({ kind: 'depth', depth: Number(d), best, score: Number(score), nodes: total,
      ms: performance.now() - t0, pv, lines });
    if (Math.abs(Number(score)) > WIN - 1000) break;  // a forced end: deeper adds nothing
  }
}

// Games of more sides: each position searched for the side to move and, a
// ply shallower, for the side that moved into it (engine.h eng_multi_for),
// so a move's verdict compares that side's worth before and after it.
async function reviewMulti(engine: Engine, r: Extract<Request, { kind: 'review' }>): Promise<void> {
  let prevSide = -1;
  for (let i = 0; i < r.positions.length; i++) {
    const pos = engine.position(r.variant, r.positions[i]);
    const side = pos.sideToMove();
    const ask = (depth: number, forSide: number) => {
      const a = engine.raw('eng_multi_for', [pos.slot, depth, MULTI_REVIEW_NODES, MULTI_STYLE, forSide]);
      if (a.rc < 0) throw new Error(a.text);
      const [best, score] = a.text.split(' ');
      return { best: best === '-' ? null : best, score: Number(score) };
    };
    const own = ask(r.depth, side);
    const prev = prevSide >= 0 ? ask(Math.max(1, r.depth - 1), prevSide).score : undefined;
    post({ kind: 'position', index: i, side, score: own.score, best: own.best, prev });
    prevSide = side;
    pos.free();
  }
}

async function review(engine: Engine, r: Extract<Request, { kind: 'review' }>): Promise<void> {
  if (r.how === 'multi') return reviewMulti(engine, r);
  for (let i = 0; i < r.positions.length; i++) {
    const pos = engine.position(r.variant, r.positions[i]);
    const side = pos.sideToMove();
    const res = pos.result();
    if (res.over) {
      const score = res.winner < 0 ? 0 : res.winner === side ? WIN : -WIN;
      post({ kind: 'position', index: i, side, score, best: null });
    } else {
      // the two-sided search to its depth, or the game's own bot within
      // BOT_REVIEW_NODES (Stratego after the game: every rank known)
      const a = r.how === 'bot' ? engine.raw('eng_bot', [pos.slot, 0, BOT_REVIEW_NODES])
        : engine.raw('eng_search', [pos.slot, r.depth, 0, r.hashMb]);
      if (a.rc < 0) throw new Error(a.text);
      const [best, score] = a.text.split(' ');
      post({ kind: 'position', index: i, side, score: Number(score), best });
    }
    pos.free();
  }
}

self.onmessage = async (e: MessageEvent<Request>) => {
  try {
    const engine = await Engine.instantiate(e.data.module);
    if (e.data.kind === 'analyse') await analyse(engine, e.data);
    else await review(engine, e.data);
    post({ kind: 'done' });
  } catch (err) {
    post({ kind: 'error', error: err instanceof Error ? err.message : String(err) });
  }
};
