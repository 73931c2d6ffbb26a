// review/stratego.ts -- replaying a finished Stratego game. Once a game is
// over the whole of it is public, so every position shows both armies' ranks;
// the move list carries what each combat showed (the game's `events`).

import { StrategoBoard } from '../stratego/board';
import { SIDE_NAMES, View, moveSquares, parseView } from '../stratego/notation';
import { h, reasonText, resultHeadline } from '../ui';
import { Replayer, ReviewGame, drawPlyList } from './replayer';

/** Why a Stratego game ended, in its own words (the Flag, not material). */
export function strategoReason(reason: string): string {
  if (reason === 'flag') return 'The Flag was captured';
  if (reason === 'no-moves') return 'No legal move left';
  if (reason === 'move-limit') return 'Move limit reached: a draw';
  return reasonText(reason);
}

export function strategoReplayer(host: HTMLElement, g: ReviewGame, positions: string[]): Replayer {
  const board = new StrategoBoard(host, { label: 'Stratego board, replay' });
  const total = positions.length - 1;
  const events = g.events ?? [];
  const views: (View | null)[] = positions.map((p) => {
    try {
      return parseView(p);
    } catch (e) {
      console.error('stratego: cannot read the position', p, e);
      return null;
    }
  });

  return {
    show(ply) {
      const v = views[ply];
      if (v) board.setView(v);
      else board.hide();
      board.clearMarks();
      if (ply > 0) {
        const squares = moveSquares(g.moves[ply - 1]);
        board.mark(squares, 'last');
        if (events[ply - 1]) board.mark([squares[1]], 'combat');
      }
    },
    describe(ply) {
      if (ply === 0) return 'Start position: both armies as they were set up';
      const ev = events[ply - 1];
      return `Move ${Math.floor((ply + 1) / 2)}, ${SIDE_NAMES[(ply - 1) % 2]}: ${g.moves[ply - 1]} (${ply} of ${total})${ev ? `. ${ev}` : ''}`;
    },
    drawList(list, ply, onPick) {
      drawPlyList(list, g.moves.slice(0, total).map((mv, i) => ({
        who: h('span', { class: `st-side st-side-${i % 2 ? 'blue' : 'red'}` }, SIDE_NAMES[i % 2]),
        move: mv,
        label: `Move ${Math.floor(i / 2) + 1}, ${SIDE_NAMES[i % 2]} ${mv}${events[i] ? `: ${events[i]}` : ''}`,
        words: events[i],
        cls: events[i] ? 'st-combat' : '',
      })), ply, onPick);
    },
    turnLabel: 'Flip board',
    turn() {
      board.setFlipped(!board.isFlipped());
    },
    resultWords(r) {
      return [resultHeadline(r, g.players, SIDE_NAMES), strategoReason(r.reason)];
    },
    destroy() {
      board.destroy();
    },
  };
}
