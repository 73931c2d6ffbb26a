// games/keeps/analysis.ts -- Keeps & Moats on the analysis board
// (pages/analysis.ts): its board turned to each kingdom in turn, and the
// position editor's model drawn on it.

import type { AnalysisKit, AnalysisBoard } from '../family';
import type { EditModel } from '../../analysis/editor';
import type { Setting } from '../../engine/engine';
import { KeepsBoard } from './board';
import { editModel } from './editor';
import { GAME_TYPE_ORDER, KING_RESULT_ORDER, KINGDOMS, Position, parsePosition as parseKeeps } from './notation';

/** Keeps & Moats's board as the analysis board uses it: "flip" turns it to
 *  the next kingdom, the last move is marked, and of several moves between
 *  the same two squares (a Pawn's promotion) the first is played. */
class KeepsAnalysisBoard implements AnalysisBoard {
  onMove: ((move: string) => void) | null = null;
  private board: KeepsBoard;
  private viewer = 0;

  constructor(host: HTMLElement) {
    this.board = new KeepsBoard(host);
    this.board.onMove = (moves) => this.onMove?.(moves[0]);
  }
  setPosition(text: string): void {
    this.board.setPosition(parseKeeps(text));
  }
  /** A position being made in the editor, drawn as it stands. */
  showEdit(pos: Position): void {
    this.board.setPosition(pos);
  }
  setLegal(moves: string[]): void {
    this.board.setLegal(moves);
  }
  clearMarks(): void {
    this.board.setLast([]);
  }
  mark(squares: string[], kind: string): void {
    if (kind === 'last') this.board.setLast(squares);
  }
  setFlipped(): void {
    this.viewer = (this.viewer + 1) % KINGDOMS.length;
    this.board.setViewer(this.viewer);
  }
  isFlipped(): boolean {
    return this.viewer !== 0;
  }
  destroy(): void {
    this.board.destroy();
  }
}

/** A setting the position string carries, at the start of the line. */
function settingValue(o: Setting, text: string): number | undefined {
  const p = parseKeeps(text);
  if (o.name === 'GameType') return Math.max(0, GAME_TYPE_ORDER.indexOf(p.gameType));
  if (o.name === 'KingResult') return Math.max(0, KING_RESULT_ORDER.indexOf(p.kingResult));
  if (o.name === 'MoveLimit') return p.limit;
  return undefined;
}

export function analysisKit(host: HTMLElement): AnalysisKit {
  const board = new KeepsAnalysisBoard(host);
  let model: EditModel<Position> | null = null;
  return {
    board,
    edit: (text) => (model = editModel(text)),
    showEdit: () => {
      if (model) board.showEdit(model.drawn());
    },
    settingValue,
  };
}
