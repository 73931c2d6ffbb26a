// main.ts -- the page's entry: the header (with the notifications indicator
// and, for staff, the Staff link), and the drawing of whichever page's
// route (router.ts) matches location.pathname (History API). Each page is
// a function that fills the main element and may return a cleanup to run
// when the page is left. Nothing imports this file.

import { afterPaint, h, link } from './ui';
import { loadMe, me, onSessionChange, isStaff } from './session';
import { socket } from './ws';
import { Cleanup, findRoute, navigate, onNavigate } from './router';
import { signOut } from './pages/auth';
import { notificationsWidget } from './community/notifications';
import { whenEngine } from './engine/read';
import { applyPrefs, localPrefs, loadAccountPrefs } from './prefs';
// Every page registers its own routes (router.ts) when its module is
// loaded: these imports are here for that alone. The order is the order
// routes are tried in.
import './pages/home';
import './pages/game';
import './pages/review';
import './pages/analysis';
import './pages/challenge';
import './pages/player';
import './pages/ladder';
import './pages/account';
import './pages/settings';
import './games/index';  // each game's help pages
import './community/forum';
import './community/support';
import './community/staff';

let cleanup: Cleanup = undefined;
let renderCount = 0;
// The games' engine reads every position string a board draws (engine/read.ts):
// loaded when the first page that needs it is drawn. A page that waits
// for it (router.ts, EngineNeed) is drawn once it is there; one that draws
// its first boards from the server's reading is drawn at once, while the
// engine loads; a page that draws no board never loads it.
let engineLoaded: Promise<string | null> | null = null;
let engineSettled = false;
const loadEngine = (): Promise<string | null> =>
  (engineLoaded ??= whenEngine().then(() => null, (e) => String(e)).finally(() => (engineSettled = true)));

onNavigate(() => void render());

async function render(): Promise<void> {
  const n = ++renderCount;
  if (typeof cleanup === 'function') cleanup();
  cleanup = undefined;
  const host = document.getElementById('main')!;
  const path = decodeURI(location.pathname);
  const found = findRoute(path);
  const need = found?.engine ?? 'none';
  if (need === 'wait' && !engineSettled) {
    // the page left at once, and a word while its boards' engine arrives
    host.replaceChildren(h('p', { class: 'loading', 'aria-busy': 'true' }, 'Loading the boards…'));
    markNav(path);
  }
  const failed = need === 'wait' ? await loadEngine() : null;
  if (n !== renderCount) return;
  host.replaceChildren();
  if (failed) host.append(h('p', { class: 'error' }, `The games' engine could not be loaded, so boards cannot be drawn: ${failed}`));
  if (found) {
    document.title = `${found.title} · Citadel`;
    markNav(path);
    // a page drawn from the server's readings asks for the engine once it
    // is drawn (or after a few seconds, whichever is first), so that the
    // engine's bytes do not share the line with what its first paint needs
    let soon = 0;
    const later = (): void => {
      if (soon < 0) return;
      clearTimeout(soon);
      soon = -1;
      void loadEngine().then((err) => {
        if (err && n === renderCount) host.prepend(h('p', { class: 'error' }, `The games' engine could not be loaded, so moves cannot be shown: ${err}`));
      });
    };
    if (need === 'served') soon = window.setTimeout(later, 3000);
    const c = await found.page(host, ...found.params);
    if (need === 'served') void afterPaint().then(later);
    if (n === renderCount) cleanup = c;
    else if (typeof c === 'function') c(); // another page came first
    // move focus to the new page's heading so keyboard and screen reader users start there
    const heading = host.querySelector<HTMLElement>('h1');
    if (heading && n === renderCount) {
      heading.tabIndex = -1;
      heading.focus({ preventScroll: true });
    }
    return;
  }
  document.title = 'Not found · Citadel';
  host.append(h('h1', {}, 'Page not found'), h('p', {}, 'There is nothing at this address. ', link('/', 'Go to the start page'), '.'));
}

function markNav(path: string): void {
  for (const a of document.querySelectorAll<HTMLAnchorElement>('#nav a')) {
    const here = a.getAttribute('href') === '/' ? path === '/' : path.startsWith(a.getAttribute('href')!);
    if (here) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
}

function renderHeader(): void {
  const who = document.getElementById('who')!;
  const p = me();
  who.replaceChildren();
  drawStaffLink();
  if (!p) return;
  if (p.guest) {
    who.append(
      h('span', { class: 'who-name', title: 'You are playing as a guest: unrated games only' }, `Guest (${p.name})`),
      link('/settings', 'Settings'),
      link('/signin', 'Sign in'),
      link('/signup', 'Sign up'),
    );
  } else {
    who.append(
      notificationsWidget(p.id),
      link(`/players/${encodeURIComponent(p.name)}`, h('span', { class: 'who-name' }, p.name)),
      link('/settings', 'Settings'),
      link('/account', 'Account'),
      h('button', { type: 'button', class: 'linklike', onclick: () => void signOut() }, 'Sign out'),
    );
  }
}

/** The nav's Staff link, for moderators and admins only. */
function drawStaffLink(): void {
  const nav = document.getElementById('nav');
  if (!nav) return;
  const there = document.getElementById('nav-staff');
  if (isStaff() && !there) {
    const a = link('/staff', 'Staff');
    a.id = 'nav-staff';
    nav.append(a);
    markNav(decodeURI(location.pathname));
  } else if (!isStaff() && there) there.remove();
}

// Links marked data-link (and any plain same-site link) go through the router.
document.addEventListener('click', (e) => {
  if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  const a = (e.target as Element).closest?.('a');
  if (!a || a.target || a.hasAttribute('download')) return;
  const url = new URL(a.href, location.href);
  if (url.origin !== location.origin || url.pathname.startsWith('/api/')) return;
  e.preventDefault();
  navigate(url.pathname + url.search + url.hash);
});

window.addEventListener('popstate', () => void render());

socket.onState = (s) => {
  const el = document.getElementById('conn');
  if (!el) return;
  el.textContent = s === 'open' ? '' : s === 'connecting' ? 'Connecting…' : 'Connection lost: reconnecting…';
  el.hidden = s === 'open';
};

// The visitor's settings (prefs.ts): this browser's at once, before anything
// is drawn; a signed-in person's kept ones as soon as the session is known.
applyPrefs(localPrefs());
let prefsFor = 0;
onSessionChange((p) => {
  if (p && !p.guest && p.id !== prefsFor) void loadAccountPrefs();
  prefsFor = p && !p.guest ? p.id : 0;
});
onSessionChange(renderHeader);
// The session cookie must exist before the WebSocket opens, or the two would
// each make a guest of their own.
void loadMe().then(() => {
  socket.connect();
  void render();
});
