// games/stratego/analysis.ts -- Stratego on the analysis board
// (pages/analysis.ts): from a full position or from one player's view, the
// moves whose combat the view cannot know left out, and what the bot
// believes of each hidden piece written on its square.

import type { AnalysisKit, AnalysisBoard } from '../family';
import type { EditModel } from '../../analysis/editor';
import { StrategoBoard } from './board';
import { beliefNotes } from './belief';
import { editModel } from './editor';
import { View, moveSquares, parseView, squareIndex } from './notation';

/** Stratego's board as the analysis board uses it, with the bot's belief
 *  about hidden pieces written on their squares. */
class StrategoAnalysisBoard implements AnalysisBoard {
  onMove: ((move: string) => void) | null = null;
  private board: StrategoBoard;

  constructor(host: HTMLElement) {
    this.board = new StrategoBoard(host, { label: 'Stratego board, analysis' });
    this.board.onMove = (m) => this.onMove?.(m);
  }
  setPosition(text: string): void {
    this.board.setView(parseView(text));
  }
  /** A position being made in the editor, drawn as it stands. */
  showEdit(view: View): void {
    this.board.setView(view);
  }
  setLegal(moves: string[]): void {
    this.board.setLegal(moves);
  }
  clearMarks(): void {
    this.board.clearMarks();
  }
  mark(squares: string[], kind: string): void {
    if (kind === 'last') this.board.mark(squares, 'last');
    else if (kind === 'captured') this.board.mark(squares, 'combat');
  }
  setFlipped(f: boolean): void {
    this.board.setFlipped(f);
  }
  isFlipped(): boolean {
    return this.board.isFlipped();
  }
  setNotes(notes: Map<string, { short: string; long: string }>): void {
    this.board.setNotes(notes);
  }
  destroy(): void {
    this.board.destroy();
  }
}

/** The side whose view a Stratego string is (every piece of it known),
 *  or -1 for a full position (every piece of both sides known). */
function viewerOf(v: View): number {
  const unknown = [false, false];
  for (const c of v.cells) if (c && c !== 'lake' && c.kind === 'X') unknown[c.side] = true;
  return unknown[0] === unknown[1] ? -1 : unknown[0] ? 1 : 0;
}

/** Whether a move's outcome is known on a view: no unknown piece attacks
 *  or is attacked. */
function known(text: string, move: string): boolean {
  const view = parseView(text);
  const [a, b] = moveSquares(move).map((x) => view.cells[squareIndex(x)]);
  return !(a && b && a !== 'lake' && b !== 'lake' && (a.kind === 'X' || b.kind === 'X'));
}

export function analysisKit(host: HTMLElement): AnalysisKit {
  const board = new StrategoAnalysisBoard(host);
  let model: EditModel<View> | null = null;
  return {
    board,
    edit: (text) => (model = editModel(text)),
    showEdit: () => {
      if (model) board.showEdit(model.drawn());
    },
    views: {
      viewer: (text) => viewerOf(parseView(text)),
      known,
      setBelief: (text) => board.setNotes(text ? beliefNotes(text) : new Map()),
    },
  };
}
