// pages/game.ts -- /game/ID: a game live or finished, on its family's own
// game page (games/index.ts), chosen by the family the server names.

import { api } from '../api';
import { Cleanup, route } from '../router';
import { familyOf } from '../games/index';

export async function renderGamePage(host: HTMLElement, idText: string): Promise<Cleanup> {
  const first = await api.game(Number(idText)).catch(() => null);
  // the title is there at once; the rest comes with the game the page is sent
  return familyOf(first?.family).renderGame(host, Number(idText), first);
}

route(/^\/game\/(\d+)$/, renderGamePage, 'Game');
