// games/keeps/index.ts -- Keeps & Moats Chess as the page's registry
// (games/index.ts) knows it: its board, game page, table form, replay and
// analysis kit, its help pages (Technical Support one of them), its words.

import type { Setting } from '../../engine/engine';
import type { GameFamily } from '../family';
import { renderKeepsGame } from './game';
import { keepsReplayer } from './replay';
import { analysisKit } from './analysis';
import { tableFields, tableList } from './table';
import { keepsHelpGame } from './support';
import { GAME_TYPES, KING_RESULTS, KING_RESULT_ORDER, KINGDOMS } from './notation';
import './help';  // /keeps/help registers itself

/** The names of a setting's values in words: the engine's labels, and the
 *  Captured King Result's, which the engine does not name. */
function settingWords(o: Setting): string[] {
  const labels = o.labels.length ? o.labels : o.name === 'KingResult' ? KING_RESULT_ORDER : [];
  return labels.map((l) => GAME_TYPES[l] ?? KING_RESULTS[l] ?? l);
}

export const keeps: GameFamily = {
  name: 'keeps-moats',
  ...keepsHelpGame,
  card: {
    title: 'Keeps & Moats Chess',
    about: 'Chess for four kingdoms on one board, each behind its Keep and Moat: every kingdom for itself or two teams of two, with people and bots at the table. Never rated.',
    learn: ['/keeps/help', 'How to play Keeps & Moats'],
  },
  sideNames: KINGDOMS,
  menu: (vs) => [['Keeps & Moats Chess', vs, '(four kingdoms, never rated)']],
  form: { limitLabel: 'Move limit (full moves, then decided by material)', sides: ['Bottom (moves first)', 'Top'],
    link: ['/keeps/help', 'How to play Keeps & Moats'], table: { fields: tableFields, list: tableList } },
  // in rounds of four moves
  limitWords: (n) => `${n} ${n === 1 ? 'round' : 'rounds'} at most`,
  limitTerms: (n) => `${n} full moves, then decided by material`,
  renderGame: (host, id, first) => renderKeepsGame(host, id, first),
  replayer: (host, g, data) => keepsReplayer(host, g, data.positions),
  analysable: () => true,
  review: { how: 'multi', sides: KINGDOMS, stored: false, readsAll: true },
  analysis: { make: analysisKit, how: 'multi', depth: 5, limitHelp: 'Move limit (rounds; 0: none)', settingWords },
};
