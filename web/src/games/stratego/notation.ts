// games/stratego/notation.ts -- reading Stratego's strings (docs/stratego.md):
// position and view strings (as the engine reads them, engine/read.ts),
// setup strings and moves, and the server's combats (structure, never its
// words parsed back). Reading only: what is legal is the engine's business.

import type { Combat as ServerCombat } from '../../gen/api';
import { boardFacts, onFacts, readPosition } from '../../engine/read';

// The rules' facts of the board and the army come from the engine
// (engine/read.ts boardFacts: eng_squares, eng_kinds, eng_areas), filled in
// when it is loaded, before any page is drawn; none is written here.

/** Files and rows of the square board (files a.., rows 1..). */
export let SIZE = 0;
export const RED = 0;
export const BLUE = 1;
export const SIDE_NAMES = ['Red', 'Blue'];

/** Piece kinds by upper-case letter; `X` is an unknown piece (views only). */
export type Kind = 'M' | 'G' | 'C' | 'J' | 'A' | 'L' | 'E' | 'N' | 'O' | 'S' | 'B' | 'F' | 'X';

export type KindInfo = { name: string; rank: number | null; count: number; short: string };

/** What fits of a kind's name on a small tile: the page's words. */
const SHORT: Record<string, string> = { M: 'Mar', G: 'Gen', C: 'Col', J: 'Maj', A: 'Capt', L: 'Lt', E: 'Sgt',
  N: 'Miner', O: 'Scout', S: 'Spy', B: 'Bomb', F: 'Flag' };

/** The army of S2 by letter: name, rank (null for Bomb and Flag) and how
 *  many each side has; `short` is what fits on a small tile. */
export let KINDS = {} as Record<Exclude<Kind, 'X'>, KindInfo>;
/** Its kinds strongest first, as the engine lists them. */
export let KIND_ORDER: Exclude<Kind, 'X'>[] = [];
export let ARMY_SIZE = 0;
/** The lake squares of S1: where nothing may stand. */
export let LAKES: string[] = [];
/** Each side's setup squares (S3) in a setup string's order. */
let SETUP_SQUARES: string[][] = [[], []];
let NAME_TO_KIND = new Map<string, Exclude<Kind, 'X'>>();

onFacts('stratego', () => {
  const b = boardFacts('stratego');
  SIZE = new Set(b.squares.map((sq) => sq.slice(1))).size;
  KIND_ORDER = b.kinds.map((k) => k.letter as Exclude<Kind, 'X'>);
  KINDS = Object.fromEntries(b.kinds.map((k) => [k.letter,
    { name: k.name, rank: k.rank || null, count: k.count, short: SHORT[k.letter] ?? k.name }])) as typeof KINDS;
  ARMY_SIZE = b.kinds.reduce((n, k) => n + k.count, 0);
  LAKES = b.blocked;
  SETUP_SQUARES = [0, 1].map((side) => b.areas.find((a) => a.area === 'setup' && a.side === side)?.squares ?? []);
  NAME_TO_KIND = new Map(KIND_ORDER.map((k) => [KINDS[k].name, k] as const));
});

export type Piece = {
  side: number; // RED or BLUE
  kind: Kind; // 'X' when the viewer does not know the rank
  revealed: boolean; // `*`: shown in combat
  moved: boolean; // `+` or `^`
  scout: boolean; // `^`: seen to run more than one square
};

/** A square: a piece, null (empty) or 'lake'. Index = row * 10 + file, row 0 = row 1. */
export type Cell = Piece | null | 'lake';

export type View = {
  cells: Cell[];
  toMove: number;
  ply: number;
};

/** "Red Captain (6)", "Blue Bomb", "Blue piece". */
export function pieceName(p: Piece): string {
  const side = SIDE_NAMES[p.side];
  if (p.kind === 'X') return `${side} piece`;
  const k = KINDS[p.kind];
  return k.rank === null ? `${side} ${k.name}` : `${side} ${k.name} (${k.rank})`;
}

export function squareName(file: number, row: number): string {
  return String.fromCharCode(97 + file) + String(row + 1);
}

export function parseSquare(name: string): { file: number; row: number } | null {
  const m = /^([a-z])([1-9]\d?)$/.exec(name);
  if (!m) return null;
  const at = { file: m[1].charCodeAt(0) - 97, row: Number(m[2]) - 1 };
  return at.file < SIZE && at.row < SIZE ? at : null;
}

export function squareIndex(name: string): number {
  const s = parseSquare(name);
  return s ? s.row * SIZE + s.file : -1;
}

export function indexName(i: number): string {
  return squareName(i % SIZE, Math.floor(i / SIZE));
}

/** "a4a5" (also "a4-a5", "a4xa5") -> ["a4", "a5"]. */
export function moveSquares(move: string): [string, string] {
  const m = /^([a-z][1-9]\d?)[-x]?([a-z][1-9]\d?)$/.exec(move.trim());
  return m && parseSquare(m[1]) && parseSquare(m[2]) ? [m[1], m[2]] : ['', ''];
}

/** A piece as a position string writes it: its letter (Red upper case)
 *  and its marks (`*` revealed, `+` moved, `^` seen to run). */
export function pieceOfToken(token: string): Piece {
  const up = token[0].toUpperCase() as Kind;
  return { side: token[0] === up ? RED : BLUE, kind: up, revealed: token.includes('*'),
    moved: token.includes('+') || token.includes('^'), scout: token.includes('^') };
}

/** The inverse of pieceOfToken: a piece as a position string writes it. */
export function tokenOfPiece(p: Piece): string {
  return (p.side === RED ? p.kind : p.kind.toLowerCase()) + (p.revealed ? '*' : '') +
    (p.scout ? '^' : p.moved ? '+' : '');
}

/** Reads a position or view string as the engine reads it (engine/read.ts:
 *  every square, the pieces' marks, the side to move; the ply is the third
 *  field); throws an Error with the engine's words on text it does not take. */
export function parseView(text: string): View {
  const r = readPosition('stratego', text);
  const cells: Cell[] = new Array(SIZE * SIZE).fill(null);
  for (const [sq, token] of r.squares) {
    const i = squareIndex(sq);
    if (i < 0 || !token) continue;
    if (token === '~') {
      cells[i] = 'lake';
      continue;
    }
    cells[i] = pieceOfToken(token);
  }
  return { cells, toMove: r.toMove, ply: Number(text.trim().split(/\s+/)[2]) || 0 };
}

// ---- setups ----

/** A setup as ARMY_SIZE letters: index = line * SIZE + column, line 0 the
 *  front row, column 0 the owner's leftmost square (S3). */
export type Setup = Kind[];

export function parseSetup(text: string): Setup {
  const rows = text.trim().split('/');
  const lines = ARMY_SIZE / SIZE;
  if (rows.length !== lines || rows.some((r) => r.length !== SIZE)) throw new Error(`a setup is ${lines} rows of ${SIZE} letters`);
  const out: Setup = [];
  for (const r of rows) for (const c of r) {
    if (!(c in KINDS)) throw new Error(`unknown piece letter "${c}" in the setup`);
    out.push(c as Kind);
  }
  return out;
}

export function formatSetup(s: Setup): string {
  const rows: string[] = [];
  for (let line = 0; line < ARMY_SIZE / SIZE; line++) rows.push(s.slice(line * SIZE, line * SIZE + SIZE).join(''));
  return rows.join('/');
}

/** The board square of a setup slot, as the engine places it (S3: Red's
 *  front row first, from its left; Blue sits opposite). */
export function setupSquare(side: number, slot: number): string {
  return SETUP_SQUARES[side][slot] ?? '';
}

/** The setup slot of a board square for that side, or -1 outside its rows. */
export function setupSlot(side: number, square: string): number {
  return SETUP_SQUARES[side].indexOf(square);
}

/** The board of a setup alone (the other side's rows empty), for the setup screen. */
export function setupView(side: number, s: Setup): View {
  const cells: Cell[] = new Array(SIZE * SIZE).fill(null);
  for (const l of LAKES) cells[squareIndex(l)] = 'lake';
  s.forEach((kind, i) => {
    cells[squareIndex(setupSquare(side, i))] = { side, kind, revealed: false, moved: false, scout: false };
  });
  return { cells, toMove: side, ply: 0 };
}

// ---- what a game has cost each side ----

/** The pieces of each kind a side still has on the board (X counted apart). */
export function countOnBoard(v: View, side: number): Map<Kind, number> {
  const n = new Map<Kind, number>();
  for (const c of v.cells) if (c && c !== 'lake' && c.side === side) n.set(c.kind, (n.get(c.kind) ?? 0) + 1);
  return n;
}

/** An attack as the server tells it (src/games/stratego/variants.c):
 *  "Red Scout (2) attacks Blue Bomb: the attacker is removed". */
export type Combat = { attacker: { side: number; kind: Kind }; defender: { side: number; kind: Kind }; removed: ('attacker' | 'defender')[] };

/** A combat as the server sends it (a move's effects.combat, or a game's
 *  combats[ply]: ranks by name), with the sides: the attacker is the side
 *  that moved on that ply (Red moves on even plies, S1). */
export function combatOf(c: ServerCombat | null | undefined, ply: number): Combat | null {
  if (!c) return null;
  const ak = NAME_TO_KIND.get(c.attacker);
  const dk = NAME_TO_KIND.get(c.defender);
  if (!ak || !dk) return null;
  const mover = ply % 2 ? BLUE : RED;
  const removed: Combat['removed'] = c.lost === 'both' ? ['attacker', 'defender'] : [c.lost];
  return { attacker: { side: mover, kind: ak }, defender: { side: 1 - mover, kind: dk }, removed };
}

/** The pieces each side has lost, by kind, from the combats so far (every
 *  capture is a combat, and combat shows both ranks to both players). */
export function lossesFromCombats(combats: (ServerCombat | null | undefined)[]): Map<Kind, number>[] {
  const lost = [new Map<Kind, number>(), new Map<Kind, number>()];
  for (let ply = 0; ply < combats.length; ply++) {
    const c = combatOf(combats[ply], ply);
    if (!c) continue;
    for (const who of c.removed) {
      const p = who === 'attacker' ? c.attacker : c.defender;
      lost[p.side].set(p.kind, (lost[p.side].get(p.kind) ?? 0) + 1);
    }
  }
  return lost;
}
