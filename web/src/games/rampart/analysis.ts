// games/rampart/analysis.ts -- Rampart on the analysis board
// (pages/analysis.ts): its own board, which has all the analysis board asks
// of a board, and the position editor's model drawn on it.

import type { AnalysisKit } from '../family';
import type { EditModel } from '../../analysis/editor';
import { Board } from './board';
import { editModel } from './editor';
import type { Position } from './notation';

export function analysisKit(host: HTMLElement): AnalysisKit {
  const board = new Board(host, { interactive: true });
  let model: EditModel<Position> | null = null;
  return {
    board,
    edit: (text) => (model = editModel(text)),
    showEdit: () => {
      if (model) board.show(model.drawn());
    },
  };
}
