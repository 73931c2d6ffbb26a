// games/keeps/notation.ts -- Keeps & Moats Chess notation (docs/keeps-moats.md, K7):
// squares on the 17x17 grid with holes, pieces, moves, and the nine-field
// position string, whose board the engine reads (engine/read.ts). Only
// reading and naming: the engine is the only judge of what is legal.

import { boardFacts, onFacts, readPosition } from '../../engine/read';

// The board's shape, its areas and the pieces' names are the engine's
// (engine/read.ts boardFacts: eng_squares, eng_areas, eng_kinds), filled in
// when it is loaded, before any page is drawn; none is written here.

/** Files and rows of the grid the board's squares stand on. */
export let SIZE = 0;
export const KINGDOMS = ['White', 'Red', 'Black', 'Blue'] as const;
export const KINGDOM_LETTERS = ['w', 'r', 'b', 'u'] as const;
export type Kind = 'K' | 'Q' | 'R' | 'B' | 'N' | 'P' | 'C';
/** Each kind's name by its letter. */
export let KIND_NAMES = {} as Record<Kind, string>;
export type Piece = { kingdom: number; kind: Kind };

export const GAME_TYPES: Record<string, string> = { neighbors: 'Allied Neighbors', crossroad: 'Crossroad Allies', anarchy: 'Anarchy' };
export const KING_RESULTS: Record<string, string> = { gained: 'Kingdom Gained', lost: 'Kingdom Lost', frozen: 'Kingdom Frozen' };
/** The server's option values (GameType 0-2, KingResult 0-2) in order. */
export const GAME_TYPE_ORDER = ['neighbors', 'crossroad', 'anarchy'];
export const KING_RESULT_ORDER = ['gained', 'lost', 'frozen'];

/** Squares as [file, row], both 0-16 (a = 0, row 1 = 0). */
export type Sq = [number, number];

/** Every square, row 17 down to row 1, west to east (the string's order). */
export let ALL_SQUARES: string[] = [];
let EXISTING = new Set<string>();
/** Each square's Moat or Keep (K1); each kingdom's Throne (its King's
 *  square at the start) and Castle Pawn square. */
let AREAS = new Map<string, { kingdom: number; part: 'moat' | 'keep' }>();
export let THRONES: string[] = [];
export let CASTLE_SQUARES: string[] = [];

onFacts('keeps-moats', () => {
  const b = boardFacts('keeps-moats');
  ALL_SQUARES = b.squares;
  EXISTING = new Set(b.squares);
  SIZE = Math.max(...b.squares.map((sq) => Math.max(sq.charCodeAt(0) - 96, Number(sq.slice(1)))));
  KIND_NAMES = Object.fromEntries(b.kinds.map((k) => [k.letter, k.name])) as Record<Kind, string>;
  AREAS = new Map();
  THRONES = [];
  CASTLE_SQUARES = [];
  for (const a of b.areas) {
    if (a.area === 'moat' || a.area === 'keep') for (const sq of a.squares) AREAS.set(sq, { kingdom: a.side, part: a.area });
    else if (a.area === 'throne') THRONES[a.side] = a.squares[0];
    else if (a.area === 'castle') CASTLE_SQUARES[a.side] = a.squares[0];
  }
});

/** Whether the square at file f, row r (both from 0) is on the board. */
export function exists(f: number, r: number): boolean {
  return f >= 0 && r >= 0 && EXISTING.has(squareName(f, r));
}

export function squareName(f: number, r: number): string {
  return String.fromCharCode(97 + f) + (r + 1);
}

export function parseSquare(s: string): Sq | null {
  const m = /^([a-z])(\d{1,2})$/.exec(s);
  if (!m) return null;
  const f = m[1].charCodeAt(0) - 97;
  const r = Number(m[2]) - 1;
  return exists(f, r) ? [f, r] : null;
}

export type Area = { kingdom: number; part: 'moat' | 'keep' } | null;

/** Whose Moat or Keep a square is (K1), or null for the Battlefield. */
export function areaOf(sq: string): Area {
  return AREAS.get(sq) ?? null;
}

export function parsePiece(t: string): Piece | null {
  const k = KINGDOM_LETTERS.indexOf(t[0] as never);
  if (k < 0 || !((t[1] ?? '') in KIND_NAMES) || t.length !== 2) return null;
  return { kingdom: k, kind: t[1] as Kind };
}

export function pieceName(p: Piece): string {
  return `${KINGDOMS[p.kingdom]} ${KIND_NAMES[p.kind]}`;
}

export type Position = {
  board: Map<string, Piece>;
  toMove: number;
  gameType: string; // neighbors | crossroad | anarchy
  kingResult: string; // gained | lost | frozen
  castling: number[];
  prisoners: Piece[][]; // what each kingdom holds
  out: number[];
  round: number;
  limit: number;
};

const kingdomsOf = (s: string) => (s === '-' ? [] : [...s].map((c) => KINGDOM_LETTERS.indexOf(c as never)).filter((k) => k >= 0));

function tokens(s: string): Piece[] {
  if (s === '-') return [];
  const out: Piece[] = [];
  for (let i = 0; i + 1 < s.length; i += 2) {
    const p = parsePiece(s.slice(i, i + 2));
    if (p) out.push(p);
  }
  return out;
}

/** Reads a K7 position: the board and the kingdom to move as the engine
 *  reads them (engine/read.ts), the other fields from the string; throws
 *  an Error with the engine's words on text it does not take. */
export function parsePosition(text: string): Position {
  const f = text.trim().split(/\s+/);
  if (f.length !== 9) throw new Error(`a position has nine fields, not ${f.length}`);
  const r = readPosition('keeps-moats', text);
  const board = new Map<string, Piece>();
  for (const [sq, token] of r.squares) {
    const p = token ? parsePiece(token) : null;
    if (p) board.set(sq, p);
  }
  const prisoners = f[5].split(',').map(tokens);
  while (prisoners.length < 4) prisoners.push([]);
  return {
    board,
    toMove: r.toMove,
    gameType: f[2],
    kingResult: f[3],
    castling: kingdomsOf(f[4]),
    prisoners,
    out: kingdomsOf(f[6]),
    round: Number(f[7]),
    limit: Number(f[8]),
  };
}

export type Move = { from: string; to: string; choice: { release?: Piece; assassinate?: string } | null } | 'pass';

/** Reads `f4f6`, `pass`, `h14h15=r:wR`, `h14h15=a:g15`. */
export function parseMove(text: string): Move | null {
  if (text === 'pass') return 'pass';
  const m = /^([a-z]\d{1,2})([a-z]\d{1,2})(?:=(r|a):(\w+))?$/.exec(text);
  if (!m) return null;
  let choice: { release?: Piece; assassinate?: string } | null = null;
  if (m[3] === 'r') choice = { release: parsePiece(m[4]) ?? undefined };
  else if (m[3] === 'a') choice = { assassinate: m[4] };
  return { from: m[1], to: m[2], choice };
}

/** The two squares a move touches, or none for a pass. */
export function moveSquares(text: string): string[] {
  const m = parseMove(text);
  return m && m !== 'pass' ? [m.from, m.to] : [];
}

/** A move in words, for the move list and the choice dialog. */
export function moveWords(text: string, before?: Position): string {
  const m = parseMove(text);
  if (!m) return text;
  if (m === 'pass') return 'passes (no legal move)';
  const p = before?.board.get(m.from);
  const what = p ? `${KIND_NAMES[p.kind]} ` : '';
  let s = `${what}${m.from}–${m.to}`;
  const hit = before?.board.get(m.to);
  if (hit && p && hit.kingdom !== p.kingdom) s += ` takes ${pieceName(hit)}`;
  if (m.choice?.release) s += `, releases ${pieceName(m.choice.release)}`;
  if (m.choice?.assassinate) {
    const v = before?.board.get(m.choice.assassinate);
    s += `, assassinates ${v ? pieceName(v) + ' on ' : ''}${m.choice.assassinate}`;
  }
  return s;
}
