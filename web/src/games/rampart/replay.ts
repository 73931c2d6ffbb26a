// games/rampart/replay.ts -- replaying a Rampart game: the Rampart board with the
// last move and the pieces it took marked (the server's effects of each
// move), and the two-column move list.

import { Board } from './board';
import type { Effects } from '../../gen/api';
import { SIDE_TITLES, reasonText, resultHeadline } from '../../ui';
import { drawMoveList } from '../../movelist';
import { Replayer, ReviewGame } from '../../review/replayer';

export function rampartReplayer(host: HTMLElement, g: ReviewGame, positions: string[],
  effects: (Effects | null)[]): Replayer {
  const board = new Board(host, { interactive: false });
  const total = positions.length - 1;
  return {
    show(ply) {
      board.setPosition(positions[ply]);
      board.clearMarks();
      const e = ply > 0 ? effects[ply - 1] : null;
      if (e) {
        // what the server says the move did (docs/api.md: effects)
        board.mark([e.from, e.to], 'last');
        board.mark([...e.captured, ...e.removed], 'captured');
      }
    },
    describe(ply) {
      if (ply === 0) return 'Start position';
      return `Move ${Math.floor((ply + 1) / 2)}, ${SIDE_TITLES[(ply - 1) % 2]}: ${g.moves[ply - 1]} (${ply} of ${total})`;
    },
    drawList(list, ply, onPick) {
      drawMoveList(list, g.moves.slice(0, total), ply, onPick);
    },
    turnLabel: 'Flip board',
    turn() {
      board.setFlipped(!board.isFlipped());
    },
    resultWords(r) {
      return [resultHeadline(r, g.players, g.sides ?? SIDE_TITLES), reasonText(r.reason)];
    },
    destroy() {
      board.destroy();
    },
  };
}
