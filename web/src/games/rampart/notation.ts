// games/rampart/notation.ts -- Rampart's notation (R9) for display only. The page never
// judges the rules: legal moves, captures and results come from the server
// (a live game's `legal` list and effects) or from the games' own engine in
// the page (engine/); position strings are read by that engine too
// (engine/read.ts). This file turns its reading and move texts into
// squares to draw.

import { boardFacts, onFacts, readPosition } from '../../engine/read';

export type Side = 'b' | 't';
export type Kind = 'Q' | 'N' | 'K' | 'B';
export type Piece = { side: Side; kind: Kind };

export type Position = {
  width: number;
  height: number;
  /** index = row * width + file; row 0 is rank 1 (Bottom's back row) */
  squares: (Piece | null)[];
  toMove: Side;
  fullmove: number;
};

/** Each kind's name by its letter: the engine's (eng_kinds), filled in
 *  when it is loaded, before any page is drawn. */
export let KIND_NAMES = {} as Record<Kind, string>;
onFacts('rampart', () => {
  KIND_NAMES = Object.fromEntries(boardFacts('rampart').kinds.map((k) => [k.letter, k.name])) as Record<Kind, string>;
});

export const SIDE_NAMES: Record<Side, string> = { b: 'Bottom', t: 'Top' };

/** Reads `1qqq1/1nnn1/.../1QQQ1 b 1` as the engine reads it (engine/read.ts:
 *  the board and the side to move; the move number is the third field);
 *  throws an Error with the engine's words on text it does not take. */
export function parsePosition(text: string): Position {
  const r = readPosition('rampart', text);
  const ranks = new Set(r.squares.map(([sq]) => sq.slice(1)));
  const height = ranks.size;
  const width = r.squares.length / height;
  const squares: (Piece | null)[] = new Array(width * height).fill(null);
  for (const [sq, piece] of r.squares) {
    const at = parseSquare(sq);
    if (!at || !piece) continue;
    const upper = piece.toUpperCase() as Kind;
    squares[at.row * width + at.file] = { side: piece === upper ? 'b' : 't', kind: upper };
  }
  const fullmove = Number(text.trim().split(/\s+/)[2]) || 1;
  return { width, height, squares, toMove: r.toMove === 0 ? 'b' : 't', fullmove };
}

/** 'a1' for file 0, row 0. */
export function squareName(file: number, row: number): string {
  return String.fromCharCode(97 + file) + String(row + 1);
}

/** 'c4' -> {file: 2, row: 3}; null if it is not a square name. */
export function parseSquare(name: string): { file: number; row: number } | null {
  const m = /^([a-z])(\d{1,2})$/.exec(name);
  if (!m) return null;
  return { file: m[1].charCodeAt(0) - 97, row: Number(m[2]) - 1 };
}

/** 'c4c5' (also 'c4-c5', 'c4xc5') -> ['c4', 'c5']. */
export function moveSquares(move: string): [string, string] {
  const m = /^([a-z]\d{1,2})[-x]?([a-z]\d{1,2})$/.exec(move.trim());
  if (!m) throw new Error(`not a move: ${move}`);
  return [m[1], m[2]];
}

/** Piece at a square name, or null (also for names off the board). */
export function pieceAt(pos: Position, name: string): Piece | null {
  const sq = parseSquare(name);
  if (!sq || sq.file >= pos.width || sq.row >= pos.height) return null;
  return pos.squares[sq.row * pos.width + sq.file];
}

