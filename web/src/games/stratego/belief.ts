// games/stratego/belief.ts -- what a Stratego bot believes of the pieces it
// cannot see (engine.h eng_belief, from the game's own bot), as notes for
// the board: the likeliest kind and its chance on the square, the three
// likeliest read out with it. Used by the analysis board and by Review.

import { KINDS } from './notation';

export type Notes = Map<string, { short: string; long: string }>;

/** engine.h eng_belief's lines as notes for the board: the likeliest kind
 *  and its chance on the square, the likeliest three read out. */
export function beliefNotes(text: string): Notes {
  const notes: Notes = new Map();
  for (const line of text.split('\n').filter((l) => l)) {
    const [sq, ...rest] = line.split(' ');
    const kinds: { name: string; short: string; pct: number }[] = [];
    for (let i = 0; i + 1 < rest.length; i += 2) {
      const k = KINDS[rest[i].toUpperCase() as keyof typeof KINDS];
      if (k) kinds.push({ name: k.name, short: k.rank === null ? k.name[0] : String(k.rank),
        pct: Math.round(Number(rest[i + 1]) / 10) });
    }
    if (!kinds.length) continue;
    notes.set(sq, { short: `${kinds[0].short} ${kinds[0].pct}%`,
      long: `believed ${kinds.slice(0, 3).map((k) => `${k.name} ${k.pct}%`).join(', ')}` });
  }
  return notes;
}
