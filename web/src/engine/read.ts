// read.ts -- the engine's reading of position strings, for the boards: every
// square and what stands on it, and who is to move. The page reads no
// position string itself: the notation files (games/rampart/notation.ts,
// games/stratego/notation.ts, games/keeps/notation.ts) build their boards from this. It answers
// at once, so the engine must be ready first: the page's entry awaits
// engineReady() before it draws anything (tools outside the page hand it an
// engine with useEngine).

import type { Engine } from './engine';
import { engine } from './load';

let eng: Engine | null = null;
const families = new Map<string, string[]>();

/** Hands the readers an engine (the page's, or a tool's own). */
export function useEngine(e: Engine): void {
  eng = e;
  families.clear();
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
