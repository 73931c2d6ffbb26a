// session.ts -- who is using the page: a guest or a signed-in player.
// The server keeps the session in an HttpOnly cookie; this mirrors /api/me.

import { api, Player } from './api';
import { socket } from './ws';

let current: Player | null = null;
const listeners = new Set<(p: Player | null) => void>();

export function me(): Player | null {
  return current;
}

export function onSessionChange(fn: (p: Player | null) => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

export function setMe(p: Player | null): void {
  current = p;
  for (const fn of listeners) fn(p);
}

/** Asks the server who we are (it makes a guest session if there is none). */
export async function loadMe(): Promise<Player | null> {
  try {
    setMe((await api.me()).player);
  } catch {
    setMe(null);
  }
  return current;
}

/** After signing in, up or out the WebSocket must reconnect to carry the new cookie. */
export function sessionChanged(p: Player | null): void {
  setMe(p);
  socket.reconnect();
}

socket.on('hello', (m) => {
  if (!current || current.id !== m.player.id) setMe(m.player);
});
