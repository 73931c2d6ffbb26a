// ui.ts -- small DOM helpers and the words the page uses for results,
// clocks and settings, kept in one place so every page says things alike.

import type { Result, Player } from './api';

type Attrs = Record<string, string | number | boolean | ((e: Event) => void) | null | undefined>;
type Child = Node | string | number | null | undefined | false;

/** h('button', {class: 'x', onclick: fn}, 'text') -> an element. */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (typeof v === 'function') e.addEventListener(k.replace(/^on/, ''), v);
    else if (v === true) e.setAttribute(k, '');
    else e.setAttribute(k, String(v));
  }
  for (const c of children) if (c !== null && c !== undefined && c !== false) e.append(c instanceof Node ? c : String(c));
  return e;
}

/** A link handled by the page's router (no reload). */
export function link(href: string, ...children: Child[]): HTMLAnchorElement {
  return h('a', { href, 'data-link': '' }, ...children);
}

/** Shows a message in the page's status line for a few seconds (errors stay longer). */
export function toast(text: string, kind: 'info' | 'error' = 'info'): void {
  const box = document.getElementById('toasts');
  if (!box) return;
  const t = h('div', { class: `toast toast-${kind}`, role: kind === 'error' ? 'alert' : 'status' }, text);
  box.appendChild(t);
  setTimeout(() => t.remove(), kind === 'error' ? 8000 : 4000);
}

export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** 5:03, 0:09.4 under ten seconds, 1:02:00 past an hour. */
export function formatClock(ms: number): string {
  ms = Math.max(0, ms);
  if (ms < 10000) return `0:0${(Math.floor(ms / 100) / 10).toFixed(1)}`;
  const s = Math.floor(ms / 1000);
  const hh = Math.floor(s / 3600);
  const mm = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return hh ? `${hh}:${String(mm).padStart(2, '0')}:${ss}` : `${mm}:${ss}`;
}

/** "5+3" for 5 minutes plus 3 seconds a move; "No clock" for base 0. */
export function formatTimeControl(base_ms: number, inc_ms: number): string {
  if (!base_ms) return 'No clock';
  const min = base_ms / 60000;
  const m = Number.isInteger(min) ? String(min) : min.toFixed(1);
  return `${m}+${Math.round(inc_ms / 1000)}`;
}

export const SIDE_TITLES = ['Bottom', 'Top'];

/** Why a game ended, in plain words. */
export function reasonText(reason: string): string {
  switch (reason) {
    case 'time': return 'Time ran out';
    case 'abandoned': return 'A player left the game and their time to return ran out';
    case 'resign': return 'Resigned';
    case 'agreement': return 'Draw agreed';
    case 'no-captures': return 'No captures possible: decided by material';
    case 'insufficient': return 'The side behind can no longer catch up: decided by material';
    case 'move-limit': return 'Move limit reached: decided by material';
    case 'no-moves': return 'No legal move left: decided by material';
    case 'aborted': return 'Game aborted';
    default: return reason || 'Game over';
  }
}

/** "Bottom (alice) wins" / "Draw" for a result, with who played. */
export function resultHeadline(r: Result, players: (Player | null)[], sides = SIDE_TITLES): string {
  if (r.winner < 0) return r.sterile ? 'Draw (sterile: no game material was lost, so no rating changed)' : 'Draw';
  const p = players[r.winner];
  const side = sides[r.winner] ? sides[r.winner][0].toUpperCase() + sides[r.winner].slice(1) : '';
  return `${side || 'Side ' + r.winner}${p ? ` (${p.name})` : ''} wins`;
}

/** "1-0", "0-1" or "½-½". */
export function resultScore(winner: number | undefined, status: string): string {
  if (status !== 'over') return status === 'live' ? 'playing' : status;
  if (winner === 0) return '1-0';
  if (winner === 1) return '0-1';
  return '½-½';
}

export function playerName(p: Player | null | undefined): string {
  if (!p) return '?';
  return p.name;
}

export function formatDate(unix: number | undefined): string {
  if (!unix) return '';
  // the server stores seconds; accept milliseconds too
  const d = new Date(unix > 1e12 ? unix : unix * 1000);
  return d.toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
}

/** Copies text, reporting success or failure in a toast. */
export async function copyText(text: string, what = 'Copied'): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    toast(`${what} to the clipboard`);
  } catch {
    // Clipboard access can be refused (plain http, permissions): select a field instead.
    const ta = h('textarea', { class: 'copy-fallback', readonly: true });
    ta.value = text;
    document.body.appendChild(ta);
    ta.select();
    const ok = document.execCommand('copy');
    ta.remove();
    toast(ok ? `${what} to the clipboard` : 'Could not copy: select the text and copy it by hand', ok ? 'info' : 'error');
  }
}

/** Resolves after the browser has painted what is on the page now: for
 *  work (the engine's download) that should not delay the first paint. */
export function afterPaint(): Promise<void> {
  // the next frame's callbacks run once this frame has been painted
  return new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 0))));
}
