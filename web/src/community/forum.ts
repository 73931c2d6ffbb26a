// community/forum.ts -- the message board (docs/api.md, "Message board"):
// /forum (the categories with their counts and a search box),
// /forum/CATEGORY (its threads, newest activity first, 20 a page, and the
// "New thread" form), /forum/thread/ID (its posts, oldest first, with the
// reply form; the author's Edit and Delete; Report; the staff's Hide and
// Lock) and /forum/search?q= (posts with every word).
//
// Invariant: what people wrote is put on the page as text, except a post's
// `html`, the server's sanitised rendering of its Markdown, which goes
// through setPostHtml (community/common.ts) and nowhere else.

import { h, link, errorText } from '../ui';
import { navigate, route } from '../router';
import { signedIn, isStaff, mutedUntilMs } from '../session';
import { forum, moderation, Post, Thread } from './api';
import {
  LIMITS, errorLine, showError, tooLong, setPostHtml, playerLink, when, plural, pageParam, pager, pageHref,
  reportButton, signInNote, mutedNote, formatWhen,
} from './common';

const MARKDOWN_HINT = 'Markdown works: **bold**, *italic*, [a link](https://example.org), `code`. Write @name to tell a player, "game 42" to link a game.';

/** A textarea for a post's Markdown, with its hint. */
function bodyField(id: string, label: string, value = ''): { field: HTMLElement; area: HTMLTextAreaElement } {
  const area = h('textarea', { id, name: 'body', rows: 7, required: true, 'aria-describedby': `${id}-hint` });
  area.value = value;
  return { area, field: h('div', { class: 'field' }, h('label', { for: id }, label), area, h('p', { class: 'hint', id: `${id}-hint` }, MARKDOWN_HINT)) };
}

function searchForm(value = ''): HTMLElement {
  const input = h('input', { type: 'search', id: 'forum-q', name: 'q', placeholder: 'Search the forum', 'aria-label': 'Search the forum', required: true });
  input.value = value;
  const f = h('form', { class: 'forum-search', role: 'search', action: '/forum/search' }, input, h('button', { type: 'submit' }, 'Search'));
  f.addEventListener('submit', (e) => {
    e.preventDefault();
    if (input.value.trim()) navigate(`/forum/search?q=${encodeURIComponent(input.value.trim())}`);
  });
  return f;
}

function crumbs(...parts: (Node | string)[]): HTMLElement {
  const out: (Node | string)[] = [link('/forum', 'Forum')];
  for (const p of parts) out.push(' › ', p);
  return h('nav', { class: 'crumbs', 'aria-label': 'Where you are' }, ...out);
}

// ---- /forum ----

export async function renderForum(host: HTMLElement): Promise<void> {
  host.append(h('h1', {}, 'Forum'),
    h('p', {}, 'Talk about the games, ask for help, share a game. Everyone may read; players with an account post. ',
      'For a private question write to ', link('/support', 'Support'), ' instead.'),
    searchForm());
  try {
    const r = await forum.categories();
    host.append(h('ul', { class: 'forum-cats', id: 'forum-cats' }, ...r.categories.map((c) => h('li', { class: 'panel forum-cat', 'data-category': c.name },
      h('h2', {}, link(`/forum/${c.name}`, c.title)),
      h('p', {}, c.about),
      h('p', { class: 'hint' }, `${plural(c.threads, 'thread')} · ${plural(c.posts, 'post')}`,
        c.last_post ? ` · last post ${formatWhen(c.last_post)}` : '')))));
  } catch (e) {
    host.append(h('p', { class: 'error' }, errorText(e)));
  }
}

// ---- /forum/CATEGORY ----

export async function renderCategory(host: HTMLElement, name: string): Promise<void> {
  const page = pageParam();
  const heading = h('h1', {}, 'Forum');
  host.append(crumbs(name), heading);
  let r;
  try {
    r = await forum.category(name, page);
  } catch (e) {
    heading.textContent = 'No such board';
    host.append(h('p', { class: 'error' }, errorText(e)), h('p', {}, link('/forum', 'See every board')));
    return;
  }
  heading.textContent = r.category.title;
  document.title = `${r.category.title} · Forum · Citadel`;
  host.querySelector('.crumbs')!.replaceWith(crumbs(r.category.title));
  host.append(h('p', {}, r.category.about));
  host.append(newThreadBox(r.category.name));
  if (!r.threads.length) host.append(h('p', { class: 'empty' }, page > 1 ? 'No threads on this page.' : 'No threads yet: start the first one.'));
  else host.append(h('div', { class: 'table-wrap' }, h('table', { class: 'forum-threads', id: 'forum-threads' },
    h('thead', {}, h('tr', {}, h('th', {}, 'Thread'), h('th', {}, 'Started by'), h('th', { class: 'num' }, 'Posts'), h('th', {}, 'Last post'))),
    h('tbody', {}, ...r.threads.map(threadRow)))));
  const p = pager(r.page, r.pages, pageHref(`/forum/${r.category.name}`), 'Older threads', 'Newer threads');
  if (p) host.append(p);
}

function threadRow(t: Thread): HTMLElement {
  return h('tr', { 'data-thread': t.id },
    h('td', {}, link(`/forum/thread/${t.id}`, t.title), t.locked ? h('span', { class: 'tag' }, 'locked') : null),
    h('td', {}, h('span', { class: 'phone-only' }, 'by '), playerLink(t.author)),
    h('td', { class: 'num' }, t.posts, h('span', { class: 'phone-only' }, t.posts === 1 ? ' post' : ' posts')),
    h('td', {}, h('span', { class: 'phone-only' }, 'last post '), when(t.last_post)));
}

function newThreadBox(category: string): HTMLElement {
  if (!signedIn()) return signInNote('start a thread');
  const muted = mutedNote(mutedUntilMs());
  const title = h('input', { id: 'thread-title', name: 'title', required: true, maxlength: LIMITS.title, autocomplete: 'off' });
  const { field, area } = bodyField('thread-body', 'Message');
  const err = errorLine('thread-error');
  const submit = h('button', { type: 'submit', class: 'primary' }, 'Post thread');
  const form = h('form', { class: 'forum-form', id: 'new-thread', novalidate: true },
    h('label', { for: 'thread-title' }, 'Title'), title, field, err, h('div', { class: 'row' }, submit));
  const box = h('details', { class: 'panel forum-new' }, h('summary', {}, 'New thread'), muted, form);
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const t = title.value.trim(), b = area.value;
    const why = !t ? 'Give the thread a title.' : !b.trim() ? 'Write a message.' : tooLong(t, LIMITS.title, 'title') || tooLong(b, LIMITS.body, 'message');
    if (why) return showError(err, why);
    submit.disabled = true;
    try {
      const r = await forum.newThread(category, t, b);
      navigate(`/forum/thread/${r.thread}`);
    } catch (ex) {
      showError(err, ex);
      submit.disabled = false;
    }
  });
  return box;
}

// ---- /forum/thread/ID ----

export async function renderThread(host: HTMLElement, idText: string): Promise<void> {
  const id = Number(idText);
  const page = pageParam();
  let r;
  try {
    r = await forum.thread(id, page);
  } catch (e) {
    host.append(crumbs(), h('h1', {}, 'Thread not found'), h('p', { class: 'error' }, errorText(e)),
      h('p', {}, link('/forum', 'Back to the forum')));
    return;
  }
  const t = r.thread;
  document.title = `${t.title} · Forum · Citadel`;
  const title = h('h1', { class: 'thread-title', id: 'thread-title-text' }, t.title);
  host.append(crumbs(link(`/forum/${t.category}`, categoryTitle(t.category))), title);
  const meta = h('p', { class: 'hint thread-meta' }, 'Started by ', playerLink(t.author), ' · ', when(t.created), ' · ', plural(t.posts, 'post'));
  if (t.locked) meta.append(' · ', h('span', { class: 'tag', id: 'thread-locked' }, 'locked'));
  host.append(meta);
  if (isStaff()) host.append(staffBar(t));

  const list = h('div', { class: 'posts', id: 'posts' });
  host.append(list);
  r.posts.forEach((p, i) => list.append(postView(p, t, page === 1 && i === 0, title)));
  if (!r.posts.length) list.append(h('p', { class: 'empty' }, 'No posts on this page.'));
  const p = pager(r.page, r.pages, pageHref(`/forum/thread/${t.id}`), 'Later posts', 'Earlier posts');
  if (p) host.append(p);
  host.append(replyBox(t));
  // a link to one post (#post-ID) scrolls to it once the posts are there
  if (location.hash.startsWith('#post-')) document.getElementById(location.hash.slice(1))?.scrollIntoView();
}

const CATEGORY_TITLES: Record<string, string> = { rampart: 'Rampart', keeps: 'Keeps & Moats', stratego: 'Stratego', support: 'Technical Support', general: 'General' };
function categoryTitle(c: string): string {
  return CATEGORY_TITLES[c] ?? c;
}

function staffBar(t: Thread): HTMLElement {
  const err = errorLine();
  const reason = h('input', { type: 'text', id: 'mod-reason', maxlength: LIMITS.reason, placeholder: 'Reason (for the audit log)', 'aria-label': 'Reason, for the audit log' });
  const lock = h('button', { type: 'button', id: 'mod-lock' }, t.locked ? 'Unlock thread' : 'Lock thread');
  lock.addEventListener('click', async () => {
    lock.disabled = true;
    try {
      await moderation.lock(t.id, !t.locked, reason.value.trim());
      navigate(location.pathname + location.search, true);
    } catch (e) {
      showError(err, e);
      lock.disabled = false;
    }
  });
  return h('div', { class: 'panel staff-bar', role: 'group', 'aria-label': 'Moderation' },
    h('strong', {}, 'Moderation: '), reason, lock, err);
}

function postView(p: Post, t: Thread, opening: boolean, titleEl: HTMLElement): HTMLElement {
  const article = h('article', { class: 'post panel', id: `post-${p.id}`, 'data-post': p.id });
  const body = h('div', { class: 'post-body' });
  const actions = h('div', { class: 'post-actions' });
  const err = errorLine();

  const draw = (post: Post) => {
    p = post;
    setPostHtml(body, post.html);
    article.replaceChildren(
      h('header', { class: 'post-head' }, h('span', { class: 'post-author' }, playerLink(post.author)), ' · ', when(post.created),
        post.edited ? h('span', { class: 'hint' }, ` · edited ${formatWhen(post.edited)}`) : null),
      body, actions, err);
    drawActions();
  };

  const drawActions = () => {
    actions.replaceChildren();
    if (p.mine && p.editable && p.body !== undefined) actions.append(h('button', { type: 'button', class: 'linklike post-edit', onclick: () => edit() }, 'Edit'));
    if (p.mine) actions.append(h('button', { type: 'button', class: 'linklike post-delete', onclick: () => confirmDelete() }, 'Delete'));
    const rep = reportButton({ kind: 'post', id: p.id }, p.author);
    if (rep) actions.append(rep);
    if (isStaff()) actions.append(h('button', { type: 'button', class: 'linklike danger post-hide', onclick: () => void hide() },
      opening ? 'Hide (the whole thread)' : 'Hide'));
  };

  const edit = () => {
    const titleInput = opening ? h('input', { id: `edit-title-${p.id}`, maxlength: LIMITS.title, required: true }) : null;
    if (titleInput) titleInput.value = t.title;
    const { field, area } = bodyField(`edit-body-${p.id}`, 'Your post', p.body ?? '');
    const save = h('button', { type: 'submit', class: 'primary' }, 'Save');
    const cancel = h('button', { type: 'button', onclick: () => draw(p) }, 'Cancel');
    const form = h('form', { class: 'forum-form post-edit-form', novalidate: true },
      titleInput ? h('label', { for: titleInput.id }, 'Title') : null, titleInput, field, err, h('div', { class: 'row' }, save, cancel));
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      const newTitle = titleInput ? titleInput.value.trim() : undefined;
      const why = !area.value.trim() ? 'The post cannot be empty.' : tooLong(area.value, LIMITS.body, 'post') ||
        (newTitle !== undefined ? (!newTitle ? 'Give the thread a title.' : tooLong(newTitle, LIMITS.title, 'title')) : '');
      if (why) return showError(err, why);
      save.disabled = true;
      try {
        const r = await forum.edit(p.id, area.value, newTitle !== undefined && newTitle !== t.title ? newTitle : undefined);
        if (newTitle !== undefined && newTitle !== t.title) {
          t.title = newTitle;
          titleEl.textContent = newTitle;
        }
        showError(err, '');
        draw(r.post);
      } catch (ex) {
        showError(err, ex);
        save.disabled = false;
      }
    });
    article.replaceChildren(form);
    area.focus();
  };

  const confirmDelete = () => {
    actions.replaceChildren(h('span', { class: 'status' }, opening ? 'Delete this post and its thread? ' : 'Delete this post? '),
      h('button', { type: 'button', class: 'danger post-delete-yes', onclick: () => void remove() }, 'Yes, delete'),
      h('button', { type: 'button', onclick: () => drawActions() }, 'No'));
  };

  const remove = async () => {
    try {
      await forum.remove(p.id);
      if (opening) navigate(`/forum/${t.category}`);
      else navigate(location.pathname + location.search, true);
    } catch (e) {
      showError(err, e);
      drawActions();
    }
  };

  const hide = async () => {
    try {
      const reason = (document.getElementById('mod-reason') as HTMLInputElement | null)?.value.trim() ?? '';
      await moderation.hidePost(p.id, true, reason);
      if (opening) navigate(`/forum/${t.category}`);
      else navigate(location.pathname + location.search, true);
    } catch (e) {
      showError(err, e);
    }
  };

  draw(p);
  return article;
}

function replyBox(t: Thread): HTMLElement {
  if (t.locked) return h('p', { class: 'panel locked-note', id: 'locked-note' }, 'This thread is locked: no more replies.');
  if (!signedIn()) return signInNote('reply');
  const { field, area } = bodyField('reply-body', 'Your reply');
  const err = errorLine('reply-error');
  const submit = h('button', { type: 'submit', class: 'primary' }, 'Post reply');
  const form = h('form', { class: 'forum-form panel', id: 'reply-form', novalidate: true },
    h('h2', {}, 'Reply'), mutedNote(mutedUntilMs()), field, err, h('div', { class: 'row' }, submit));
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const why = !area.value.trim() ? 'Write a reply first.' : tooLong(area.value, LIMITS.body, 'reply');
    if (why) return showError(err, why);
    submit.disabled = true;
    try {
      const r = await forum.reply(t.id, area.value);
      navigate(`/forum/thread/${t.id}${r.page > 1 ? `?page=${r.page}` : ''}#post-${r.post}`, true);
    } catch (ex) {
      showError(err, ex);
      submit.disabled = false;
    }
  });
  return form;
}

// ---- /forum/search?q= ----

export async function renderSearch(host: HTMLElement): Promise<void> {
  const words = new URLSearchParams(location.search).get('q') ?? '';
  const page = pageParam();
  host.append(crumbs('Search'), h('h1', {}, 'Search the forum'), searchForm(words));
  if (!words.trim()) {
    host.append(h('p', { class: 'hint' }, 'Posts with every word you give are found (each word may be the start of a longer one).'));
    return;
  }
  try {
    const r = await forum.search(words, page);
    host.append(h('p', { class: 'hint', id: 'search-count' }, r.results.length
      ? `Posts with “${r.query}”${r.pages > 1 ? `, page ${r.page} of ${r.pages}` : ''}:` : `No post has “${r.query}”.`));
    host.append(h('ol', { class: 'search-results', id: 'search-results' }, ...r.results.map((x) => h('li', { class: 'panel', 'data-post': x.post },
      h('h2', {}, link(`/forum/thread/${x.thread.id}#post-${x.post}`, x.thread.title)),
      h('p', { class: 'snippet' }, x.snippet),
      h('p', { class: 'hint' }, playerLink(x.author), ' · ', when(x.created), ' · in ', link(`/forum/${x.thread.category}`, categoryTitle(x.thread.category)))))));
    const p = pager(r.page, r.pages, pageHref('/forum/search', { q: words }), 'More results', 'Better results');
    if (p) host.append(p);
  } catch (e) {
    host.append(h('p', { class: 'error' }, errorText(e)));
  }
}

route(/^\/forum\/?$/, renderForum, 'Forum', { engine: 'none' });
route(/^\/forum\/search\/?$/, renderSearch, 'Search the forum', { engine: 'none' });
route(/^\/forum\/thread\/(\d+)$/, renderThread, 'Forum', { engine: 'none' });
route(/^\/forum\/([a-z]+)\/?$/, renderCategory, 'Forum', { engine: 'none' });
