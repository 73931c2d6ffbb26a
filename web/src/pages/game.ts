// pages/game.ts -- /game/ID: a game live or finished, on its family's own
// game page (games/index.ts), chosen by the family the server names; a
// number no game has gets a page that says so, and no board.

import { api, ApiError } from '../api';
import { Cleanup, route } from '../router';
import { familyOf } from '../games/index';
import { h, link } from '../ui';
import { prepare, whenEngine } from '../engine/read';

export async function renderGamePage(host: HTMLElement, idText: string): Promise<Cleanup> {
  let first = null;
  try {
    first = await api.game(Number(idText));
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) {
      document.title = 'Game not found · Citadel';
      host.append(h('h1', {}, 'Game not found'),
        h('p', {}, `There is no game number ${idText}: the address may be mistyped, or the game was never started.`),
        h('p', {}, link('/', 'Start a game'), ' or ', link('/ladder', 'find a player'), '.'));
      return;
    }
    // not read now (the network, the server busy): the live page asks again
  }
  // the board is drawn from the server's reading of the position while the
  // engine loads (engine/read.ts); the rest comes with the game the page is sent
  if (first) await prepare(first.family, [first.position]);
  else await whenEngine();
  return familyOf(first?.family).renderGame(host, Number(idText), first);
}

route(/^\/game\/(\d+)$/, renderGamePage, 'Game', { engine: 'served' });
