// games/rampart/learn/check.ts -- what a move does, as the engine says, and whether that is what
// a lesson claims. The engine is the only judge of the rules: this file asks
// it (the page: the engine in the browser, engine/position.ts; the tests:
// the server's POST /api/position) for the legal moves and the positions
// they lead to, and only compares boards. The lesson pages use it to mark
// what a move took; tests/browser/learn-positions.mjs uses it to prove every
// lesson right.

import type { PositionInfo } from '../../../api';
import { Kind, moveSquares, parsePosition, pieceAt } from '../notation';

/** What check.ts reads of an answer about a position. */
type Info = Pick<PositionInfo, 'position' | 'legal' | 'result' | 'threats'>;
/** Asks the engine about a Rampart position. */
export type Ask = (position: string) => Promise<Info>;

/** What a lesson says its key move does. Every field that is present must hold. */
export type Goal = {
  /** the moving piece is of this kind */
  piece?: Kind;
  /** it ends on this square */
  to?: string;
  /** exactly these squares lose their piece (taken directly or enclosed) */
  removes?: string[];
  /** the game ends at once, so (winner 0 = Bottom, 1 = Top, -1 = draw) */
  result?: { winner: number; reason: string };
  /** afterwards the mover could take on each of these squares, were it its turn */
  threatens?: string[];
  /** afterwards no reply of the opponent takes anything on these squares */
  safe?: string[];
  /** afterwards some reply of the opponent takes on each of these squares */
  exposes?: string[];
};

export type Outcome = {
  after: string;
  removed: string[];
  result: PositionInfo['result'];
  /** squares the mover could take on next (asked only when wanted) */
  threats: string[];
  /** squares the opponent's replies take on (asked only when wanted) */
  unsafe: string[];
};

/** What a legal move takes, by the server's effects: the squares it
 *  captures on and those it encloses. */
function gone(l: PositionInfo['legal'][number]): string[] {
  return l.effects ? [...l.effects.captured, ...l.effects.removed] : [];
}

/** Squares that some legal move of `info` takes a piece from. */
function takenSquares(info: Info): string[] {
  const out = new Set<string>();
  for (const l of info.legal) for (const sq of gone(l)) out.add(sq);
  return [...out].sort();
}

/** After a move (`info`, the opponent to move): the squares the mover could
 *  take on were it its turn: the server's threats that stand on the
 *  opponent's pieces. */
function threatenedBy(info: Info): string[] {
  const pos = parsePosition(info.position);
  return (info.threats ?? []).filter((sq) => pieceAt(pos, sq)?.side === pos.toMove).sort();
}

/** Plays `move` on `before` through the engine. Throws if it is not legal. */
export async function outcome(ask: Ask, before: string, move: string, want: { threats?: boolean; replies?: boolean } = {}): Promise<Outcome> {
  const info = await ask(before);
  const entry = info.legal.find((l) => l.move === move);
  if (!entry) throw new Error(`${move} is not legal in ${before}`);
  const next = await ask(entry.after);
  return {
    after: entry.after,
    removed: gone(entry).sort(),
    result: next.result,
    threats: want.threats && !next.result.over ? threatenedBy(next) : [],
    unsafe: want.replies ? takenSquares(next) : [],
  };
}

/** Why the move's outcome falls short of the goal: [] when it meets it. */
export function goalFailures(goal: Goal, before: string, move: string, out: Outcome): string[] {
  const fails: string[] = [];
  const [from, to] = moveSquares(move);
  const piece = pieceAt(parsePosition(before), from);
  if (goal.piece && piece?.kind !== goal.piece) fails.push(`moves a ${piece?.kind ?? 'nothing'}, not a ${goal.piece}`);
  if (goal.to && to !== goal.to) fails.push(`ends on ${to}, not ${goal.to}`);
  if (goal.removes) {
    const want = [...goal.removes].sort().join(' ');
    if (out.removed.join(' ') !== want) fails.push(`removes [${out.removed.join(' ')}], not [${want}]`);
  }
  if (goal.result) {
    const r = out.result;
    if (!r.over || r.winner !== goal.result.winner || r.reason !== goal.result.reason)
      fails.push(`result ${r.over ? `${r.winner} ${r.reason}` : 'none'}, not ${goal.result.winner} ${goal.result.reason}`);
  } else if (out.result.over) {
    fails.push(`ends the game (${out.result.reason}) though the lesson does not say so`);
  }
  for (const sq of goal.threatens ?? []) if (!out.threats.includes(sq)) fails.push(`does not threaten ${sq}`);
  for (const sq of goal.safe ?? []) if (out.unsafe.includes(sq)) fails.push(`leaves ${sq} to be taken`);
  for (const sq of goal.exposes ?? []) if (!out.unsafe.includes(sq)) fails.push(`cannot be taken back on ${sq}`);
  return fails;
}

/** The outcome a goal needs asked for. */
export function wants(goal: Goal): { threats: boolean; replies: boolean } {
  return { threats: !!goal.threatens, replies: !!(goal.safe || goal.exposes) };
}
