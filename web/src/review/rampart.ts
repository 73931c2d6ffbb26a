// review/rampart.ts -- replaying a Rampart game: the Rampart board with the
// last move and the pieces it took marked, and the two-column move list.

import { Board } from '../board';
import { diffCaptured, moveSquares } from '../rampart';
import { SIDE_TITLES, reasonText, resultHeadline } from '../ui';
import { drawMoveList } from '../movelist';
import { Replayer, ReviewGame } from './replayer';

export function rampartReplayer(host: HTMLElement, g: ReviewGame, positions: string[]): Replayer {
  const board = new Board(host, { interactive: false });
  const total = positions.length - 1;
  return {
    show(ply) {
      board.setPosition(positions[ply]);
      board.clearMarks();
      if (ply > 0) {
        board.mark(moveSquares(g.moves[ply - 1]), 'last');
        board.mark(diffCaptured(positions[ply - 1], positions[ply]), 'captured');
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
