// community/notifications.ts -- the header's notifications indicator for
// signed-in players (docs/api.md, "Notifications"): a bell with the unread
// count (GET /api/notifications, then kept up by the socket's `notify`
// messages), opening a list whose entries link to the thread's post or the
// support ticket. Opening the list marks what it shows as read.

import { h, link } from '../ui';
import { socket } from '../ws';
import { signedIn } from '../session';
import { notifications, Notification } from './api';
import { formatWhen } from './common';

let unread = 0;
let list: Notification[] = [];
let loadedFor = 0; // the player whose list is loaded
let view: (() => void) | null = null; // the header's one indicator draws itself again

socket.on('notify', (m) => {
  unread = m.unread;
  list = [m.notification, ...list.filter((n) => n.id !== m.notification.id)].slice(0, 50);
  view?.();
});

// after a reconnect: what came meanwhile
socket.on('hello', () => {
  if (loadedFor) load(loadedFor);
});

function load(playerId: number): void {
  loadedFor = playerId;
  notifications.list().then((r) => {
    if (loadedFor !== playerId) return;
    unread = r.unread;
    list = r.notifications;
    view?.();
  }).catch(() => { if (loadedFor === playerId) loadedFor = 0; });
}

/** Where a notification leads. */
export function notificationHref(n: Notification): string {
  if (n.ticket) return `/support/ticket/${n.ticket}`;
  if (n.thread) return `/forum/thread/${n.thread}${n.post ? `#post-${n.post}` : ''}`;
  return '/forum';
}

/** "bob replied to “Title”". */
export function notificationWords(n: Notification): string {
  const who = n.from?.name ?? 'Someone';
  switch (n.kind) {
    case 'reply': return `${who} replied in “${n.title}”`;
    case 'mention': return `${who} mentioned you in “${n.title}”`;
    case 'answer': return `Support answered “${n.title}”`;
    default: return n.title;
  }
}

function bell(): SVGSVGElement {
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('width', '20');
  svg.setAttribute('height', '20');
  svg.setAttribute('aria-hidden', 'true');
  const path = document.createElementNS(ns, 'path');
  path.setAttribute('d', 'M12 2a6 6 0 0 0-6 6v3.6L4.3 15a1 1 0 0 0 .9 1.5h13.6a1 1 0 0 0 .9-1.5L18 11.6V8a6 6 0 0 0-6-6zm0 20a3 3 0 0 0 3-3H9a3 3 0 0 0 3 3z');
  path.setAttribute('fill', 'currentColor');
  svg.append(path);
  return svg;
}

/** The indicator for the header; empty for guests. */
export function notificationsWidget(playerId: number): HTMLElement {
  const box = h('div', { class: 'notes' });
  if (!signedIn()) {
    view = null;
    loadedFor = 0;
    return box;
  }
  const count = h('span', { class: 'notes-count', id: 'notes-count' });
  const button = h('button', { type: 'button', class: 'notes-button', id: 'notes-button', 'aria-expanded': 'false', 'aria-controls': 'notes-list' }, bell(), count);
  const panel = h('div', { class: 'notes-list', id: 'notes-list', hidden: true });
  box.append(button, panel);

  const draw = () => {
    count.textContent = unread ? String(unread) : '';
    count.hidden = !unread;
    button.setAttribute('aria-label', unread ? `Notifications: ${unread} unread` : 'Notifications');
    button.classList.toggle('has-unread', unread > 0);
    if (panel.hidden) return;
    panel.replaceChildren(h('h2', {}, 'Notifications'));
    if (!list.length) panel.append(h('p', { class: 'empty' }, 'Nothing yet. Replies to your threads, mentions and answers from Support show here.'));
    else panel.append(h('ul', {}, ...list.map((n) => h('li', { class: n.read ? '' : 'unread', 'data-notification': n.id },
      link(notificationHref(n), notificationWords(n)), h('span', { class: 'hint' }, ` ${formatWhen(n.created)}`)))));
  };

  const close = () => {
    panel.hidden = true;
    button.setAttribute('aria-expanded', 'false');
    document.removeEventListener('click', outside, true);
  };
  const outside = (e: Event) => {
    if (!box.contains(e.target as Node)) close();
    else if ((e.target as Element).closest?.('a')) setTimeout(close, 0);
  };
  button.addEventListener('click', async () => {
    if (!panel.hidden) return close();
    panel.hidden = false;
    button.setAttribute('aria-expanded', 'true');
    document.addEventListener('click', outside, true);
    draw();
    const newest = list[0]?.id;
    if (unread && newest) {
      try {
        await notifications.read(newest);
        unread = list.filter((n) => !n.read && n.id > newest).length;
        draw(); // this time the new ones stay bold, so one sees which they were
        for (const n of list) if (n.id <= newest) n.read = true;
      } catch {
        // the count stays as it was
      }
    }
  });
  box.addEventListener('keydown', (e) => {
    if ((e as KeyboardEvent).key === 'Escape' && !panel.hidden) {
      close();
      button.focus();
    }
  });

  view = draw;
  if (loadedFor !== playerId) {
    unread = 0;
    list = [];
    load(playerId);
  }
  draw();
  return box;
}
