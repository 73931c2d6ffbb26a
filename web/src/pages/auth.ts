// pages/auth.ts -- sign up, sign in and sign out.

import { api } from '../api';
import { h, link, toast, errorText } from '../ui';
import { me, sessionChanged } from '../session';
import { navigate, route } from '../router';

/** Where to go once signed in: ?next=/play/TOKEN and the like, this site only. */
function nextPath(): string | null {
  const back = new URLSearchParams(location.search).get('next');
  return back && back.startsWith('/') && !back.startsWith('//') ? back : null;
}

function form(host: HTMLElement, mode: 'signin' | 'signup'): void {
  const isUp = mode === 'signup';
  const next = nextPath();
  const keepNext = (path: string) => (next ? `${path}?next=${encodeURIComponent(next)}` : path);
  const name = h('input', { id: 'auth-name', name: 'name', autocomplete: 'username', required: true, minlength: 3, maxlength: 20, pattern: '[A-Za-z0-9_\\-]+' });
  const pass = h('input', { id: 'auth-pass', name: 'password', type: 'password', autocomplete: isUp ? 'new-password' : 'current-password', required: true, minlength: isUp ? 8 : 1, maxlength: 128 });
  const err = h('p', { class: 'error', role: 'alert' });
  const submit = h('button', { type: 'submit', class: 'primary' }, isUp ? 'Create account' : 'Sign in');
  const f = h('form', { class: 'form panel', novalidate: true },
    h('label', { for: 'auth-name' }, 'Name'),
    name,
    isUp ? h('p', { class: 'hint' }, '3 to 20 letters, digits, _ or -. Others see it on the ladder.') : null,
    h('label', { for: 'auth-pass' }, 'Password'),
    pass,
    isUp ? h('p', { class: 'hint' }, 'At least 8 characters.') : null,
    err,
    h('div', { class: 'row' }, submit,
      isUp ? h('span', {}, 'Have an account? ', link(keepNext('/signin'), 'Sign in')) : h('span', {}, 'New here? ', link(keepNext('/signup'), 'Create an account'))),
  );
  f.addEventListener('submit', async (e) => {
    e.preventDefault();
    err.replaceChildren();
    // every problem at once, each beside the field it is about
    const problems: [HTMLInputElement, string][] = [];
    if (isUp && !/^[A-Za-z0-9_-]{3,20}$/.test(name.value)) problems.push([name, 'A name is 3 to 20 letters, digits, _ or -.']);
    if (isUp && pass.value.length < 8) problems.push([pass, 'The password needs at least 8 characters.']);
    for (const field of [name, pass]) field.removeAttribute('aria-invalid');
    if (problems.length) {
      for (const [field] of problems) field.setAttribute('aria-invalid', 'true');
      err.append(...problems.map(([, text], i) => (i ? [h('br'), text] : [text])).flat());
      problems[0][0].focus();
      return;
    }
    submit.disabled = true;
    try {
      const r = isUp ? await api.signup(name.value, pass.value) : await api.signin(name.value, pass.value);
      sessionChanged(r.player);
      toast(isUp ? `Welcome, ${r.player.name}! Your games are now rated.` : `Signed in as ${r.player.name}`);
      navigate(next ?? '/');
    } catch (ex) {
      err.textContent = errorText(ex);
      submit.disabled = false;
    }
  });
  const p = me();
  host.append(
    h('h1', {}, isUp ? 'Create an account' : 'Sign in'),
    p && !p.guest ? h('p', {}, `You are signed in as ${p.name}.`) : '',
    next?.startsWith('/play/') ? h('p', { class: 'status' }, `${isUp ? 'Create an account' : 'Sign in'}, and you go back to the challenge to accept it.`) : '',
    h('p', {}, isUp
      ? 'An account lets you play rated games, appear on the ladder and find your games later. Guests can play unrated games without one.'
      : 'Sign in to play rated games and find your games later.'),
    f,
  );
  name.focus();
}

export function renderSignin(host: HTMLElement): void {
  form(host, 'signin');
}

export function renderSignup(host: HTMLElement): void {
  form(host, 'signup');
}

export async function signOut(): Promise<void> {
  try {
    await api.signout();
  } catch (ex) {
    toast(errorText(ex), 'error');
    return;
  }
  // the server hands out a fresh guest session on the next request
  const r = await api.me().catch(() => null);
  sessionChanged(r ? r.player : null);
  toast('Signed out');
  navigate('/');
}

route(/^\/signin$/, renderSignin, 'Sign in', { engine: 'none' });
route(/^\/signup$/, renderSignup, 'Sign up', { engine: 'none' });
