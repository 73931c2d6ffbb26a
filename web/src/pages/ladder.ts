// pages/ladder.ts -- the rating ladder of a rated variant.

import { route } from '../router';
import { api } from '../api';
import { h, link, errorText } from '../ui';

export async function renderLadder(host: HTMLElement, variant: string): Promise<void> {
  const tabs = h('nav', { class: 'choices ladder-tabs', 'aria-label': 'Ladders' },
    link('/ladder/rampart', 'Rampart Classic'), link('/ladder/rampart-xl', 'Rampart XL'),
    link('/ladder/stratego', 'Stratego'));
  for (const a of tabs.querySelectorAll('a')) {
    if (a.getAttribute('href') === `/ladder/${variant}`) a.setAttribute('aria-current', 'page');
    a.classList.add('button');
  }
  const heading = h('h1', {}, 'Ladder');
  host.append(heading, tabs);
  try {
    const l = await api.ladder(variant);
    heading.textContent = `Ladder: ${l.title ?? l.variant}`;
    if (!l.rows.length) {
      host.append(h('p', { class: 'empty' }, 'No rated games yet. Sign up and play one to appear here.'));
      return;
    }
    const body = h('tbody');
    l.rows.forEach((r, i) => {
      body.append(h('tr', {},
        h('td', { class: 'num' }, i + 1),
        h('td', {}, link(`/players/${encodeURIComponent(r.name)}`, r.name), r.bot ? ' (bot)' : ''),
        h('td', { class: 'num' }, Math.round(r.rating)),
        h('td', { class: 'num' }, r.games)));
    });
    host.append(h('table', {},
      h('caption', { class: 'hint' }, 'Elo ratings; people start at 1500, the site\'s bots at their measured strength (level 1 at 1500).'),
      h('thead', {}, h('tr', {}, h('th', { class: 'num' }, '#'), h('th', {}, 'Player'), h('th', { class: 'num' }, 'Rating'), h('th', { class: 'num' }, 'Games'))),
      body));
  } catch (e) {
    host.append(h('p', { class: 'error' }, errorText(e)));
  }
}

route(/^\/ladder\/([^/]+)$/, renderLadder, 'Ladder', { engine: 'none' });
route(/^\/ladder\/?$/, (host) => renderLadder(host, 'rampart'), 'Ladder', { engine: 'none' });
