// stratego/api.ts -- the parts of the server's protocol only Stratego uses
// (docs/api.md, "Games with hidden pieces and private setups"): setups to
// start from, and the extra fields of games and messages.

import type { Game } from '../api';

export type NamedSetup = { name: string; setup: string };
export type SetupChoices = { library: NamedSetup[]; saved: NamedSetup[]; random: string };

/** A game of a hidden-information variant: `phase`, `ready`, and the combat
 *  words of each move when the server sends them along. */
export type StrategoGame = Game & { phase?: 'setup' | 'play'; ready?: number[]; events?: (string | null)[] };

export type MoveMsg = { type: 'move'; game: number; ply: number; move: string; position: string; to_move: number; clocks: number[]; legal?: string[]; event?: string };
export type ReadyMsg = { type: 'ready'; game: number; sides: number[] };
export type SetupOkMsg = { type: 'setup_ok'; game: number; side: number };

export function isStratego(variant: string): boolean {
  return variant === 'stratego' || variant.startsWith('stratego-');
}

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(path, {
    method,
    credentials: 'same-origin',
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  }).catch(() => {
    throw new Error('Cannot reach the server. Check your connection and try again.');
  });
  const data = await res.json().catch(() => null);
  if (!res.ok) throw new Error(data && typeof data.error === 'string' ? data.error : `The server answered ${res.status}.`);
  return data as T;
}

export const setupsApi = {
  list: (variant: string) => call<SetupChoices>('GET', `/api/setups/${encodeURIComponent(variant)}`),
  save: (variant: string, name: string, setup: string) => call<{ ok: boolean }>('POST', `/api/setups/${encodeURIComponent(variant)}`, { name, setup }),
  remove: (variant: string, name: string) => call<{ ok: boolean }>('POST', `/api/setups/${encodeURIComponent(variant)}/delete`, { name }),
};
