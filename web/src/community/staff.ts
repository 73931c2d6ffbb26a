// community/staff.ts -- the staff's pages (docs/api.md, "Support" and
// "Reports and moderation"): /staff/tickets (support tickets, open or
// closed, each answered on its own page), /staff/reports (the moderation
// queue: what was reported, shown as text, and what can be done about it:
// hide the post, hide the chat line, lock the thread, mute the player for
// some minutes, resolve) and /staff/audit (admins: the audit log, and
// changing a player's role or closing an account, by name).
//
// The server decides who may do what (403 to everyone else); these pages
// only leave out what the visitor's role cannot use.

import { route } from '../router';
import { h, link, errorText } from '../ui';
import { isStaff, isAdmin } from '../session';
import { support, moderation, Report, Role } from './api';
import { LIMITS, errorLine, showError, when, plural, pageParam, pager, pageHref, playerLink, formatWhen } from './common';
import { kindWord } from './support';

function staffNav(here: string): HTMLElement {
  const items: [string, string][] = [['/staff/reports', 'Reports'], ['/staff/tickets', 'Support tickets']];
  if (isAdmin()) items.push(['/staff/audit', 'Audit log']);
  return h('nav', { class: 'choices staff-nav', 'aria-label': 'Staff pages' }, ...items.map(([href, text]) => {
    const a = link(href, text);
    a.classList.add('button');
    if (href === here) a.setAttribute('aria-current', 'page');
    return a;
  }));
}

/** Tabs of a list's status (?status=open ...). */
function statusTabs(path: string, current: string, all: [string, string][]): HTMLElement {
  return h('nav', { class: 'choices status-tabs', 'aria-label': 'Which ones' }, ...all.map(([v, text]) => {
    const a = link(`${path}?status=${v}`, text);
    a.classList.add('button');
    if (v === current) a.setAttribute('aria-current', 'page');
    return a;
  }));
}

export async function renderStaff(host: HTMLElement, which = 'reports'): Promise<void> {
  const path = `/staff/${which || 'reports'}`;
  if (!isStaff()) {
    host.append(h('h1', {}, 'Staff only'), h('p', {}, 'These pages are for the site\'s moderators and admins. ', link('/support', 'Write to Support'), ' if you need help.'));
    return;
  }
  if (path === '/staff/tickets') return tickets(host, path);
  if (path === '/staff/audit') return audit(host, path);
  return reports(host, '/staff/reports');
}

// ---- tickets ----

async function tickets(host: HTMLElement, path: string): Promise<void> {
  const want = new URLSearchParams(location.search).get('status');
  const status = want === 'closed' || want === 'all' ? want : 'open';
  host.append(h('h1', {}, 'Support tickets'), staffNav(path),
    statusTabs(path, status, [['open', 'Open'], ['closed', 'Closed'], ['all', 'All']]));
  try {
    const r = await support.staffList(status, pageParam());
    if (!r.tickets.length) {
      host.append(h('p', { class: 'empty' }, status === 'open' ? 'No open tickets.' : 'No tickets.'));
      return;
    }
    host.append(h('div', { class: 'table-wrap' }, h('table', { id: 'staff-tickets' },
      h('thead', {}, h('tr', {}, h('th', {}, 'Subject'), h('th', {}, 'Kind'), h('th', {}, 'From'), h('th', { class: 'num' }, 'Messages'), h('th', {}, 'Last'), h('th', {}, 'Status'))),
      h('tbody', {}, ...r.tickets.map((t) => h('tr', { 'data-ticket': t.id },
        h('td', {}, link(`/support/ticket/${t.id}`, t.subject)),
        h('td', {}, kindWord(t.kind)),
        h('td', {}, t.from ? playerLink(t.from) : '', t.email ? `${t.from ? ' ' : ''}<${t.email}>` : t.from ? '' : 'a visitor'),
        h('td', { class: 'num' }, t.messages),
        h('td', {}, when(t.updated)),
        h('td', {}, t.status)))))));
    const p = pager(r.page, r.pages, pageHref(path, { status }));
    if (p) host.append(p);
  } catch (e) {
    host.append(h('p', { class: 'error' }, errorText(e)));
  }
}

// ---- the moderation queue ----

async function reports(host: HTMLElement, path: string): Promise<void> {
  const status = new URLSearchParams(location.search).get('status') === 'resolved' ? 'resolved' : 'open';
  host.append(h('h1', {}, 'Reports'), staffNav(path),
    statusTabs(path, status, [['open', 'Open'], ['resolved', 'Resolved']]));
  try {
    const r = await moderation.reports(status, pageParam());
    if (!r.reports.length) {
      host.append(h('p', { class: 'empty' }, status === 'open' ? 'Nothing to look at: no open reports.' : 'No resolved reports.'));
      return;
    }
    host.append(h('ol', { class: 'reports', id: 'reports' }, ...r.reports.map(reportView)));
    const p = pager(r.page, r.pages, pageHref(path, { status }));
    if (p) host.append(p);
  } catch (e) {
    host.append(h('p', { class: 'error' }, errorText(e)));
  }
}

const KIND_TITLES: Record<Report['kind'], string> = { post: 'A post', chat: 'A chat line', player: 'A player' };

function reportView(rep: Report): HTMLElement {
  const err = errorLine();
  const done = h('p', { class: 'status report-result', role: 'status' });
  const reason = h('input', { type: 'text', class: 'mod-reason', maxlength: LIMITS.reason, placeholder: 'Reason (for the audit log)', 'aria-label': 'Reason, for the audit log' });
  const act = (label: string, cls: string, fn: () => Promise<string>) => {
    const b = h('button', { type: 'button', class: cls }, label);
    b.addEventListener('click', async () => {
      b.disabled = true;
      showError(err, '');
      try {
        done.textContent = await fn();
      } catch (e) {
        showError(err, e);
      }
      b.disabled = false;
    });
    return b;
  };
  const why = () => reason.value.trim();
  const target: (Node | string)[] = [];
  const actions: HTMLElement[] = [];
  const t = rep.target;
  let author = '';
  if (rep.kind === 'post' && 'body' in t) {
    author = t.author.name;
    target.push(h('p', { class: 'hint' }, 'By ', playerLink(t.author), ' in ', link(`/forum/thread/${t.thread}#post-${t.id}`, 'its thread'),
      t.hidden ? h('span', { class: 'tag' }, 'hidden') : null),
    h('blockquote', { class: 'report-text' }, t.body));
    actions.push(act(t.hidden ? 'Show the post again' : 'Hide post', 'mod-hide-post', async () => {
      await moderation.hidePost(t.id, !t.hidden, why());
      t.hidden = !t.hidden;
      return t.hidden ? 'The post is hidden.' : 'The post shows again.';
    }), act('Lock thread', 'mod-lock-thread', async () => {
      await moderation.lock(t.thread, true, why());
      return 'The thread is locked.';
    }));
  } else if (rep.kind === 'chat' && 'text' in t) {
    author = t.author.name;
    target.push(h('p', { class: 'hint' }, 'Said by ', playerLink(t.author), ' in ', link(`/game/${t.game}`, `game ${t.game}`),
      t.hidden ? h('span', { class: 'tag' }, 'hidden') : null),
    h('blockquote', { class: 'report-text' }, t.text));
    actions.push(act(t.hidden ? 'Show the line again' : 'Hide chat line', 'mod-hide-chat', async () => {
      await moderation.hideChat(t.id, !t.hidden, why());
      t.hidden = !t.hidden;
      return t.hidden ? 'The chat line is hidden.' : 'The chat line shows again.';
    }));
  } else if ('player' in t) {
    author = t.player.name;
    target.push(h('p', {}, playerLink(t.player), t.muted_until > Date.now() ? ` (muted until ${formatWhen(t.muted_until)})` : ''));
  }
  if (author) {
    const minutes = h('input', { type: 'number', class: 'mod-minutes', min: 0, max: 525600, value: 60, 'aria-label': `Minutes to mute ${author} for (0 unmutes)` });
    actions.push(h('span', { class: 'mute-group' }, act(`Mute ${author}`, 'mod-mute', async () => {
      const n = Math.floor(Number(minutes.value));
      if (!Number.isFinite(n) || n < 0 || n > 525600) throw new Error('Minutes: from 1 to 525,600 (a year); 0 unmutes.');
      const r = await moderation.mute(author, n, why());
      return r.muted_until ? `${author} is muted until ${formatWhen(r.muted_until)}.` : `${author} is no longer muted.`;
    }), ' for ', minutes, ' minutes'));
  }
  if (rep.status === 'open') actions.push(act('Resolve', 'primary mod-resolve', async () => {
    await moderation.resolve(rep.id);
    li.classList.add('resolved');
    return 'Resolved.';
  }));
  const li = h('li', { class: 'panel report-item', 'data-report': rep.id, 'data-kind': rep.kind },
    h('h2', {}, `${KIND_TITLES[rep.kind] ?? rep.kind}`, h('span', { class: 'hint' }, ' reported by ', playerLink(rep.reporter), ' · ', when(rep.created))),
    rep.reason ? h('p', { class: 'report-reason-text' }, 'Why: ', rep.reason) : h('p', { class: 'hint' }, 'No reason given.'),
    ...target,
    h('div', { class: 'controls mod-actions' }, reason, ...actions),
    done, err);
  return li;
}

// ---- the audit log (admins) ----

async function audit(host: HTMLElement, path: string): Promise<void> {
  host.append(h('h1', {}, 'Audit log'), staffNav(path));
  if (!isAdmin()) {
    host.append(h('p', {}, 'Only admins read the audit log.'));
    return;
  }
  host.append(adminForms());
  try {
    const r = await moderation.audit(pageParam());
    if (!r.entries.length) {
      host.append(h('p', { class: 'empty' }, 'Nothing yet.'));
      return;
    }
    host.append(h('div', { class: 'table-wrap' }, h('table', { id: 'audit' },
      h('thead', {}, h('tr', {}, h('th', {}, 'When'), h('th', {}, 'Who'), h('th', {}, 'What'), h('th', {}, 'On'), h('th', {}, 'Detail'))),
      h('tbody', {}, ...r.entries.map((e) => h('tr', { 'data-entry': e.id },
        h('td', {}, when(e.created)),
        h('td', {}, e.actor ? playerLink(e.actor) : 'the command line'),
        h('td', {}, e.action),
        h('td', {}, `${e.target_kind} ${e.target}`),
        h('td', { class: 'audit-detail' }, e.detail)))))));
    const p = pager(r.page, r.pages, pageHref(path), 'Older', 'Newer');
    if (p) host.append(p);
    host.append(h('p', { class: 'hint' }, plural(r.entries.length, 'entry', 'entries'), ' on this page.'));
  } catch (e) {
    host.append(h('p', { class: 'error' }, errorText(e)));
  }
}

function adminForms(): HTMLElement {
  const roleName = h('input', { id: 'role-name', required: true, maxlength: 20, autocomplete: 'off' });
  const role = h('select', { id: 'role-role' }, ...(['player', 'moderator', 'admin'] as Role[]).map((r) => h('option', { value: r }, r)));
  const roleErr = errorLine();
  const roleDone = h('p', { class: 'status', role: 'status' });
  const roleForm = h('form', { class: 'panel form', id: 'role-form', novalidate: true },
    h('h2', {}, 'Change a player\'s role'),
    h('label', { for: 'role-name' }, 'Player\'s name'), roleName,
    h('label', { for: 'role-role' }, 'Role'), role, roleErr, roleDone,
    h('div', { class: 'row' }, h('button', { type: 'submit', class: 'primary' }, 'Set role')));
  roleForm.addEventListener('submit', async (e) => {
    e.preventDefault();
    showError(roleErr, '');
    roleDone.textContent = '';
    if (!roleName.value.trim()) return showError(roleErr, 'Give a player\'s name.');
    try {
      await moderation.setRole(roleName.value.trim(), role.value as Role);
      roleDone.textContent = `${roleName.value.trim()} is now ${role.value === 'admin' ? 'an admin' : `a ${role.value}`}.`;
    } catch (ex) {
      showError(roleErr, ex);
    }
  });

  const closeName = h('input', { id: 'close-name', required: true, maxlength: 20, autocomplete: 'off' });
  const closeReason = h('input', { id: 'close-reason', maxlength: LIMITS.reason });
  const closeErr = errorLine();
  const closeDone = h('p', { class: 'status', role: 'status' });
  let armed = '';
  const closeBtn = h('button', { type: 'submit', class: 'danger' }, 'Close the account');
  const closeForm = h('form', { class: 'panel form', id: 'close-form', novalidate: true },
    h('h2', {}, 'Close an account'),
    h('p', { class: 'hint' }, 'The account can no longer sign in, and its sessions end. Its games and posts stay.'),
    h('label', { for: 'close-name' }, 'Player\'s name'), closeName,
    h('label', { for: 'close-reason' }, 'Reason (for the audit log)'), closeReason, closeErr, closeDone,
    h('div', { class: 'row' }, closeBtn));
  closeForm.addEventListener('submit', async (e) => {
    e.preventDefault();
    showError(closeErr, '');
    const n = closeName.value.trim();
    if (!n) return showError(closeErr, 'Give a player\'s name.');
    if (armed !== n) {
      armed = n;
      closeBtn.textContent = `Yes, close ${n}'s account`;
      return;
    }
    try {
      await moderation.closeAccount(n, closeReason.value.trim());
      closeDone.textContent = `${n}'s account is closed.`;
      armed = '';
      closeBtn.textContent = 'Close the account';
    } catch (ex) {
      showError(closeErr, ex);
    }
  });
  return h('div', { class: 'columns admin-forms' }, roleForm, closeForm);
}

route(/^\/staff\/?(tickets|reports|audit)?\/?$/, renderStaff, 'Staff', { engine: 'none' });
