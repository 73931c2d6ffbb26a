// main.ts -- the page's entry: the header (with the notifications indicator
// and, for staff, the Staff link), and a small router over
// location.pathname (History API). Each page is a function that fills the
// main element and may return a cleanup to run when the page is left.

import { h, link } from './ui';
import { loadMe, me, onSessionChange, isStaff } from './session';
import { socket } from './ws';
import { renderLearn } from './learn/index';
import { renderHome } from './pages/home';
import { renderGamePage } from './pages/game';
import { renderStrategoHelp } from './stratego/help';
import { renderKeepsHelp } from './keeps/help';
import { renderReview } from './pages/review';
import { renderAnalysis } from './pages/analysis';
import { renderChallenge } from './pages/challenge';
import { renderPlayer } from './pages/player';
import { renderAccount } from './pages/account';
import { renderLadder } from './pages/ladder';
import { renderSignin, renderSignup, signOut } from './pages/auth';
import { renderForum, renderCategory, renderThread, renderSearch } from './community/forum';
import { renderSupport, renderTicket } from './community/support';
import { renderStaff } from './community/staff';
import { renderTechSupport } from './community/techsupport';
import { notificationsWidget } from './community/notifications';
import { engineReady } from './engine/read';

export type Cleanup = (() => void) | void;
type Page = (host: HTMLElement, ...params: string[]) => Cleanup | Promise<Cleanup>;

const routes: [RegExp, Page, string][] = [
  [/^\/$/, renderHome, 'Play'],
  [/^\/game\/(\d+)$/, renderGamePage, 'Game'],
  [/^\/review\/(\d+)$/, renderReview, 'Review'],
  [/^\/analysis\/([a-z-]+)$/, renderAnalysis, 'Analysis'],
  [/^\/play\/([^/]+)$/, renderChallenge, 'Challenge'],
  [/^\/players\/([^/]+)$/, renderPlayer, 'Player'],
  [/^\/ladder\/([^/]+)$/, renderLadder, 'Ladder'],
  [/^\/ladder\/?$/, (host) => renderLadder(host, 'rampart'), 'Ladder'],
  [/^\/account\/?$/, renderAccount, 'Your account'],
  [/^\/signin$/, renderSignin, 'Sign in'],
  [/^\/signup$/, renderSignup, 'Sign up'],
  [/^\/stratego\/help$/, renderStrategoHelp, 'Stratego: how to play'],
  [/^\/stratego\/help\/support\/?$/, (host) => renderTechSupport(host, 'stratego'), 'Stratego: Technical Support'],
  [/^\/rampart\/help\/support\/?$/, (host) => renderTechSupport(host, 'rampart'), 'Rampart: Technical Support'],
  [/^\/forum\/?$/, renderForum, 'Forum'],
  [/^\/forum\/search\/?$/, renderSearch, 'Search the forum'],
  [/^\/forum\/thread\/(\d+)$/, renderThread, 'Forum'],
  [/^\/forum\/([a-z]+)\/?$/, renderCategory, 'Forum'],
  [/^\/support\/?$/, renderSupport, 'Support'],
  [/^\/support\/ticket\/(\d+)$/, renderTicket, 'Support'],
  [/^\/staff\/?(tickets|reports|audit)?\/?$/, renderStaff, 'Staff'],
  [/^\/keeps\/help(?:\/([a-z-]+))?\/?$/, renderKeepsHelp, 'Keeps & Moats: how to play'],
  [/^\/learn(\/.*)?$/, (host) => renderLearn(host, location.pathname), 'Learn'],
];

let cleanup: Cleanup = undefined;
let renderCount = 0;
// The games' engine reads every position string a board draws (engine/read.ts):
// loaded at once, and awaited before the first page is drawn.
const engineLoaded: Promise<string | null> = engineReady().then(() => null, (e) => String(e));

/** Goes to a path inside the page without reloading it. */
export function navigate(path: string, replace = false): void {
  if (replace) history.replaceState(null, '', path);
  else history.pushState(null, '', path);
  void render();
}

async function render(): Promise<void> {
  const n = ++renderCount;
  if (typeof cleanup === 'function') cleanup();
  cleanup = undefined;
  const host = document.getElementById('main')!;
  const failed = await engineLoaded;
  if (n !== renderCount) return;
  host.replaceChildren();
  if (failed) host.append(h('p', { class: 'error' }, `The games' engine could not be loaded, so boards cannot be drawn: ${failed}`));
  const path = decodeURI(location.pathname);
  for (const [re, page, title] of routes) {
    const m = re.exec(path);
    if (!m) continue;
    document.title = `${title} · Citadel`;
    markNav(path);
    const c = await page(host, ...m.slice(1).map((x) => x ?? ''));
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
      link('/signin', 'Sign in'),
      link('/signup', 'Sign up'),
    );
  } else {
    who.append(
      notificationsWidget(p.id),
      link(`/players/${encodeURIComponent(p.name)}`, h('span', { class: 'who-name' }, p.name)),
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

onSessionChange(renderHeader);
// The session cookie must exist before the WebSocket opens, or the two would
// each make a guest of their own.
void loadMe().then(() => {
  socket.connect();
  void render();
});
