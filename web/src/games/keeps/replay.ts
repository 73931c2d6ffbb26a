// games/keeps/replay.ts -- replaying a Keeps & Moats game: the four-kingdom board,
// each move in words ("Knight h3–i5 takes Red Pawn") with the kingdom that
// played it. Who moved is read from the position before the move, because a
// kingdom that is out is skipped in the turn order.

import { KeepsBoard } from './board';
import { KINGDOMS, Position, moveSquares, moveWords, parsePosition } from './notation';
import { keepsReason, kmResultHeadline, swatch } from './words';
import { h } from '../../ui';
import { Replayer, ReviewGame, drawPlyList } from '../../review/replayer';

export function keepsReplayer(host: HTMLElement, g: ReviewGame, positions: string[]): Replayer {
  const board = new KeepsBoard(host, { label: 'Keeps & Moats board, replay' });
  const total = positions.length - 1;
  const parsed: (Position | null)[] = positions.map((p) => {
    try {
      return parsePosition(p);
    } catch (e) {
      console.error('keeps-moats: cannot read the position', p, e);
      return null;
    }
  });
  const mover = (i: number) => parsed[i]?.toMove ?? i % 4;
  const words = (i: number) => moveWords(g.moves[i], parsed[i] ?? undefined);
  let viewer = 0;

  return {
    show(ply) {
      const p = parsed[ply];
      if (p) board.setPosition(p);
      board.setLast(ply > 0 ? moveSquares(g.moves[ply - 1]) : []);
    },
    describe(ply) {
      if (ply === 0) return 'Start position';
      const round = parsed[ply - 1]?.round;
      return `${round ? `Round ${round}, ` : ''}${KINGDOMS[mover(ply - 1)]}: ${words(ply - 1)} (${ply} of ${total})`;
    },
    drawList(list, ply, onPick) {
      drawPlyList(list, g.moves.slice(0, total).map((_, i) => ({
        who: h('span', { class: 'km-mover' }, swatch(mover(i)), KINGDOMS[mover(i)]),
        move: words(i),
        label: `Move ${i + 1}, ${KINGDOMS[mover(i)]}: ${words(i)}`,
      })), ply, onPick);
    },
    turnLabel: 'Turn board',
    turn() {
      // a quarter turn each press: each kingdom in turn at the bottom
      viewer = (viewer + 1) % 4;
      board.setViewer(viewer);
    },
    resultWords(r) {
      return [kmResultHeadline(r, g.teams ?? [0, 1, 2, 3]), keepsReason(r.reason)];
    },
    destroy() {
      board.destroy();
    },
  };
}
