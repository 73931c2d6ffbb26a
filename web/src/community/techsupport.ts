// community/techsupport.ts -- each game's "Technical Support" help page:
// where to ask (the game's board, the Technical Support board, /support)
// and answers to what players ask most, those of one game (its family's
// `support`, games/<family>/) among them. Each family registers its page:
// /rampart/help/support, /stratego/help/support, and Keeps & Moats's as one
// of its help pages (games/keeps/help.ts). Every answer says what this server
// really does (docs/api.md): there is no password reset by mail, the clocks
// are the server's, ratings are Elo from 1500.

import { h, link } from '../ui';
import type { GameFamily, QA } from '../games/family';

/** The game a Technical Support page is about: its family's name, words
 *  and what its page says of it alone (games/family.ts). */
export type HelpGame = Pick<GameFamily, 'slug' | 'title' | 'rules' | 'support'>;

function questions(game: HelpGame): QA[] {
  const name = game.title;
  const w = game.support;
  const out: QA[] = [
    { id: 'bug', q: 'How do I report a bug?', a: [
      h('p', {}, 'Write to ', link('/support?kind=bug', 'Support'), ' and choose "Something does not work". Say what you did, what you expected and what happened instead, which browser and device you use, and, if it happened in a game, the game\'s number: the end of its address (/game/42).'),
      h('p', {}, 'You can also ask on the ', link('/forum/support', 'Technical Support board'), ', where other players may have seen the same thing.')] },
    { id: 'password', q: 'I lost my password. Can I get a new one?', a: [
      h('p', {}, 'Not by e-mail yet: the site cannot send a password reset link. Write to ', link('/support?kind=account', 'Support'), ' and choose "My account", with your player name and an e-mail address we can answer at; the staff will help you get back in.'),
      h('p', {}, 'Until then you can still play as a guest (unrated games only).')] },
  ];
  out.push(w.time?.() ?? { id: 'time', q: 'Why did I lose on time?', a: [
    h('p', {}, 'The clocks are kept by the server, not by your browser: your clock runs from when the server stored your opponent\'s move until it receives yours (less up to a tenth of a second for the connection). It runs even while your page is closed or reconnecting. When it reaches zero you lose.'),
    w.timeNote?.() ?? null,
    h('p', {}, 'If you have no page open on the game while it is your turn for a minute, you lose as if your time had run out (reason "abandoned"). Coming back in time changes nothing.')] });
  out.push(w.ratings?.() ?? { id: 'ratings', q: 'How do ratings work?', a: [
    h('p', {}, `${name} ratings are Elo ratings: people start at 1500, the site's own Rampart bots at their measured strength (level 1 at 1500, level 6 near 3000), every other bot at 1500; a win against a stronger player gains more than one against a weaker player, and a loss costs the same way. Only rated games count, and a game can be rated only between two different players signed in to accounts; guests play unrated games.`),
    w.ratingsNote?.() ?? null,
    h('p', {}, 'Your page (your name at the top right) shows your ratings and how each rated game changed them.')] });
  out.push({ id: 'report', q: 'How do I report a player?', a: [
    h('p', {}, 'Signed in to an account, press "Report" next to what they wrote: a post on the forum, or a line in a game\'s chat. To report a player for something else (their name, how they play), press "Report this player" on their page (click their name). Say why in a few words; a moderator reads every report.'),
    h('p', {}, 'Moderators can hide posts and chat lines, lock threads and mute players.')] });
  out.push(...(w.extra?.() ?? []));
  out.push({ id: 'connection', q: 'The page says "Reconnecting" or a game will not load.', a: [
    h('p', {}, 'The game goes on at the server while your connection is away; when it comes back, the page fetches the game again, with every move and the clocks as they stand. Reload the page if it stays stuck. If it still does not work, ', link('/support?kind=bug', 'tell us'), '.')] });
  return out;
}

/** The page's sections (without its heading and navigation). */
export function techSupportBody(game: HelpGame): (Node | string)[] {
  const [rules, rulesTitle] = game.rules;
  const qs = questions(game);
  return [
    h('section', { class: 'panel tech-where', id: 'support-where' },
      h('h2', {}, 'Where to ask'),
      h('ul', {},
        h('li', {}, link(`/forum/${game.slug}`, `The ${game.title} board`), ': questions about the game, for everyone to answer.'),
        h('li', {}, link('/forum/support', 'The Technical Support board'), ': problems with the site, in public.'),
        h('li', {}, link('/support', 'Support'), ': write to the site\'s staff in private (your account, a bug, anything else).'),
        h('li', {}, link(rules, rulesTitle), ': the rules.'))),
    h('h2', {}, 'Questions players ask'),
    h('ul', { class: 'tech-toc' }, ...qs.map((x) => h('li', {}, h('a', { href: `#faq-${x.id}` }, x.q)))),
    ...qs.map((x) => h('section', { class: 'faq', id: `faq-${x.id}` }, h('h3', {}, x.q), ...x.a)),
  ];
}

/** A game's Technical Support page, whole. */
export function renderTechSupport(host: HTMLElement, game: HelpGame): void {
  const [rules, rulesTitle] = game.rules;
  host.append(
    h('nav', { class: 'crumbs', 'aria-label': 'Where you are' }, link(rules, rulesTitle), ' › Technical Support'),
    h('h1', {}, `${game.title}: Technical Support`),
    ...techSupportBody(game),
    h('p', {}, link(rules, rulesTitle), ' · ', link('/', 'Back to the start page')));
}
