// read.ts -- the engine's reading of position strings, for the boards: every
// square and what stands on it, and who is to move. The page reads no
// position string itself: the notation files (games/rampart/notation.ts,
// games/stratego/notation.ts, games/keeps/notation.ts) build their boards
// from this, and take the rules' facts of a board (its squares, areas and
// kinds of piece: boardFacts) from it too. It answers at once, so the
// engine must be ready first: the page's entry awaits engineReady() before
// it draws anything (tools outside the page hand it an engine with
// useEngine).

import type { Area, Engine, PieceKind } from './engine';
import { engine } from './load';

let eng: Engine | null = null;
const families = new Map<string, string[]>();
const boards = new Map<string, BoardFacts>();
const waiting: (() => void)[] = [];

/** Hands the readers an engine (the page's, or a tool's own), and tells
 *  those waiting for one (onEngine). */
export function useEngine(e: Engine): void {
  eng = e;
  families.clear();
  boards.clear();
  for (const f of waiting) f();
}

/** Runs f each time the readers are handed an engine (at once if they
 *  have one): for the notation files' facts of the rules, which come from
 *  the engine and are there before any page is drawn. */
export function onEngine(f: () => void): void {
  waiting.push(f);
  if (eng) f();
}

/** What the engine says of a family's board (its first variant's, from
 *  its start position): every square in the position string's order,
 *  those where nothing may stand ('~'), the kinds of piece, the areas, and
 *  the start position's string. */
export type BoardFacts = { variant: string; squares: string[]; blocked: string[]; kinds: PieceKind[];
  areas: Area[]; start: string };

export function boardFacts(family: string): BoardFacts {
  if (!eng) throw new Error('the engine is not loaded yet');
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
  if (!eng) throw new Error('the engine is not loaded yet');
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
 *  name the engine does not know (or before it is loaded). */
export function variantFamily(variant: string): string | null {
  return eng?.variants().find((v) => v.name === variant)?.family ?? null;
}

export type Reading = {
  variant: string;
  /** every square in the string's order: name, and '' / '~' / the piece */
  squares: [string, string][];
  toMove: number;
};

/** Reads `text` as a position of the first variant of `family` that takes
 *  it (a family's variants differ in their boards: Rampart's in size);
 *  throws an Error with the engine's words if none does. */
export function readPosition(family: string, text: string): Reading {
  if (!eng) throw new Error('the engine is not loaded yet');
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
