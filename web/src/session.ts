// session.ts -- who is using the page: a guest or a signed-in player, and
// their standing (role: player, moderator or admin; muted until when).
// The server keeps the session in an HttpOnly cookie; this mirrors /api/me.

import { api, Player } from './api';
import type { Role } from './gen/api';
import { socket } from './ws';

let current: Player | null = null;
let role: Role = 'player';
let mutedUntil = 0;
const listeners = new Set<(p: Player | null) => void>();

export function me(): Player | null {
  return current;
}

/** A signed-in account (not a guest, not nobody). */
export function signedIn(): boolean {
  return !!current && !current.guest && !current.bot;
}

export function myRole(): Role {
  return current ? role : 'player';
}

/** Moderators and admins. */
export function isStaff(): boolean {
  return signedIn() && (role === 'moderator' || role === 'admin');
}

export function isAdmin(): boolean {
  return signedIn() && role === 'admin';
}

/** ms since the epoch until which the player may not write; 0 if not muted. */
export function mutedUntilMs(): number {
  return mutedUntil > Date.now() ? mutedUntil : 0;
}

export function onSessionChange(fn: (p: Player | null) => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

export function setMe(p: Player | null): void {
  if (!p || !current || p.id !== current.id) {
    role = 'player';
    mutedUntil = 0;
  }
  current = p;
  for (const fn of listeners) fn(p);
}

/** Asks the server who we are (it makes a guest session if there is none). */
export async function loadMe(): Promise<Player | null> {
  try {
    const r = await api.me();
    current = r.player; // so setMe keeps the standing read with it
    role = r.role;
    mutedUntil = r.muted_until;
    setMe(r.player);
  } catch {
    setMe(null);
  }
  return current;
}

/** After signing in, up or out the WebSocket must reconnect to carry the new
 *  cookie; the standing (role, mute) comes with /api/me, read again. */
export function sessionChanged(p: Player | null): void {
  setMe(p);
  socket.reconnect();
  if (p) void loadMe();
}

socket.on('hello', (m) => {
  if (!current || current.id !== m.player.id) {
    setMe(m.player);
    void loadMe();
  }
});
