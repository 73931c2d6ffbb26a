// games/keeps/support.ts -- what Keeps & Moats's Technical Support page
// (community/techsupport.ts, one of its help pages) says of it alone: its
// clocks end a game drawn among the kingdoms still in, and it is never rated.

import { h, link } from '../../ui';
import type { HelpGame } from '../../community/techsupport';

export const keepsHelpGame: HelpGame = {
  slug: 'keeps',
  title: 'Keeps & Moats',
  rules: ['/keeps/help', 'How to play Keeps & Moats'],
  support: {
    time: () => ({ id: 'time', q: 'What happens when a clock runs out?', a: [
      h('p', {}, 'The clocks are kept by the server, not by your browser, and each kingdom\'s runs only on its turn. When one reaches zero, or a player is away (no open page) on their turn for a minute, the game ends with the board\'s own verdict: the rules of Keeps & Moats say nothing about clocks, so an unfinished game ends drawn among the kingdoms still in.'),
      h('p', {}, 'A slow or broken connection still costs time: the server counts from when it sent the last move. If the page says "Reconnecting", the game goes on at the server; moves and clocks catch up once you are back.')] }),
    ratings: () => ({ id: 'ratings', q: 'How do ratings work?', a: [
      h('p', {}, 'Keeps & Moats games are never rated. Rampart and Stratego have Elo ratings and ', link('/ladder/rampart', 'ladders'), '.')] }),
    extra: () => [{ id: 'rated', q: 'Why can I not play Keeps & Moats rated?', a: [
      h('p', {}, 'Ratings measure one player against another; with four kingdoms, allies and bots at one table, a rating would not say much. Every Keeps & Moats game is unrated.')] }],
  },
};
