// games/rampart/index.ts -- Rampart as the page's registry (games/index.ts)
// knows it: its board, game page, replay and analysis kit, its Learn
// section (games/rampart/learn/) and Technical Support page, its words.

import { h, link, SIDE_TITLES } from '../../ui';
import { route } from '../../router';
import { renderTechSupport } from '../../community/techsupport';
import type { GameFamily } from '../family';
import { renderGame } from './game';
import { rampartReplayer } from './replay';
import { analysisKit } from './analysis';
import './learn/index';  // /learn registers itself

export const rampart: GameFamily = {
  name: 'rampart',
  slug: 'rampart',
  title: 'Rampart',
  rules: ['/learn', 'Learn Rampart'],
  card: {
    title: 'Rampart',
    about: 'A quick game of capture and enclosure on a small board: Queens take Knights, Knights take Kings, Kings take Queens, and a piece walled in on all four sides is removed. Classic and XL can be rated; the Fun Zone has four more boards.',
    learn: ['/learn', 'Learn to play (lessons)'],
  },
  sideNames: SIDE_TITLES,
  // its rated boards, then its Fun Zone
  menu: (vs) => [['Rampart', vs.filter((v) => v.rated)], ['Rampart Fun Zone', vs.filter((v) => !v.rated), '(other boards, never rated)']],
  form: { limitLabel: 'Move limit (full moves, then decided by material)', sides: ['Bottom (moves first)', 'Top'] },
  // in full moves (R7.3)
  limitWords: (n) => `${n} move limit`,
  limitTerms: (n) => `${n} full moves, then decided by material`,
  learnHint: () => h('p', {}, 'New to Rampart? ', link('/learn', 'Learn to play'), ' first: short lessons with boards to try.'),
  support: {
    timeNote: () => h('p', {}, 'In Rampart, a game where no game material has been captured when a flag falls is instead a sterile draw (rule R8), which changes no rating.'),
    ratingsNote: () => h('p', {}, 'A sterile draw (no game material was lost, rule R8) changes nothing. Rampart Classic and Rampart XL have ladders of their own: ', link('/ladder/rampart', 'the Rampart ladder'), '.'),
  },
  renderGame: (host, id, first) => renderGame(host, String(id), first),
  replayer: (host, g, data) => rampartReplayer(host, g, data.positions, data.effects),
  analysable: () => true,
  review: { how: 'search', sides: SIDE_TITLES, stored: true, readsAll: false },
  analysis: { make: analysisKit, how: 'search', depth: 14, limitHelp: 'Move limit (0: none)' },
};

route(/^\/rampart\/help\/support\/?$/, (host) => renderTechSupport(host, rampart), 'Rampart: Technical Support');
