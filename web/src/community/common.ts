// community/common.ts -- what the community's pages share: times in words,
// links to players, page links for paged lists, the lengths the server
// allows (in bytes), the inline "Report" form, and setPostHtml, the ONE place
// the page inserts HTML: a post's `html`, which the server made from its
// Markdown and sanitised (docs/api.md, "Message board"). Every other text a
// person wrote goes in as text (h() appends text nodes, textContent).

import type { Player } from '../api';
import { h, link, errorText } from '../ui';
import { signedIn, me } from '../session';
import { moderation, ReportTarget } from './api';

/** Lengths in bytes of UTF-8 (docs/api.md, "The community"). */
export const LIMITS = { title: 200, body: 10000, chat: 400, reason: 500, email: 254 };

export function bytes(text: string): number {
  return new TextEncoder().encode(text).length;
}

/** "3 Mar 2026, 14:05" for ms since the epoch; '' for 0. */
export function formatWhen(ms: number): string {
  if (!ms) return '';
  return new Date(ms).toLocaleString(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
}

/** A <time> element with the date in words. */
export function when(ms: number): HTMLElement {
  return h('time', { datetime: ms ? new Date(ms).toISOString() : null }, formatWhen(ms));
}

/** A player's name, linked to their page unless a guest or bot (no page worth showing). */
export function playerLink(p: Player | null | undefined, fallback = 'someone'): Node {
  if (!p) return document.createTextNode(fallback);
  if (p.guest || p.bot) return h('span', { class: 'pname-plain' }, p.name);
  return link(`/players/${encodeURIComponent(p.name)}`, p.name);
}

/** "1 post", "3 posts". */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** The page number asked for in the address (?page=N), from 1. */
export function pageParam(): number {
  const n = Number(new URLSearchParams(location.search).get('page'));
  return Number.isInteger(n) && n > 1 ? n : 1;
}

/** "Newer · Page 2 of 5 · Older" links for a paged list; nothing for one page. */
export function pager(page: number, pages: number, href: (page: number) => string, older = 'Next page', newer = 'Previous page'): HTMLElement | null {
  if (pages <= 1) return null;
  return h('nav', { class: 'pager', 'aria-label': 'Pages' },
    page > 1 ? link(href(page - 1), `← ${newer}`) : h('span'),
    h('span', { class: 'hint' }, `Page ${page} of ${pages}`),
    page < pages ? link(href(page + 1), `${older} →`) : h('span'));
}

/** href for a page of a list at `path` with its other query words kept. */
export function pageHref(path: string, extra: Record<string, string> = {}): (page: number) => string {
  return (page) => {
    const p = new URLSearchParams(extra);
    if (page > 1) p.set('page', String(page));
    const s = p.toString();
    return s ? `${path}?${s}` : path;
  };
}

/** A line that says why something cannot be done, or shows the server's refusal. */
export function errorLine(id?: string): HTMLParagraphElement {
  return h('p', { class: 'error', role: 'alert', id: id ?? null, hidden: true });
}

export function showError(el: HTMLElement, err: unknown): void {
  el.textContent = err === '' ? '' : errorText(err);
  el.hidden = !el.textContent;
}

/** Checks a field's length in bytes; returns the words for people, or ''. */
export function tooLong(text: string, max: number, what: string): string {
  const n = bytes(text);
  return n > max ? `The ${what} is too long: ${n} bytes, at most ${max}.` : '';
}

/** Sets a post's body from the server's sanitised HTML: the only innerHTML
 *  of the page. As a second guard (the server's sanitiser is the first),
 *  the fragment is parsed inert in a <template> and anything active is
 *  dropped before it joins the page: scripts, frames, forms, event
 *  attributes, styles, and links or sources other than http(s), mailto
 *  and the site's own paths. */
export function setPostHtml(el: HTMLElement, html: string): void {
  const tpl = document.createElement('template');
  tpl.innerHTML = html;
  const frag = tpl.content;
  for (const bad of frag.querySelectorAll('script, style, iframe, frame, object, embed, form, input, button, textarea, select, link, meta, base, svg, math, img, video, audio, source'))
    bad.remove();
  for (const e of frag.querySelectorAll('*')) {
    for (const a of [...e.attributes]) {
      const n = a.name.toLowerCase();
      if (n.startsWith('on') || n === 'style' || n === 'srcdoc' || n === 'formaction') e.removeAttribute(a.name);
      else if ((n === 'href' || n === 'src' || n === 'xlink:href' || n === 'action') && !safeUrl(a.value)) e.removeAttribute(a.name);
    }
    if (e instanceof HTMLAnchorElement && e.href && new URL(e.href, location.href).origin !== location.origin) {
      e.rel = 'nofollow ugc noopener noreferrer';
      e.target = '_blank';
    }
  }
  el.replaceChildren(frag);
}

function safeUrl(v: string): boolean {
  const t = v.trim();
  if (t.startsWith('/') && !t.startsWith('//')) return true;
  if (t.startsWith('#')) return true;
  return /^(https?:|mailto:)/i.test(t);
}

/** A small "Report" button that opens an inline form asking why (optional)
 *  and sends POST /api/reports. Only for signed-in accounts, and never for
 *  one's own words; returns null otherwise. */
export function reportButton(target: ReportTarget, author: Player | null, label = 'Report'): HTMLElement | null {
  const mine = me();
  if (!signedIn() || (author && mine && author.id === mine.id)) return null;
  const box = h('span', { class: 'report' });
  const open = h('button', { type: 'button', class: 'linklike report-open' }, label);
  open.addEventListener('click', () => {
    const reason = h('input', { type: 'text', class: 'report-reason', maxlength: LIMITS.reason, placeholder: 'Why? (optional)', 'aria-label': 'Why are you reporting it? (optional)' });
    const err = errorLine();
    const send = h('button', { type: 'button', class: 'report-send' }, 'Send report');
    const cancel = h('button', { type: 'button', class: 'linklike' }, 'Cancel');
    const form = h('span', { class: 'report-form', role: 'group', 'aria-label': 'Report' }, reason, send, cancel, err);
    cancel.addEventListener('click', () => box.replaceChildren(open));
    send.addEventListener('click', async () => {
      const why = tooLong(reason.value, LIMITS.reason, 'reason');
      if (why) return showError(err, why);
      send.disabled = true;
      try {
        await moderation.report(target, reason.value.trim());
        box.replaceChildren(h('span', { class: 'report-done', role: 'status' }, 'Reported: thank you. A moderator will look at it.'));
      } catch (e) {
        showError(err, e);
        send.disabled = false;
      }
    });
    box.replaceChildren(form);
    reason.focus();
  });
  box.append(open);
  return box;
}

/** "Sign in to post" with links that come back here afterwards. */
export function signInNote(what: string): HTMLElement {
  const back = encodeURIComponent(location.pathname + location.search);
  return h('p', { class: 'panel signin-note' }, link(`/signin?next=${back}`, 'Sign in'), ' or ',
    link(`/signup?next=${back}`, 'create an account'), ` to ${what}.`);
}

/** A notice for a muted player, or null. */
export function mutedNote(until: number): HTMLElement | null {
  if (!until) return null;
  return h('p', { class: 'panel muted-note', role: 'status' }, `A moderator has muted you until ${formatWhen(until)}: until then you cannot post, chat or report.`);
}
