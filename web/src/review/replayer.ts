// review/replayer.ts -- what the review page (pages/review.ts) needs from each
// game family (its `replayer`, games/<family>/replay.ts): a board that
// shows any position of the game read-only, the move list, and the words
// for a move and for the result. The page itself
// owns the buttons, the keyboard and the record export, alike for every game.

import type { Game, Result } from '../api';
import { h } from '../ui';

/** A finished (or live, for full-information games) game with every position
 *  from the start (index 0) to after the last move, from GET /api/games/ID/positions. */
export type ReviewGame = Game & { events?: (string | null)[]; teams?: number[] };

export interface Replayer {
  /** Draws the position after `ply` moves, marking the move that led to it. */
  show(ply: number): void;
  /** The status line for a position: "Move 3, Red: a4a5 (5 of 20)". */
  describe(ply: number): string;
  /** Fills `host` with the moves, the one leading to `ply` highlighted;
   *  each move is a button that jumps to the position after it. */
  drawList(host: HTMLElement, ply: number, onPick: (ply: number) => void): void;
  /** The button that turns the board to another player's side. */
  turnLabel: string;
  turn(): void;
  /** The result as a headline and the reason in words. */
  resultWords(r: Result): [string, string];
  destroy(): void;
}

/** "red" -> "Red": the server's side names as the page shows them. */
export function sideTitle(g: Game, side: number, fallback: string[]): string {
  const s = g.sides?.[side];
  return s ? s[0].toUpperCase() + s.slice(1) : fallback[side] ?? `Side ${side + 1}`;
}

/** One line per move: who moved, the move as a button, and any words under
 *  it. Keeps the current move in view inside the list without scrolling the page. */
export function drawPlyList(host: HTMLElement, items: { who: Node; move: string; label: string; words?: string | null; cls?: string }[],
  current: number, onPick: (ply: number) => void): void {
  const ol = h('ol', {});
  items.forEach((it, i) => {
    const here = i + 1 === current;
    ol.append(h('li', { class: it.cls ?? '' }, it.who, ' ',
      h('button', { type: 'button', class: `mv${here ? ' current' : ''}`, 'aria-label': it.label, 'aria-current': here ? 'step' : null, onclick: () => onPick(i + 1) }, it.move),
      it.words ? h('span', { class: 'st-event' }, it.words) : null));
  });
  host.replaceChildren(items.length ? ol : h('p', { class: 'empty' }, 'No moves were played.'));
  const cur = host.querySelector<HTMLElement>('.current');
  if (cur) host.scrollTop = cur.offsetTop - host.clientHeight / 2;
  else if (current >= items.length) host.scrollTop = host.scrollHeight;
}
