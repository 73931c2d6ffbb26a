// pages/challenge.ts -- /play/TOKEN, the link a friend was sent: who
// challenges, to which game and on what terms (GET /api/challenges/TOKEN),
// then one click takes the challenge and the game opens. A rated challenge
// needs an account: a guest is sent to sign in or up and comes back here.

import { api, ApiError, Challenge } from '../api';
import { h, link, errorText, formatTimeControl, playerName } from '../ui';
import { me } from '../session';
import { socket } from '../ws';
import { navigate, Cleanup, route } from '../router';
import { familyOfVariant } from '../games/index';

/** "100 full moves, then decided by material" and the like. */
function limitText(c: Challenge): string {
  if (!c.move_limit) return 'none';
  return familyOfVariant(c.variant).limitTerms(c.move_limit);
}

/** Where to learn the challenge's game. */
function learnLink(c: Challenge): HTMLElement | null {
  return familyOfVariant(c.variant).learnHint?.() ?? null;
}

export async function renderChallenge(host: HTMLElement, token: string): Promise<Cleanup> {
  const offs: (() => void)[] = [];
  const heading = h('h1', {}, 'A challenge');
  host.append(heading);
  let c: Challenge;
  try {
    c = await api.challenge(token);
  } catch (e) {
    heading.textContent = 'This challenge is no longer open';
    host.append(
      h('p', { class: e instanceof ApiError && e.status === 404 ? '' : 'error' },
        e instanceof ApiError && e.status === 404
          ? 'Someone has taken it already, or its sender withdrew it (a challenge stays open while its sender keeps the page open).'
          : errorText(e)),
      h('p', {}, link('/', 'Start a game of your own'), ' or ask your friend for a new link.'));
    return;
  }
  const back = `/play/${encodeURIComponent(token)}`;
  const who = playerName(c.challenger);
  heading.textContent = `${who} challenges you to a game of ${c.title}`;
  host.append(h('dl', { class: 'terms', id: 'challenge-terms' },
    h('dt', {}, 'Challenger'), h('dd', {}, c.challenger.bot || c.challenger.guest ? who : link(`/players/${encodeURIComponent(who)}`, who),
      c.challenger.guest ? ' (a guest)' : ''),
    h('dt', {}, 'Game'), h('dd', {}, c.title),
    h('dt', {}, 'Clock'), h('dd', {}, c.base_ms ? `${formatTimeControl(c.base_ms, c.inc_ms)} (minutes + seconds added per move)` : 'no clock'),
    h('dt', {}, 'Move limit'), h('dd', {}, limitText(c)),
    h('dt', {}, 'Rated'), h('dd', {}, c.rated ? 'rated: the result changes both ratings' : 'unrated')));

  const p = me();
  const msg = h('p', { 'aria-live': 'polite' });
  if (p && p.id === c.challenger.id) {
    host.append(h('p', { class: 'status' }, 'This is your own challenge: send this page\'s address to a friend. The game starts when they accept it.'));
    return;
  }
  if (c.rated && (!p || p.guest)) {
    host.append(h('div', { class: 'panel notice', id: 'challenge-signin' },
      h('p', {}, h('strong', {}, 'This game is rated, so it needs an account.'), ' You are a guest: sign in, or sign up (it takes a moment), to accept it. You will come back to this page.'),
      h('p', { class: 'actions' },
        Object.assign(link(`/signin?next=${encodeURIComponent(back)}`, 'Sign in to accept'), { className: 'button primary' }),
        Object.assign(link(`/signup?next=${encodeURIComponent(back)}`, 'Sign up'), { className: 'button' }))));
    const learn = learnLink(c);
    if (learn) host.append(learn);
    return;
  }
  const accept = h('button', { type: 'button', class: 'primary big', id: 'accept-challenge' }, 'Accept and play');
  if (p?.guest) host.append(h('p', { class: 'hint' }, `You play as a guest (${p.name}). `, link(`/signin?next=${encodeURIComponent(back)}`, 'Sign in'), ' first if you have an account.'));
  const learn = learnLink(c);
  if (learn) host.append(learn);
  host.append(accept, msg);
  accept.addEventListener('click', () => {
    accept.disabled = true;
    msg.textContent = 'Starting…';
    socket.send({ type: 'accept_challenge', token, ref: 'challenge' });
  });
  offs.push(socket.on('game', (m) => {
    if (m.game.you.length && m.game.status === 'live') navigate(`/game/${m.game.id}`, true);
  }));
  offs.push(socket.on('error', (m) => {
    if (m.ref !== 'challenge') return;
    msg.replaceChildren(h('span', { class: 'error' }, m.error), ' ', link('/', 'Start a game of your own'));
    accept.disabled = false;
  }));
  return () => offs.forEach((off) => off());
}

route(/^\/play\/([^/]+)$/, renderChallenge, 'Challenge');
