// games/stratego/index.ts -- Stratego as the page's registry (games/index.ts)
// knows it: its board, game page (with the private setup), replay and
// analysis kit, its help and Technical Support pages, its words.

import { h, link } from '../../ui';
import { route } from '../../router';
import { renderTechSupport } from '../../community/techsupport';
import type { GameFamily } from '../family';
import { renderStrategoGame } from './game';
import { strategoReplayer } from './replay';
import { analysisKit } from './analysis';
import { SIDE_NAMES } from './notation';
import './help';  // /stratego/help registers itself

export const stratego: GameFamily = {
  name: 'stratego',
  slug: 'stratego',
  title: 'Stratego',
  rules: ['/stratego/help', 'How to play Stratego'],
  card: {
    title: 'Stratego',
    about: 'The game of hidden armies: arrange your forty pieces in secret, then find and capture the enemy Flag. A piece shows its rank only when it fights.',
    learn: ['/stratego/help', 'How to play Stratego'],
  },
  sideNames: SIDE_NAMES,
  menu: (vs) => [['Stratego', vs]],
  // its move limit counts single moves, any number (docs/stratego.md, S7): these are offered
  form: { limitLabel: 'Move limit (single moves, then a draw)', limits: [1000, 500, 2000], sides: ['Red (moves first)', 'Blue'],
    link: ['/stratego/help', 'How to play Stratego'] },
  limitWords: (n) => `a draw after ${n} moves`,
  limitTerms: (n) => `${n} single moves, then a draw`,
  learnHint: () => h('p', {}, 'New to Stratego? ', link('/stratego/help', 'Read how to play'), ' first.'),
  support: {
    ratingsNote: () => h('p', {}, 'See ', link('/ladder/stratego', 'the Stratego ladder'), '.'),
    extra: () => [{ id: 'cover', q: 'Why is the board covered between turns?', a: [
      h('p', {}, 'In a game of two players on one device, each player must not see the other\'s ranks. After every move the board is covered and the cover tells the next player what the last move was and what any combat showed; the board appears only when that player presses "I am Red" or "I am Blue". Pass the device, and look away while the other player is on their turn.'),
      h('p', {}, 'Games against a bot or against someone on another device are never covered: each player sees only their own ranks there anyway.')] }],
  },
  renderGame: (host, id, first) => renderStrategoGame(host, id, first),
  replayer: (host, g, data) => strategoReplayer(host, g, data.positions),
  // its positions are whole only once the game is over
  analysable: (g) => g.status === 'over',
  review: { how: 'bot', sides: SIDE_NAMES, stored: false, readsAll: true },
  analysis: { make: analysisKit, how: 'bot', depth: 7, limitHelp: 'Move limit (0: none)' },
};

route(/^\/stratego\/help\/support\/?$/, (host) => renderTechSupport(host, stratego), 'Stratego: Technical Support');
