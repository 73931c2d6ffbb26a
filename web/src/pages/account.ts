// pages/account.ts -- /account: the signed-in account's own settings. Its
// API tokens (docs/bot-api.md, "Tokens"): the list (description, scopes,
// made, last used) with a Revoke button each, and a form that makes one with
// the scopes ticked. A new token is shown once, in a field to copy from; the
// server keeps only its fingerprint and never shows it again. A game
// played elsewhere imported from its PGN record (docs/pgn.md), to review.
// And the password changed, which signs out every other device (docs/api.md).

import { route } from '../router';
import { api } from '../api';
import type { ApiToken, Scope } from '../gen/api';
import { h, link, toast, copyText, errorText } from '../ui';
import { me } from '../session';
import { errorLine, showError, when, tooLong } from '../community/common';

const SCOPES: [Scope, string][] = [
  ['bot:play', 'play as a bot account (the account must be made a bot account first)'],
  ['board:play', 'play your own games through the API'],
  ['challenge:write', 'challenge other players'],
];
const DESCRIPTION_MAX = 200;

export async function renderAccount(host: HTMLElement): Promise<void> {
  const p = me();
  host.append(h('h1', {}, 'Your account'));
  if (!p || p.guest) {
    const back = encodeURIComponent('/account');
    host.append(h('p', { class: 'panel signin-note' }, link(`/signin?next=${back}`, 'Sign in'), ' or ',
      link(`/signup?next=${back}`, 'create an account'), ' to see your account.'));
    return;
  }
  host.append(h('p', {}, `Signed in as ${p.name}${p.bot ? ', a bot account: it plays through the API only' : ''}.`));

  const section = h('section', { id: 'api-tokens', 'aria-labelledby': 'api-tokens-title' });
  host.append(section);
  const list = h('div', { id: 'token-list' });
  const shown = h('div', { id: 'new-token-box' });
  section.append(
    h('h2', { id: 'api-tokens-title' }, 'API tokens'),
    h('p', {}, 'A token lets a program, such as a bot, act for this account through the Bot API, within the scopes you give it. ',
      'Anyone who has the token can do what it allows: keep it secret, and revoke it if it gets out. An account holds at most 20 tokens.'),
    shown, list, tokenForm(shown, () => void draw()));

  async function draw(): Promise<void> {
    let tokens: ApiToken[];
    try {
      tokens = (await api.tokens()).tokens;
    } catch (e) {
      list.replaceChildren(h('p', { class: 'error' }, `Your tokens could not be read: ${errorText(e)}`));
      return;
    }
    if (!tokens.length) {
      list.replaceChildren(h('p', { class: 'hint', id: 'no-tokens' }, 'You have no tokens.'));
      return;
    }
    list.replaceChildren(h('div', { class: 'table-wrap' }, h('table', { class: 'tokens-table' },
      h('thead', {}, h('tr', {}, h('th', {}, 'Description'), h('th', {}, 'Scopes'), h('th', {}, 'Made'),
        h('th', {}, 'Last used'), h('th', {}, h('span', { class: 'visually-hidden' }, 'Revoke')))),
      h('tbody', {}, ...tokens.map((t) => row(t))))));
  }

  function row(t: ApiToken): HTMLElement {
    const label = t.description || `token ${t.id}`;
    const cell = h('td', { class: 'token-actions' });
    const ask = (): void => {
      cell.replaceChildren(
        h('span', {}, 'Revoke for good? '),
        h('button', { type: 'button', class: 'danger', 'data-revoke-yes': t.id, onclick: () => void revoke() }, 'Yes, revoke'),
        ' ',
        h('button', { type: 'button', onclick: () => cell.replaceChildren(first()) }, 'Keep it'));
    };
    const first = (): HTMLElement => h('button', { type: 'button', class: 'danger', 'data-revoke': t.id, 'aria-label': `Revoke ${label}`, onclick: ask }, 'Revoke');
    const revoke = async (): Promise<void> => {
      try {
        await api.revokeToken(t.id);
        toast(`The token "${label}" is revoked: it no longer works.`);
      } catch (e) {
        toast(`Could not revoke the token: ${errorText(e)}`, 'error');
      }
      await draw();
    };
    cell.append(first());
    return h('tr', { 'data-token': t.id },
      h('td', {}, t.description || h('span', { class: 'hint' }, 'no description')),
      h('td', {}, t.scopes.join(', ')),
      h('td', {}, when(t.created)),
      h('td', {}, t.used ? when(t.used) : 'never'),
      cell);
  }

  await draw();
  host.append(importForm(), passwordForm());
}

const PASSWORD_MIN = 8, PASSWORD_MAX = 128;

/** The password changed: the current one, the new one twice. */
function passwordForm(): HTMLElement {
  const field = (id: string, auto: string): HTMLInputElement =>
    h('input', { id, type: 'password', autocomplete: auto, required: true, maxlength: PASSWORD_MAX });
  const now = field('password-now', 'current-password');
  const next = field('password-new', 'new-password');
  const again = field('password-again', 'new-password');
  const err = errorLine('password-error');
  const done = h('p', { id: 'password-done', role: 'status' });
  const submit = h('button', { type: 'submit', class: 'primary', id: 'change-password' }, 'Change the password');
  const form = h('form', { class: 'panel form', id: 'password-form', novalidate: true },
    h('label', { for: 'password-now' }, 'Current password'), now,
    h('label', { for: 'password-new' }, 'New password'), next,
    h('label', { for: 'password-again' }, 'The new password again'), again,
    h('p', { class: 'hint' }, `${PASSWORD_MIN} to ${PASSWORD_MAX} characters. Every other device signed in to this account is signed out; this one stays, and so do your API tokens.`),
    err, done, h('div', { class: 'row' }, submit));
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    done.replaceChildren();
    const why = !now.value ? 'Give your current password.'
      : next.value.length < PASSWORD_MIN ? `The new password needs at least ${PASSWORD_MIN} characters.`
        : next.value !== again.value ? 'The new password and its repetition differ.' : '';
    if (why) return showError(err, why);
    showError(err, '');
    submit.disabled = true;
    try {
      await api.changePassword(now.value, next.value);
      done.replaceChildren('Your password is changed. Every other device is signed out.');
      form.reset();
    } catch (ex) {
      showError(err, ex);
    }
    submit.disabled = false;
  });
  return h('section', { id: 'password', 'aria-labelledby': 'password-title' },
    h('h2', { id: 'password-title' }, 'Password'), form);
}

const PGN_MAX = 61440;

/** A PGN record pasted (or read from a file) and kept as a game to review. */
function importForm(): HTMLElement {
  const text = h('textarea', { id: 'import-pgn', name: 'pgn', rows: 10, spellcheck: 'false', placeholder: '[Event "..."]' });
  const file = h('input', { type: 'file', id: 'import-file', accept: '.pgn,text/plain' });
  file.addEventListener('change', async () => {
    const f = file.files?.[0];
    if (f) text.value = (await f.text()).slice(0, PGN_MAX + 1);
  });
  const err = errorLine('import-error');
  const done = h('p', { id: 'import-done', role: 'status' });
  const submit = h('button', { type: 'submit', class: 'primary', id: 'import-game' }, 'Import');
  const form = h('form', { class: 'panel form', id: 'import-form', novalidate: true },
    h('label', { for: 'import-pgn' }, 'The game\'s record (PGN)'), text,
    h('label', { for: 'import-file' }, 'or read it from a file'), file,
    h('p', { class: 'hint' }, 'One game of Rampart, Keeps & Moats or Stratego, as Citadel writes its records. ',
      'Every move is checked; the game is kept finished and unrated, with you in every seat, for you and others to review.'),
    err, done, h('div', { class: 'row' }, submit));
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const pgn = text.value.trim();
    const why = !pgn ? 'Paste a record first.' : tooLong(pgn, PGN_MAX, 'record');
    done.replaceChildren();
    if (why) return showError(err, why);
    showError(err, '');
    submit.disabled = true;
    try {
      const r = await api.importGame(pgn);
      done.replaceChildren(`Imported: ${r.plies} moves of ${r.variant}. `, link(`/review/${r.id}`, 'Review it'));
      form.reset();
    } catch (ex) {
      showError(err, ex);
    }
    submit.disabled = false;
  });
  return h('section', { id: 'import', 'aria-labelledby': 'import-title' },
    h('h2', { id: 'import-title' }, 'Import a game'), form);
}

function tokenForm(shown: HTMLElement, made: () => void): HTMLElement {
  const desc = h('input', { id: 'token-description', name: 'description', maxlength: DESCRIPTION_MAX, placeholder: 'my bot' });
  const boxes = SCOPES.map(([scope, words]) => h('label', {},
    h('input', { type: 'checkbox', name: 'scope', value: scope }), h('code', {}, scope), `: ${words}`));
  const err = errorLine('token-error');
  const submit = h('button', { type: 'submit', class: 'primary', id: 'make-token' }, 'Make a token');
  const form = h('form', { class: 'panel form token-form', id: 'token-form', novalidate: true },
    h('h3', {}, 'Make a token'),
    h('label', { for: 'token-description' }, 'Description'), desc,
    h('p', { class: 'hint' }, 'What the token is for, so that you know it again in the list.'),
    h('fieldset', { class: 'choices-set' }, h('legend', {}, 'What it may do'), h('div', { class: 'scope-choices' }, ...boxes)),
    err, h('div', { class: 'row' }, submit));
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const [one, ...more] = [...form.querySelectorAll<HTMLInputElement>('input[name=scope]:checked')].map((i) => i.value as Scope);
    const d = desc.value.trim();
    const why = !one ? 'Tick at least one scope.' : tooLong(d, DESCRIPTION_MAX, 'description');
    if (why || !one) return showError(err, why);
    showError(err, '');
    submit.disabled = true;
    try {
      const r = await api.makeToken([one, ...more], d);
      showToken(shown, r.token, d);
      form.reset();
      made();
    } catch (ex) {
      showError(err, ex);
    }
    submit.disabled = false;
  });
  return form;
}

/** The new token, once: a read-only field to copy from, and the warning. */
function showToken(box: HTMLElement, token: string, description: string): void {
  const field = h('input', { id: 'new-token', readonly: true, spellcheck: 'false', autocomplete: 'off', 'aria-describedby': 'new-token-warning' });
  field.value = token;
  box.replaceChildren(h('div', { class: 'panel notice new-token', role: 'status' },
    h('h3', {}, description ? `Your new token: ${description}` : 'Your new token'),
    h('label', { for: 'new-token' }, 'Token'),
    h('div', { class: 'row' }, field,
      h('button', { type: 'button', id: 'copy-token', onclick: () => void copyText(token, 'Token copied') }, 'Copy')),
    h('p', { class: 'error', id: 'new-token-warning' }, 'Copy it now: it will not be shown again. If you lose it, revoke it and make a new one.'),
    h('p', {}, h('button', { type: 'button', onclick: () => box.replaceChildren() }, 'I have copied it'))));
  field.focus();
  field.select();
}

route(/^\/account\/?$/, renderAccount, 'Your account', { engine: 'none' });
