// pages/home.ts -- the start page: what the three games are and where to
// learn them, the visitor's games in progress, the full new-game form (game,
// opponent, clock, move limit; the bot menu lists only the bots of the chosen
// game) and the live lobby.

import { api, Bot, Variant, Seek, GameSummary, moveLimits } from '../api';
import { botLabel, botsFor } from './bots';
import { myGames } from './mygames';
import { h, link, toast, errorText, formatTimeControl, copyText, playerName } from '../ui';
import { me, onSessionChange } from '../session';
import { socket } from '../ws';
import { navigate, Cleanup, route } from '../router';
import { families, familyNamed } from '../games/index';
import type { TableSeek } from '../games/family';

const CLOCKS: [string, number, number][] = [
  ['1+0', 60000, 0],
  ['3+2', 180000, 2000],
  ['5+3', 300000, 3000],
  ['10+5', 600000, 5000],
  ['15+10', 900000, 10000],
  ['None', 0, 0],
];

type Opponent = 'bot' | 'seek' | 'challenge' | 'local';

const SAVED = 'citadel.newgame';
type Choice = { variant: string; opponent: Opponent; bot: string; clock: string; limit: number; rated: boolean; side: number };

function loadChoice(): Choice {
  const def: Choice = { variant: 'rampart', opponent: 'bot', bot: 'bot-level1', clock: '10+5', limit: 100, rated: false, side: 0 };
  try {
    return { ...def, ...JSON.parse(localStorage.getItem(SAVED) ?? '{}') };
  } catch {
    return def;
  }
}

export async function renderHome(host: HTMLElement): Promise<Cleanup> {
  const offs: (() => void)[] = [];
  const waiting = h('div', { 'aria-live': 'polite' });
  let pendingSeek: number | null = null;

  const beginner = h('button', { type: 'button', class: 'button big', id: 'play-beginner' }, 'Play a beginner bot');
  const learn = link('/learn', 'Learn Rampart');
  learn.className = 'button big';
  host.append(
    h('section', { class: 'hero' },
      h('div', {},
        h('h1', {}, 'Citadel: three strategy games'),
        h('p', {}, 'Play Rampart, Stratego and Keeps & Moats Chess against bots, friends or anyone online, or with a friend on one device. New here? Rampart is the quickest to learn: its lessons take twenty minutes.')),
      h('div', { class: 'actions' }, learn, beginner)),
  );
  const mine = myGames();
  offs.push(mine.stop);
  // what each game is, with where to learn it and a button that chooses it below
  const pick: Record<string, HTMLButtonElement> = {};
  const card = (family: string, title: string, about: string, learnHref: string, learnText: string) => {
    pick[family] = h('button', { type: 'button', class: 'primary', 'data-pick': family }, `Play ${title}`);
    // (no aria-labelledby: the form's radio buttons are the controls named by the games' titles)
    return h('section', { class: 'game-card', id: `about-${family}` },
      h('h2', {}, title),
      h('p', {}, about),
      h('p', { class: 'game-card-links' }, link(learnHref, learnText), pick[family]));
  };
  host.append(mine.el, h('div', { class: 'game-cards' },
    ...families.map((f) => card(f.name, f.card.title, f.card.about, ...f.card.learn))));

  let variants: Variant[] = [];
  let bots: Bot[] = [];
  try {
    [variants, bots] = await Promise.all([api.variants(), api.bots().then((b) => b.bots)]);
  } catch (e) {
    host.append(h('p', { class: 'error' }, `Could not load the game list: ${errorText(e)}`));
    return;
  }
  // the games the registry can draw (games/index.ts)
  variants = variants.filter((v) => familyNamed(v.family));
  const choice = loadChoice();
  // A link such as /?bot=bot-level1 (the last Learn page) chooses that bot.
  const asked = new URLSearchParams(location.search).get('bot');
  if (asked && bots.some((b) => b.name === asked)) {
    choice.opponent = 'bot';
    choice.bot = asked;
  }
  // and /?variant=stratego (the Stratego help page) chooses that game
  const askedVariant = new URLSearchParams(location.search).get('variant');
  if (askedVariant && variants.some((v) => v.name === askedVariant)) choice.variant = askedVariant;
  if (!variants.some((v) => v.name === choice.variant)) choice.variant = variants[0]?.name ?? 'rampart';
  if (!bots.some((b) => b.name === choice.bot)) choice.bot = bots[0]?.name ?? '';

  // ---- the new-game form ----
  const radio = (name: string, value: string, label: Node | string, checked: boolean, id?: string) =>
    h('label', {}, h('input', { type: 'radio', name, value, checked, id }), label);

  // the games side by side, each family's variants in its own groups (Rampart's
  // rated boards, then its Fun Zone), in the registry's order
  const group = (name: string, list: Variant[], note?: string) => list.length
    ? h('div', { class: 'game-group' }, h('p', { class: 'group-name' }, name, note ? h('span', { class: 'hint' }, ` ${note}`) : null),
      h('div', { class: 'choices' }, ...list.map((v) => radio('variant', v.name, v.title, v.name === choice.variant))))
    : null;
  const gameField = h('fieldset', {}, h('legend', {}, 'Game'),
    ...families.flatMap((f) => f.menu(variants.filter((v) => v.family === f.name)).map(([name, list, note]) => group(name, list, note))),
    h('p', { class: 'hint', id: 'variant-about' }));

  // the bot menu: only the bots of the chosen game, each once, by a name for people
  const botSelect = h('select', { id: 'bot-select', name: 'bot' });
  function fillBots(variant: string): void {
    const list = botsFor(bots, variant);
    const cur = botSelect.value || choice.bot;
    const keep = list.some((x) => x.bot.name === cur) ? cur : (list.find((x) => x.bot.level === 1) ?? list[0])?.bot.name;
    botSelect.replaceChildren(...list.map((x) => h('option', { value: x.bot.name, selected: x.bot.name === keep }, x.label)));
  }
  const sideSelect = h('select', { id: 'side-select', name: 'side' },
    h('option', { value: '0', selected: choice.side === 0 }, 'Bottom (moves first)'),
    h('option', { value: '1', selected: choice.side === 1 }, 'Top'),
    h('option', { value: '-1', selected: choice.side === -1 }, 'Random'));
  const botRow = h('div', { class: 'row' }, h('label', { for: 'bot-select' }, 'Bot'), botSelect, h('label', { for: 'side-select' }, 'You play'), sideSelect);
  const oppField = h('fieldset', {}, h('legend', {}, 'Opponent'),
    h('div', { class: 'choices' },
      radio('opponent', 'bot', 'A bot', choice.opponent === 'bot', 'opp-bot'),
      radio('opponent', 'seek', 'Anyone (open a seek in the lobby)', choice.opponent === 'seek', 'opp-seek'),
      radio('opponent', 'challenge', 'A friend (share a link)', choice.opponent === 'challenge', 'opp-challenge'),
      radio('opponent', 'local', 'Two players on this device', choice.opponent === 'local', 'opp-local')),
    botRow);

  const clockField = h('fieldset', {}, h('legend', {}, 'Clock (minutes + seconds added per move)'),
    h('div', { class: 'choices' }, ...CLOCKS.map(([label]) => radio('clock', label, label, label === choice.clock))));

  const limitSelect = h('select', { id: 'limit-select', name: 'limit' });
  const ratedBox = h('input', { type: 'checkbox', id: 'rated', name: 'rated', checked: choice.rated });
  const ratedNote = h('span', { class: 'hint' });
  const limitLabel = h('label', { for: 'limit-select' }, 'Move limit (full moves, then decided by material)');
  const moreField = h('fieldset', {}, h('legend', {}, 'Rules'),
    limitLabel, limitSelect,
    h('label', { class: 'toggle' }, ratedBox, 'Rated game'), ratedNote);

  // a game of more sides (Keeps & Moats): seats at a table instead of an
  // opponent (its family's form.table, games/keeps/table.ts)
  const tableFamily = families.find((f) => f.form.table)!;
  const tableVariant = variants.find((v) => v.family === tableFamily.name)?.name ?? '';
  const keeps = tableFamily.form.table!.fields(botsFor(bots, tableVariant).map((x) => x.bot));
  // its seat menus name the bots as the bot menu does
  for (const o of keeps.el.querySelectorAll<HTMLOptionElement>('select[data-seat] option')) {
    const b = bots.find((x) => x.name === o.value);
    if (b) o.textContent = botLabel(b);
  }
  const play = h('button', { type: 'submit', class: 'primary big', id: 'start-game' }, 'Play');
  // what Play will start, in words, kept up to date as the form changes: the
  // form begins from the last game's choices, and says so
  const restored = localStorage.getItem(SAVED) !== null;
  const summary = h('p', { class: 'status', id: 'new-game-summary', 'aria-live': 'polite' });
  const form = h('form', { class: 'panel', id: 'new-game' }, h('h2', {}, 'New game'), gameField, oppField, keeps.el, clockField, moreField, summary, play, waiting);

  const value = (name: string) => (form.querySelector(`input[name="${name}"]:checked`) as HTMLInputElement | null)?.value ?? '';

  function refresh(): void {
    const v = variants.find((x) => x.name === value('variant'));
    form.querySelector('#variant-about')!.textContent = v?.about ?? '';
    // the family's own words for sides and move limit, and a link to its rules
    const fam = (v && familyNamed(v.family)) || families[0];
    if (v && fam.form.link) form.querySelector('#variant-about')!.append(' ', link(...fam.form.link));
    const km = !!v && !!fam.form.table;
    if (v) fillBots(v.name);
    keeps.el.hidden = !km;
    oppField.hidden = km;
    moreField.hidden = km;
    play.textContent = km ? 'Open the table' : 'Play';
    limitLabel.textContent = fam.form.limitLabel;
    sideSelect.options[0].text = fam.form.sides[0];
    sideSelect.options[1].text = fam.form.sides[1];
    const limits = fam.form.limits;
    const { offered, def } = limits ? { offered: limits, def: limits[0] } : moveLimits(v);
    const cur = Number(limitSelect.value) || choice.limit;
    limitSelect.replaceChildren(...offered.map((n) => h('option', { value: n, selected: n === (offered.includes(cur) ? cur : def) }, String(n))));
    const opp = value('opponent') as Opponent;
    botRow.hidden = opp !== 'bot';
    const p = me();
    const canRate = !!v?.rated && !!p && !p.guest && opp !== 'local';
    ratedBox.disabled = !canRate;
    if (!canRate) ratedBox.checked = false;
    ratedNote.replaceChildren(
      !v?.rated ? 'Fun Zone games are never rated.'
        : opp === 'local' ? 'Games on one device are not rated.'
        : !p || p.guest ? h('span', {}, 'Guests play unrated games. ', link('/signup', 'Sign up'), ' to play rated ones.')
        : 'Rated games change your rating on the ladder.');
    summary.textContent = km ? '' : summaryWords(v, opp);
  }

  /** "Play starts: Rampart XL, rated, clock 3+2, move limit 100, against
   *  Level 1; you play Bottom (moves first)." */
  function summaryWords(v: Variant | undefined, opp: Opponent): string {
    if (!v) return '';
    const clock = value('clock');
    const parts = [v.title, ratedBox.checked ? 'rated' : 'unrated', clock === 'None' ? 'no clock' : `clock ${clock}`];
    if (limitSelect.value && Number(limitSelect.value) > 0) parts.push(`move limit ${limitSelect.value}`);
    const against = opp === 'bot'
      ? `against ${botSelect.selectedOptions[0]?.textContent ?? 'a bot'}; you play ${sideSelect.selectedOptions[0]?.textContent ?? ''}`
      : opp === 'seek' ? 'against whoever accepts your seek in the lobby'
      : opp === 'challenge' ? 'against the friend you send the link to'
      : 'for two players on this device';
    return `${restored ? 'As your last game (change anything above): ' : ''}Play starts ${parts.join(', ')}, ${against}.`;
  }
  form.addEventListener('change', refresh);
  offs.push(onSessionChange(refresh));
  refresh();

  for (const [family, button] of Object.entries(pick)) {
    button.addEventListener('click', () => {
      const inputs = [...form.querySelectorAll<HTMLInputElement>('input[name="variant"]')]
        .filter((i) => variants.find((v) => v.name === i.value)?.family === family);
      const input = inputs.find((i) => i.checked) ?? inputs[0];
      if (!input) return;
      input.checked = true;
      refresh();
      form.scrollIntoView({ behavior: 'smooth', block: 'start' });
      input.focus({ preventScroll: true });
    });
  }

  function settings() {
    const [, base_ms, inc_ms] = CLOCKS.find(([l]) => l === value('clock')) ?? CLOCKS[3];
    return { variant: value('variant'), base_ms, inc_ms, move_limit: Number(limitSelect.value), rated: ratedBox.checked };
  }

  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const s = settings();
    const opp = value('opponent') as Opponent;
    localStorage.setItem(SAVED, JSON.stringify({ variant: s.variant, opponent: opp, bot: botSelect.value, clock: value('clock'), limit: s.move_limit, rated: s.rated, side: Number(sideSelect.value) }));
    const chosen = variants.find((v) => v.name === s.variant);
    if (chosen && familyNamed(chosen.family)?.form.table) socket.send({ type: 'table', variant: s.variant, base_ms: s.base_ms, inc_ms: s.inc_ms, ...keeps.settings(), ref: 'newgame' });
    else if (opp === 'bot') socket.send({ type: 'play_bot', ...s, bot: botSelect.value, side: Number(sideSelect.value), ref: 'newgame' });
    else if (opp === 'local') socket.send({ type: 'local', variant: s.variant, base_ms: s.base_ms, inc_ms: s.inc_ms, move_limit: s.move_limit, ref: 'newgame' });
    else if (opp === 'seek') socket.send({ type: 'seek', ...s, ref: 'newgame' });
    else socket.send({ type: 'challenge', ...s, ref: 'newgame' });
    play.disabled = true;
    waiting.replaceChildren(h('p', {}, 'Starting…'));
  });

  beginner.addEventListener('click', () => {
    const list = botsFor(bots, 'rampart').map((x) => x.bot);
    const b = list.find((x) => x.level === 1 && !x.style) ?? list[0];
    socket.send({ type: 'play_bot', variant: 'rampart', base_ms: 0, inc_ms: 0, move_limit: 100, rated: false, bot: b?.name ?? 'bot-level1', side: 0, ref: 'newgame' });
    beginner.disabled = true;
  });

  function cancelSeek(): void {
    if (pendingSeek !== null) socket.send({ type: 'cancel', seek: pendingSeek });
    pendingSeek = null;
    waiting.replaceChildren();
    play.disabled = false;
  }

  offs.push(socket.on('*', (m) => {
    if (m.type !== ('table_created' as string)) return;
    play.disabled = false;
    waiting.replaceChildren(h('p', { class: 'status', id: 'km-table-open' }, 'Your table is open in the lobby. The game starts when every seat is taken.'));
  }));
  offs.push(socket.on('seek_created', (m) => {
    pendingSeek = m.seek;
    waiting.replaceChildren(h('p', { class: 'status' }, 'Waiting for an opponent to accept your seek…'),
      h('button', { type: 'button', onclick: cancelSeek }, 'Cancel seek'));
  }));
  offs.push(socket.on('challenge_created', (m) => {
    const url = `${location.origin}/play/${m.token}`;
    const input = h('input', { readonly: true, value: url, id: 'challenge-link', 'aria-label': 'Challenge link' });
    waiting.replaceChildren(
      h('p', { class: 'status' }, 'Send this link to your friend. The game starts when they accept it; keep Citadel open until then (closing it withdraws the challenge).'),
      h('div', { class: 'link-box' }, input, h('button', { type: 'button', onclick: () => void copyText(url, 'Link copied') }, 'Copy link')),
      h('button', { type: 'button', class: 'linklike', onclick: () => { waiting.replaceChildren(); play.disabled = false; } }, 'Close'));
    input.select();
  }));
  offs.push(socket.on('error', (m) => {
    if (m.ref !== 'newgame' && m.ref !== 'lobby') return;
    toast(m.error, 'error');
    play.disabled = false;
    beginner.disabled = false;
    // said beside the button pressed, not only at the foot of the page
    const games = document.getElementById('my-games');
    waiting.replaceChildren(h('p', { class: 'error', role: 'alert', id: 'new-game-error' }, `The game could not start: ${m.error}`,
      games && !games.hidden ? h('span', {}, ' ', h('button', { type: 'button', class: 'linklike', onclick: () => games.scrollIntoView({ block: 'start' }) }, 'Your games in progress'), ' are at the top of this page.') : ''));
  }));
  // Any game that starts for us (a bot game, our seek or challenge taken) opens at once.
  offs.push(socket.on('game', (m) => {
    if (m.game.you.length && m.game.status === 'live') {
      pendingSeek = null; // taken: nothing left to cancel
      navigate(`/game/${m.game.id}`);
    }
  }));

  // ---- the lobby ----
  const seeksBox = h('div', { id: 'lobby-seeks' });
  const gamesBox = h('div', { id: 'lobby-games' });
  const tablesBox = h('div', { id: 'lobby-tables' });
  const lobby = h('section', { class: 'panel', 'aria-labelledby': 'lobby-h' },
    h('h2', { id: 'lobby-h' }, 'Lobby'),
    h('h3', {}, 'Open seeks'), seeksBox,
    h('h3', {}, `${tableFamily.title} tables`), h('p', { class: 'hint' }, 'Four kingdoms, up to four people. ', link(...tableFamily.rules)), tablesBox,
    h('h3', {}, 'Games being played'), gamesBox);

  function drawLobby(all: Seek[], games: GameSummary[]): void {
    const mine = me();
    const tables = (all as TableSeek[]).filter((s) => s.seats);
    const seeks = all.filter((s) => !(s as TableSeek).seats);
    tablesBox.replaceChildren(tables.length ? tableFamily.form.table!.list(tables, (table, seat) => socket.send({ type: 'sit', table, seat, ref: 'lobby' }))
      : h('p', { class: 'empty' }, `No open tables. Choose ${tableFamily.title} above to open one.`));
    seeksBox.replaceChildren(seeks.length
      ? h('table', {}, h('thead', {}, h('tr', {}, h('th', {}, 'Player'), h('th', {}, 'Game'), h('th', {}, 'Clock'), h('th', {}, h('span', { class: 'visually-hidden' }, 'Accept or cancel')))),
        h('tbody', {}, ...seeks.map((s) => {
          const own = !!mine && s.player?.id === mine.id;
          return h('tr', {},
            h('td', {}, playerName(s.player)),
            h('td', {}, `${s.title ?? s.variant}${s.rated ? ', rated' : ''}, ${s.move_limit} moves`),
            h('td', {}, formatTimeControl(s.base_ms, s.inc_ms)),
            h('td', {}, own
              ? h('button', { type: 'button', onclick: () => { pendingSeek = s.id; cancelSeek(); } }, 'Cancel')
              : h('button', { type: 'button', class: 'primary', 'data-seek': s.id, onclick: () => socket.send({ type: 'accept', seek: s.id, ref: 'lobby' }) }, 'Accept')));
        })))
      : h('p', { class: 'empty' }, 'No open seeks. Open one with "Anyone" above, or play a bot.'));
    gamesBox.replaceChildren(games.length
      ? h('ul', {}, ...games.map((g) => h('li', {},
        link(`/game/${g.id}`, `${g.players.map(playerName).join(' vs ')}`),
        ` · ${g.title ?? g.variant} · ${formatTimeControl(g.base_ms, g.inc_ms)}${g.rated ? ' · rated' : ''}`)))
      : h('p', { class: 'empty' }, 'No games right now.'));
  }
  offs.push(socket.on('lobby', (m) => drawLobby(m.seeks, m.games)));
  offs.push(socket.on('hello', () => socket.send({ type: 'lobby' })));
  socket.send({ type: 'lobby' });

  host.append(h('div', { class: 'columns' }, form, lobby));
  return () => {
    for (const off of offs) off();
    if (pendingSeek !== null) socket.send({ type: 'cancel', seek: pendingSeek });
  };
}

route(/^\/$/, renderHome, 'Play', { engine: 'none' });
