// pages/mygames.ts -- "Your games in progress" on the start page: the live
// games the visitor plays, each a link naming the game, the opponents and
// whose move it is. The ids come from the WebSocket: its `hello` lists the
// live games the player plays, and `game` messages bring the ones that began
// since; each is read with GET /api/games/ID (nothing is asked when there
// are none), and only those still live are shown. Nothing at all when there
// are none.

import { api, Game, Player } from '../api';
import { h, link, playerName } from '../ui';
import { me } from '../session';
import { socket } from '../ws';
import { familyOf } from '../games/index';

/** Live games of this visitor seen on the socket since the page loaded. */
const known = new Set<number>();
let changed: (() => void) | null = null;

// Registered when the page loads (main.ts imports the start page before the
// socket opens), so the first `hello` is never missed.
socket.on('hello', (m) => {
  known.clear();
  for (const id of m.games ?? []) known.add(id);
  changed?.();
});
socket.on('game', (m) => {
  if (m.game.you.length && m.game.status === 'live') known.add(m.game.id);
});
socket.on('end', (m) => {
  known.delete(m.game);
});

function sideName(g: Game, side: number): string {
  return familyOf(g.family).sideNames[side] ?? `Side ${side + 1}`;
}

/** "your move", "alice to move", "setting up": as much as is known. */
function turnText(g: Game & { phase?: string; ready?: number[] }, mine: Player): string {
  const players = g.players ?? [];
  const onOneDevice = players.length > 0 && players.every((p) => p?.id === mine.id);
  if (g.phase === 'setup') {
    const mySides = players.map((p, i) => (p?.id === mine.id ? i : -1)).filter((i) => i >= 0);
    const waiting = mySides.some((i) => !(g.ready ?? []).includes(i));
    return waiting ? 'setting up: your setup is awaited' : 'setting up: waiting for the opponent';
  }
  const p = players[g.to_move];
  if (!p) return '';
  if (onOneDevice) return `${sideName(g, g.to_move)} to move`;
  return p.id === mine.id ? 'your move' : `${playerName(p)} to move`;
}

function opponents(g: Game, mine: Player): string {
  const names = [...new Set((g.players ?? []).filter((p) => p && p.id !== mine.id).map((p) => playerName(p)))];
  return names.length ? `vs ${names.join(', ')}` : 'both sides on this device';
}

/** The section, empty and hidden until there is a game to show. */
export function myGames(): { el: HTMLElement; stop: () => void } {
  const list = h('ul', { class: 'my-games-list' });
  const el = h('section', { class: 'panel my-games', id: 'my-games', 'aria-labelledby': 'my-games-h', hidden: true },
    h('h2', { id: 'my-games-h' }, 'Your games in progress'), list);
  let run = 0;
  async function refresh(): Promise<void> {
    const n = ++run;
    const p = me();
    if (!p) return;
    const read = await Promise.all([...known].map((id) => api.game(id).catch(() => null)));
    if (n !== run) return; // a newer refresh is under way
    const games = read.filter((g): g is Game => !!g && g.status === 'live' && (g.players ?? []).some((x) => x?.id === p.id))
      .sort((a, b) => b.id - a.id);
    for (const g of read) if (g && g.status !== 'live') known.delete(g.id);
    list.replaceChildren(...games.map((g) => {
      const turn = turnText(g, p);
      return h('li', { 'data-game': g.id },
        link(`/game/${g.id}`, h('strong', {}, g.title || g.variant), ' ', opponents(g, p)),
        turn ? h('span', { class: turn === 'your move' ? 'my-turn' : 'hint' }, ` · ${turn}`) : null);
    }));
    el.hidden = games.length === 0;
  }
  changed = () => void refresh();
  void refresh();
  return { el, stop: () => { changed = null; run++; } };
}
