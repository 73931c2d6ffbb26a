// pages/settings.ts -- /settings: how the page looks and sounds (prefs.ts):
// the theme, the boards' colours, how pieces are drawn, the game sounds. Each change shows at once
// and is kept: on the account for a signed-in person, in this browser for
// a guest (and the page says which).

import { route } from '../router';
import { h, link } from '../ui';
import { me } from '../session';
import { changePrefs, localPrefs } from '../prefs';
import type { Prefs } from '../gen/api';

export function renderSettings(host: HTMLElement): void {
  const p = me();
  const account = !!p && !p.guest;
  const now = localPrefs();
  const status = h('p', { class: 'status', id: 'settings-status', 'aria-live': 'polite' },
    account ? 'Your settings are kept on your account, for every device you sign in on.' : 'Your settings are kept in this browser. ',
    account ? '' : h('span', {}, link('/signin?next=%2Fsettings', 'Sign in'), ' to keep them on your account.'));
  const save = async (change: Partial<Prefs>, said: string) => {
    const refused = await changePrefs(change, account);
    status.replaceChildren(refused ? h('span', { class: 'error' }, `Not kept: ${refused}`) : `${said} Kept ${account ? 'on your account' : 'in this browser'}.`);
  };
  const choices = <K extends 'theme' | 'board' | 'pieces'>(key: K, legend: string, list: [Prefs[K], string][], words: (v: Prefs[K]) => string) =>
    h('fieldset', { id: `settings-${key}` }, h('legend', {}, legend),
      h('div', { class: 'choices' }, ...list.map(([value, label]) =>
        h('label', {}, h('input', { type: 'radio', name: key, value, checked: now[key] === value,
          onchange: () => void save({ [key]: value } as Partial<Prefs>, words(value)) }), label))));
  const sound = h('input', { type: 'checkbox', id: 'settings-sound', checked: now.sound,
    onchange: () => void save({ sound: sound.checked }, sound.checked ? 'Sounds on.' : 'Sounds off.') });
  host.append(
    h('h1', {}, 'Settings'),
    h('form', { class: 'form panel settings', onsubmit: (e: Event) => e.preventDefault() },
      choices('theme', 'Theme', [['system', 'As my device (light or dark)'], ['light', 'Light'], ['dark', 'Dark']],
        (v) => `Theme: ${v === 'system' ? 'as your device' : v}.`),
      choices('board', 'Board colours', [['green', 'Green'], ['brown', 'Brown'], ['blue', 'Blue']],
        (v) => `Boards: ${v}.`),
      choices('pieces', 'Pieces (Rampart and Keeps & Moats)', [['figures', 'Figures, with their letters'], ['letters', 'Letters only, large']],
        (v) => `Pieces: ${v === 'letters' ? 'letters only' : 'figures'}.`),
      h('fieldset', {}, h('legend', {}, 'Sound'),
        h('label', { class: 'toggle' }, sound, 'Play a sound for moves, captures and the end of a game'))),
    status);
}

route(/^\/settings\/?$/, renderSettings, 'Settings', { engine: 'none' });
