// prefs.ts -- how the page looks and sounds for this visitor: the theme
// (the device's light or dark setting, or either always), the boards'
// colours, how pieces are drawn, and the game sounds. Kept in the browser for everyone, and on
// the account for a signed-in person (GET and POST /api/account/prefs),
// whose kept choices win when they sign in. Applied as attributes of the
// document (data-theme, data-board, data-pieces) that style.css and the
// boards' drawings read.

import { api } from './api';
import type { Prefs } from './gen/api';
import { setSoundQuietly, soundOn } from './sound';

const KEY = 'citadel.prefs';
export const DEFAULTS: Prefs = { theme: 'system', board: 'green', pieces: 'figures', sound: false };

/** The choices as this browser keeps them (the sound as sound.ts keeps it). */
export function localPrefs(): Prefs {
  let kept: Partial<Prefs> = {};
  try {
    kept = JSON.parse(localStorage.getItem(KEY) ?? '{}') as Partial<Prefs>;
  } catch {
    // unreadable: the defaults
  }
  return { ...DEFAULTS, ...kept, sound: soundOn() };
}

/** Shows the page as p says, and keeps p in the browser. */
export function applyPrefs(p: Prefs): void {
  const root = document.documentElement;
  if (p.theme === 'system') root.removeAttribute('data-theme');
  else root.setAttribute('data-theme', p.theme);
  root.setAttribute('data-board', p.board);
  root.setAttribute('data-pieces', p.pieces);
  setSoundQuietly(p.sound);
  localStorage.setItem(KEY, JSON.stringify({ theme: p.theme, board: p.board, pieces: p.pieces }));
}

/** A signed-in person's kept choices, applied; null if none could be read. */
export async function loadAccountPrefs(): Promise<Prefs | null> {
  try {
    const p = await api.prefs();
    applyPrefs(p);
    return p;
  } catch {
    return null;
  }
}

/** Changes some choices: shown at once, kept in the browser, and on the
 *  account when `account` (the server's answer then wins). Returns the
 *  server's reason if it refused, else null. */
export async function changePrefs(change: Partial<Prefs>, account: boolean): Promise<string | null> {
  const next = { ...localPrefs(), ...change };
  applyPrefs(next);
  if (!account) return null;
  try {
    applyPrefs(await api.setPrefs(change));
    return null;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

/** Whether pieces are drawn as letters alone (the boards read it as they draw). */
export function lettersOnly(): boolean {
  return document.documentElement.getAttribute('data-pieces') === 'letters';
}
