// pages/player.ts -- a player's ratings, rating history and games.

import { api, GameSummary } from '../api';
import { h, link, errorText, formatDate, formatTimeControl, reasonText, resultScore, playerName } from '../ui';
import { ratingChart } from '../chart';

const TITLES: Record<string, string> = { rampart: 'Rampart Classic', 'rampart-xl': 'Rampart XL' };

export async function renderPlayer(host: HTMLElement, nameText: string): Promise<void> {
  const name = nameText;
  host.append(h('h1', {}, name));
  let page;
  try {
    page = await api.player(name);
  } catch (e) {
    host.append(h('p', { class: 'error' }, errorText(e)));
    return;
  }
  const p = page.player;
  if (p.bot) host.append(h('p', { class: 'hint' }, 'A bot: a computer player.'));
  else if (p.guest) host.append(h('p', { class: 'hint' }, 'A guest: plays unrated games only.'));

  host.append(h('h2', {}, 'Ratings'));
  if (!page.ratings.length) host.append(h('p', { class: 'empty' }, 'No rated games yet.'));
  else {
    host.append(h('table', { id: 'ratings' },
      h('thead', {}, h('tr', {}, h('th', {}, 'Game'), h('th', { class: 'num' }, 'Rating'), h('th', { class: 'num' }, 'Rated games'))),
      h('tbody', {}, ...page.ratings.map((r) => h('tr', { 'data-variant': r.variant },
        h('td', {}, link(`/ladder/${r.variant}`, TITLES[r.variant] ?? r.variant)),
        h('td', { class: 'num rating' }, Math.round(r.rating)),
        h('td', { class: 'num' }, r.games))))));
  }
  for (const [variant, points] of Object.entries(page.history ?? {})) {
    if (!points.length) continue;
    const t = TITLES[variant] ?? variant;
    const now = Math.round(points[points.length - 1].after);
    host.append(h('h2', {}, `${t}: rating history`),
      h('div', { class: 'chart' }, ratingChart(points, `${p.name}'s ${t} rating over ${points.length} games, now ${now}`)));
  }

  host.append(h('h2', {}, 'Games'));
  const table = h('tbody');
  const more = h('button', { type: 'button', id: 'more-games' }, 'Show older games');
  host.append(h('table', { id: 'games' },
    h('thead', {}, h('tr', {}, h('th', {}, 'Date'), h('th', {}, 'Players'), h('th', {}, 'Game'), h('th', {}, 'Result'), h('th', {}, ''))),
    table), more);
  let offset = 0;

  const row = (g: GameSummary) => h('tr', {},
    h('td', {}, formatDate(g.ended || g.created)),
    h('td', {}, g.players.map(playerName).join(' vs ')),
    h('td', {}, `${TITLES[g.variant] ?? g.variant}, ${formatTimeControl(g.base_ms, g.inc_ms)}${g.rated ? ', rated' : ''}`),
    h('td', { title: g.reason ? reasonText(g.reason) : '' }, resultScore(g.winner, g.status), g.reason ? ` (${reasonText(g.reason).split(':')[0].toLowerCase()})` : ''),
    h('td', {}, g.status === 'live' ? link(`/game/${g.id}`, 'Watch') : link(`/review/${g.id}`, 'Review')));

  async function loadMore(): Promise<void> {
    more.disabled = true;
    try {
      const r = await api.playerGames(name, offset);
      offset += r.games.length;
      for (const g of r.games) table.append(row(g));
      if (!offset) table.append(h('tr', {}, h('td', { colspan: 5, class: 'empty' }, 'No games yet.')));
      more.hidden = r.games.length < 50;
    } catch (e) {
      table.append(h('tr', {}, h('td', { colspan: 5, class: 'error' }, errorText(e))));
    }
    more.disabled = false;
  }
  more.addEventListener('click', () => void loadMore());
  await loadMore();
}
