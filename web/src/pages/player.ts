// pages/player.ts -- a player's ratings, rating history and games, 50 at a
// time ("Show older games" reads the next 50), and "Report this player" for
// signed-in visitors. Games are named by their variants' titles (GET
// /api/variants), never by their ids.

import { route } from '../router';
import { api, StoredGameSummary } from '../api';
import { h, link, errorText, formatDate, formatTimeControl, reasonText, resultScore, playerName } from '../ui';
import { ratingChart } from '../chart';
import { reportButton } from '../community/common';

const PAGE = 50;

/** "1 game", "3 games". */
export function count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

export async function renderPlayer(host: HTMLElement, nameText: string): Promise<void> {
  const name = nameText;
  host.append(h('h1', {}, name));
  let page;
  const titles: Record<string, string> = {};  // variant name -> its title, from the server
  try {
    const [p, variants] = await Promise.all([api.player(name), api.variants().catch(() => [])]);
    page = p;
    for (const v of variants) titles[v.name] = v.title;
  } catch (e) {
    host.append(h('p', { class: 'error' }, errorText(e)));
    return;
  }
  const title = (variant: string) => titles[variant] ?? variant;
  const p = page.player;
  if (p.bot) host.append(h('p', { class: 'hint' }, 'A bot: a computer player.'));
  else if (p.guest) host.append(h('p', { class: 'hint' }, 'A guest: plays unrated games only.'));
  const report = p.bot ? null : reportButton({ kind: 'player', name: p.name }, p, 'Report this player');
  if (report) host.append(h('p', { class: 'player-report' }, report));

  host.append(h('h2', {}, 'Ratings'));
  if (!page.ratings.length) host.append(h('p', { class: 'empty' }, 'No rated games yet.'));
  else {
    host.append(h('div', { class: 'table-wrap' }, h('table', { id: 'ratings' },
      h('thead', {}, h('tr', {}, h('th', {}, 'Game'), h('th', { class: 'num' }, 'Rating'), h('th', { class: 'num' }, 'Rated games'))),
      h('tbody', {}, ...page.ratings.map((r) => h('tr', { 'data-variant': r.variant },
        h('td', {}, link(`/ladder/${r.variant}`, title(r.variant))),
        h('td', { class: 'num rating' }, Math.round(r.rating)),
        h('td', { class: 'num' }, count(r.games, 'game'))))))));
  }
  for (const [variant, points] of Object.entries(page.history ?? {})) {
    if (!points?.length) continue;
    const t = title(variant);
    const now = Math.round(points[points.length - 1].after);
    const chart = ratingChart(points, `${p.name}'s ${t} rating over ${count(points.length, 'game')}, now ${now}`);
    host.append(h('h2', {}, `${t}: rating history`), h('div', { class: 'chart' }, chart));
  }

  host.append(h('h2', {}, 'Games'));
  const table = h('tbody');
  const more = h('button', { type: 'button', id: 'more-games', hidden: true }, 'Show older games');
  const shown = h('p', { class: 'hint', id: 'games-shown' });
  host.append(h('div', { class: 'table-wrap' }, h('table', { id: 'games', class: 'games-table' },
    h('thead', {}, h('tr', {}, h('th', {}, 'Date'), h('th', {}, 'Players'), h('th', {}, 'Game'), h('th', {}, 'Result'), h('th', {}, h('span', { class: 'visually-hidden' }, 'Watch or review')))),
    table)), shown, more);
  let offset = 0;

  const row = (g: StoredGameSummary) => h('tr', { 'data-game': g.id },
    h('td', {}, formatDate(g.ended || g.created)),
    h('td', {}, g.players.map(playerName).join(' vs ')),
    h('td', {}, `${title(g.variant)}, ${formatTimeControl(g.base_ms, g.inc_ms)}${g.rated ? ', rated' : ''}`),
    h('td', { title: g.reason ? reasonText(g.reason) : '' }, resultScore(g.winner, g.status), g.reason && g.status !== 'aborted' ? ` (${reasonText(g.reason).split(':')[0].toLowerCase()})` : '',
      // what "sterile" means, where the result is read
      g.status === 'over' && g.winner < 0 && g.sterile ? h('span', { class: 'hint' }, ' · a sterile draw: no game material was lost, so no rating changed') : ''),
    h('td', {}, g.status === 'live' ? link(`/game/${g.id}`, 'Watch') : link(`/review/${g.id}`, 'Review')));

  async function loadMore(): Promise<void> {
    more.disabled = true;
    try {
      const r = await api.playerGames(name, offset);
      offset += r.games.length;
      for (const g of r.games) table.append(row(g));
      if (!offset) table.append(h('tr', {}, h('td', { colspan: 5, class: 'empty' }, 'No games yet.')));
      shown.textContent = offset ? `${count(offset, 'game')} shown, newest first.` : '';
      // a full page may have more behind it; a short one is the last
      more.hidden = r.games.length < PAGE;
    } catch (e) {
      table.append(h('tr', {}, h('td', { colspan: 5, class: 'error' }, errorText(e))));
    }
    more.disabled = false;
  }
  more.addEventListener('click', () => void loadMore());
  await loadMore();
}

route(/^\/players\/([^/]+)$/, renderPlayer, 'Player', { engine: 'none' });
