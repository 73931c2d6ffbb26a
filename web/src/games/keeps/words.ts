// games/keeps/words.ts -- Keeps & Moats in words for people, shared by its
// game page, its replay and its help: teams, results, reasons, the K5
// choices, and each kingdom's colour swatch. It reads strings through
// notation.ts and judges nothing.

import type { Result } from '../../api';
import { h, reasonText } from '../../ui';
import { KINGDOMS, KIND_NAMES, Position, parseMove, pieceName } from './notation';

/** The names of a team's kingdoms: "White and Blue". */
export function teamWords(team: number, teams: number[]): string {
  const ks = KINGDOMS.filter((_, i) => teams[i] === team);
  return ks.length > 1 ? ks.slice(0, -1).join(', ') + ' and ' + ks[ks.length - 1] : ks[0] ?? `Team ${team}`;
}

export function kmResultHeadline(r: Result, teams: number[]): string {
  if (r.winner < 0) return 'Draw';
  const words = teamWords(r.winner, teams);
  return `${words} ${words.includes(' and ') ? 'win' : 'wins'}`;
}

export function swatch(kingdom: number): HTMLElement {
  return h('span', { class: `km-swatch km-s${kingdom}`, 'aria-hidden': 'true' });
}

/** What each K5 choice does, in words for the dialog's buttons. */
export function choiceWords(move: string, pos: Position | null): string {
  const m = parseMove(move);
  if (!m || m === 'pass') return move;
  if (m.choice?.release) return `Release your ${KIND_NAMES[m.choice.release.kind]}` + (m.choice.release.kingdom !== pos?.toMove ? ` (${KINGDOMS[m.choice.release.kingdom]}'s)` : '');
  if (m.choice?.assassinate) {
    const v = pos?.board.get(m.choice.assassinate);
    return `Assassinate ${v ? `the ${pieceName(v)}` : 'the piece'} on ${m.choice.assassinate}`;
  }
  return 'Just leave the board';
}

export function keepsReason(reason: string): string {
  if (reason === 'kings') return 'Every King left belongs to one side';
  if (reason === 'move-limit') return 'The move limit was reached: a draw among the kingdoms still in';
  return reasonText(reason);
}

