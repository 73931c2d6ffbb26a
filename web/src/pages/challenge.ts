// pages/challenge.ts -- /play/TOKEN, the link a friend was sent: one click
// takes the challenge and the game opens.

import { h, link } from '../ui';
import { me } from '../session';
import { socket } from '../ws';
import { navigate, Cleanup } from '../main';

export function renderChallenge(host: HTMLElement, token: string): Cleanup {
  const offs: (() => void)[] = [];
  const msg = h('p', { 'aria-live': 'polite' });
  const accept = h('button', { type: 'button', class: 'primary big', id: 'accept-challenge' }, 'Accept and play');
  const p = me();
  host.append(
    h('h1', {}, 'You are challenged to a game of Rampart'),
    h('p', {}, p?.guest ? 'You will play as a guest (unrated). ' : '', p?.guest ? link(`/signin?next=/play/${encodeURIComponent(token)}`, 'Sign in') : null, p?.guest ? ' first to play a rated game.' : ''),
    h('p', {}, 'New to the game? ', link('/learn', 'Learn to play'), ' first: it takes five minutes.'),
    accept, msg);
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
