// read.ts -- the engine's reading of position strings, for the boards: every
// square and what stands on it, and who is to move. The page reads no
// position string itself: the notation files (games/rampart/notation.ts,
// games/stratego/notation.ts, games/keeps/notation.ts) build their boards
// from this, and take the rules' facts of a board (its squares, areas and
// kinds of piece: boardFacts) from it too. It answers at once, from the
// page's engine once that is loaded; before, from what the server's copy of
// the same code said (POST /api/read) of the strings a page asked for with
// prepare(), so that a game's board is drawn while engine.wasm is still on
// its way. A page that reads a string neither has read throws NotYet.
//
// Invariant: a reading is the engine's, whichever copy made it: the
// server's answer is the same game code's (src/server/play/boards.c).

import type { Area, Engine, PieceKind } from './engine';
import { engine } from './load';
import { call } from '../api';
import type { ReadAnswer } from '../gen/api';

let eng: Engine | null = null;
const families = new Map<string, string[]>();
const boards = new Map<string, BoardFacts>();
/** what the server read before the engine came: facts by family, readings by family and string */
const served = new Map<string, { variants: string[]; facts: BoardFacts }>();
const given = new Map<string, Reading | string>();
const hooks: { family: string; f: () => void }[] = [];

/** A string read before the engine arrived that the server was not asked about. */
export class NotYet extends Error {}

/** Hands the readers an engine (the page's, or a tool's own), and tells
 *  those waiting for its facts (onFacts). */
export function useEngine(e: Engine): void {
  eng = e;
  families.clear();
  boards.clear();
  for (const { f } of hooks) f();
}

/** Runs f each time the facts of `family`'s board become known: from the
 *  server's reading (prepare), then again from the engine (at once if they
 *  are known already). For the notation files' facts of the rules. */
export function onFacts(family: string, f: () => void): void {
  hooks.push({ family, f });
  if (eng || served.has(family)) f();
}

/** Whether the page's engine is loaded. */
export function haveEngine(): boolean {
  return eng !== null;
}

/** The page's engine, loaded (and asked for now if it was not yet). */
export function whenEngine(): Promise<void> {
  if (eng) return Promise.resolve();
  return (loading ??= engineReady().catch((e) => {
    loading = null;  // a failed load may be tried again
    throw e;
  }));
}
let loading: Promise<void> | null = null;

/** Makes `texts` (and the facts of `family`'s board) readable at once:
 *  nothing to do once the engine is loaded; before, the server reads them
 *  (one request) and the readings are kept. Where the server cannot be
 *  asked, waits for the engine instead. */
export async function prepare(family: string, texts: string[]): Promise<void> {
  if (eng) return;
  const ask = [...new Set(texts)].filter((t) => !given.has(`${family}\n${t}`)).slice(0, 16);
  if (served.has(family) && !ask.length) return;
  let answer: ReadAnswer;
  try {
    answer = await call<ReadAnswer>('POST', '/api/read', { family, positions: ask });
  } catch {
    await whenEngine();
    return;
  }
  if (eng) return;
  ask.forEach((t, i) => {
    const r = answer.readings[i];
    given.set(`${family}\n${t}`, 'error' in r ? r.error : { variant: r.variant, squares: r.squares as [string, string][], toMove: r.to_move });
  });
  if (!served.has(family)) {
    const b = answer.board;
    const squares = b.squares as [string, string][];
    served.set(family, { variants: answer.variants, facts: { variant: b.variant, squares: squares.map(([name]) => name),
      blocked: squares.filter(([, t]) => t === '~').map(([name]) => name), kinds: b.kinds, areas: b.areas, start: b.start } });
    given.set(`${family}\n${b.start}`, { variant: b.variant, squares, toMove: b.to_move });
    for (const h of hooks) if (h.family === family) h.f();
  }
}

/** What the engine says of a family's board (its first variant's, from
 *  its start position): every square in the position string's order,
 *  those where nothing may stand ('~'), the kinds of piece, the areas, and
 *  the start position's string. */
export type BoardFacts = { variant: string; squares: string[]; blocked: string[]; kinds: PieceKind[];
  areas: Area[]; start: string };

export function boardFacts(family: string): BoardFacts {
  if (!eng) {
    const s = served.get(family);
    if (s) return s.facts;
    throw new NotYet('the engine is not loaded yet');
  }
  const known = boards.get(family);
  if (known) return known;
  const v = eng.variants().find((x) => x.family === family);
  if (!v) throw new Error(`no game ${family}`);
  const p = eng.position(v.name);
  try {
    const sq = p.squares();
    const facts = { variant: v.name, squares: sq.map(([name]) => name),
      blocked: sq.filter(([, t]) => t === '~').map(([name]) => name), kinds: p.kinds(), areas: p.areas(), start: p.text() };
    boards.set(family, facts);
    return facts;
  } finally {
    p.free();
  }
}

/** Whether a legal move of `variant` in position `text` leaves its
 *  target square empty: the piece that moved left the board (K5). */
export function moveEmpties(variant: string, text: string, move: string): boolean {
  if (!eng) throw new NotYet('the engine is not loaded yet');
  const p = eng.position(variant, text);
  try {
    return p.effects(move).emptied;
  } finally {
    p.free();
  }
}

/** Loads the page's engine and hands it to the readers. */
export async function engineReady(): Promise<void> {
  useEngine(await engine());
}

/** The family of a variant ("stratego" for "stratego"), or null for a
 *  name neither the engine nor the server's readings know. */
export function variantFamily(variant: string): string | null {
  if (eng) return eng.variants().find((v) => v.name === variant)?.family ?? null;
  for (const [family, s] of served) if (s.variants.includes(variant)) return family;
  return null;
}

export type Reading = {
  variant: string;
  /** every square in the string's order: name, and '' / '~' / the piece */
  squares: [string, string][];
  toMove: number;
};

/** Reads `text` as a position of the first variant of `family` that takes
 *  it (a family's variants differ in their boards: Rampart's in size);
 *  throws an Error with the engine's words if none does, and NotYet for a
 *  string read before the engine came that prepare() was not given. */
export function readPosition(family: string, text: string): Reading {
  if (!eng) {
    const r = given.get(`${family}\n${text}`);
    if (r === undefined) throw new NotYet('the engine is not loaded yet');
    if (typeof r === 'string') throw new Error(r);
    return r;
  }
  const e = eng;
  if (!families.has(family)) families.set(family, e.variants().filter((v) => v.family === family).map((v) => v.name));
  const names = families.get(family)!;
  let first: Error | null = null;
  for (const name of names) {
    let p;
    try {
      p = e.position(name, text);
    } catch (e) {
      first ??= e as Error;  // this variant does not take it: the next may
      continue;
    }
    try {
      return { variant: name, squares: p.squares(), toMove: p.sideToMove() };
    } finally {
      p.free();
    }
  }
  throw new Error(first ? first.message : `no game ${family}`);
}
