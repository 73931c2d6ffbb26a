// community/techsupport.ts -- each game's "Technical Support" help page:
// where to ask (the game's board, the Technical Support board, /support)
// and answers to what players ask most. Rampart's is /rampart/help/support,
// Stratego's /stratego/help/support, Keeps & Moats's /keeps/help/support
// (one of its help pages, keeps/help.ts). Every answer says what this server
// really does (docs/api.md): there is no password reset by mail, the clocks
// are the server's, ratings are Elo from 1500.

import { route } from '../router';
import { h, link } from '../ui';

export type HelpGame = 'rampart' | 'stratego' | 'keeps';

const NAMES: Record<HelpGame, string> = { rampart: 'Rampart', stratego: 'Stratego', keeps: 'Keeps & Moats' };
const RULES: Record<HelpGame, [string, string]> = {
  rampart: ['/learn', 'Learn Rampart'],
  stratego: ['/stratego/help', 'How to play Stratego'],
  keeps: ['/keeps/help', 'How to play Keeps & Moats'],
};

type QA = { id: string; q: string; a: (Node | string | null)[] };

function questions(game: HelpGame): QA[] {
  const name = NAMES[game];
  const out: QA[] = [
    { id: 'bug', q: 'How do I report a bug?', a: [
      h('p', {}, 'Write to ', link('/support?kind=bug', 'Support'), ' and choose "Something does not work". Say what you did, what you expected and what happened instead, which browser and device you use, and, if it happened in a game, the game\'s number: the end of its address (/game/42).'),
      h('p', {}, 'You can also ask on the ', link('/forum/support', 'Technical Support board'), ', where other players may have seen the same thing.')] },
    { id: 'password', q: 'I lost my password. Can I get a new one?', a: [
      h('p', {}, 'Not by e-mail yet: the site cannot send a password reset link. Write to ', link('/support?kind=account', 'Support'), ' and choose "My account", with your player name and an e-mail address we can answer at; the staff will help you get back in.'),
      h('p', {}, 'Until then you can still play as a guest (unrated games only).')] },
  ];
  if (game === 'keeps') {
    out.push({ id: 'time', q: 'What happens when a clock runs out?', a: [
      h('p', {}, 'The clocks are kept by the server, not by your browser, and each kingdom\'s runs only on its turn. When one reaches zero, or a player is away (no open page) on their turn for a minute, the game ends with the board\'s own verdict: the rules of Keeps & Moats say nothing about clocks, so an unfinished game ends drawn among the kingdoms still in.'),
      h('p', {}, 'A slow or broken connection still costs time: the server counts from when it sent the last move. If the page says "Reconnecting", the game goes on at the server; moves and clocks catch up once you are back.')] });
  } else {
    out.push({ id: 'time', q: 'Why did I lose on time?', a: [
      h('p', {}, 'The clocks are kept by the server, not by your browser: your clock runs from when the server stored your opponent\'s move until it receives yours (less up to a tenth of a second for the connection). It runs even while your page is closed or reconnecting. When it reaches zero you lose.'),
      game === 'rampart'
        ? h('p', {}, 'In Rampart, a game where no game material has been captured when a flag falls is instead a sterile draw (rule R8), which changes no rating.')
        : null,
      h('p', {}, 'If you have no page open on the game while it is your turn for a minute, you lose as if your time had run out (reason "abandoned"). Coming back in time changes nothing.')] });
  }
  out.push({ id: 'ratings', q: 'How do ratings work?', a: game === 'keeps' ? [
    h('p', {}, 'Keeps & Moats games are never rated. Rampart and Stratego have Elo ratings and ', link('/ladder/rampart', 'ladders'), '.')] : [
    h('p', {}, `${name} ratings are Elo ratings: everyone starts at 1500, a win against a stronger player gains more than one against a weaker player, and a loss costs the same way. Only rated games count, and a game can be rated only between two different players signed in to accounts; guests play unrated games.`),
    game === 'rampart'
      ? h('p', {}, 'A sterile draw (no game material was lost, rule R8) changes nothing. Rampart Classic and Rampart XL have ladders of their own: ', link('/ladder/rampart', 'the Rampart ladder'), '.')
      : h('p', {}, 'See ', link('/ladder/stratego', 'the Stratego ladder'), '.'),
    h('p', {}, 'Your page (your name at the top right) shows your ratings and how each rated game changed them.')] });
  out.push({ id: 'report', q: 'How do I report a player?', a: [
    h('p', {}, 'Signed in to an account, press "Report" next to what they wrote: a post on the forum, or a line in a game\'s chat. To report a player for something else (their name, how they play), press "Report this player" on their page (click their name). Say why in a few words; a moderator reads every report.'),
    h('p', {}, 'Moderators can hide posts and chat lines, lock threads and mute players.')] });
  if (game === 'stratego') {
    out.push({ id: 'cover', q: 'Why is the board covered between turns?', a: [
      h('p', {}, 'In a game of two players on one device, each player must not see the other\'s ranks. After every move the board is covered and the cover tells the next player what the last move was and what any combat showed; the board appears only when that player presses "I am Red" or "I am Blue". Pass the device, and look away while the other player is on their turn.'),
      h('p', {}, 'Games against a bot or against someone on another device are never covered: each player sees only their own ranks there anyway.')] });
  }
  if (game === 'keeps') {
    out.push({ id: 'rated', q: 'Why can I not play Keeps & Moats rated?', a: [
      h('p', {}, 'Ratings measure one player against another; with four kingdoms, allies and bots at one table, a rating would not say much. Every Keeps & Moats game is unrated.')] });
  }
  out.push({ id: 'connection', q: 'The page says "Reconnecting" or a game will not load.', a: [
    h('p', {}, 'The game goes on at the server while your connection is away; when it comes back, the page fetches the game again, with every move and the clocks as they stand. Reload the page if it stays stuck. If it still does not work, ', link('/support?kind=bug', 'tell us'), '.')] });
  return out;
}

/** The page's sections (without its heading and navigation). */
export function techSupportBody(game: HelpGame): (Node | string)[] {
  const [rules, rulesTitle] = RULES[game];
  const qs = questions(game);
  return [
    h('section', { class: 'panel tech-where', id: 'support-where' },
      h('h2', {}, 'Where to ask'),
      h('ul', {},
        h('li', {}, link(`/forum/${game}`, `The ${NAMES[game]} board`), ': questions about the game, for everyone to answer.'),
        h('li', {}, link('/forum/support', 'The Technical Support board'), ': problems with the site, in public.'),
        h('li', {}, link('/support', 'Support'), ': write to the site\'s staff in private (your account, a bug, anything else).'),
        h('li', {}, link(rules, rulesTitle), ': the rules.'))),
    h('h2', {}, 'Questions players ask'),
    h('ul', { class: 'tech-toc' }, ...qs.map((x) => h('li', {}, h('a', { href: `#faq-${x.id}` }, x.q)))),
    ...qs.map((x) => h('section', { class: 'faq', id: `faq-${x.id}` }, h('h3', {}, x.q), ...x.a)),
  ];
}

/** /rampart/help/support and /stratego/help/support. */
export function renderTechSupport(host: HTMLElement, game: HelpGame): void {
  const [rules, rulesTitle] = RULES[game];
  host.append(
    h('nav', { class: 'crumbs', 'aria-label': 'Where you are' }, link(rules, rulesTitle), ' › Technical Support'),
    h('h1', {}, `${NAMES[game]}: Technical Support`),
    ...techSupportBody(game),
    h('p', {}, link(rules, rulesTitle), ' · ', link('/', 'Back to the start page')));
}

route(/^\/stratego\/help\/support\/?$/, (host) => renderTechSupport(host, 'stratego'), 'Stratego: Technical Support');
route(/^\/rampart\/help\/support\/?$/, (host) => renderTechSupport(host, 'rampart'), 'Rampart: Technical Support');
