// games/keeps/table.ts -- Keeps & Moats tables on the start page: the settings of a
// new table (game type, Captured King Result, move limit, four seats) and the
// lobby's open tables with a "Sit here" button per open seat (docs/api.md,
// `table` and `sit`).

import type { Bot } from '../../api';
import type { TableSeek } from '../family';
import { h, playerName, formatTimeControl } from '../../ui';
import { KINGDOMS, GAME_TYPES, GAME_TYPE_ORDER, KING_RESULTS, KING_RESULT_ORDER } from './notation';
import { swatch } from './words';

export const KEEPS = 'keeps-moats';


const LIMITS: [number, string][] = [[200, '200 rounds'], [100, '100 rounds'], [50, '50 rounds'], [0, 'No limit']];

const STYLE_WORDS: Record<string, string> = { aggressive: 'Aggressive', balanced: 'Balanced', defensive: 'Defensive' };

/** "Balanced, strength 2" / "Capture bot" for a Keeps & Moats bot. */
export function keepsBotLabel(b: Bot & { style?: string }): string {
  if (b.style && STYLE_WORDS[b.style]) return `${STYLE_WORDS[b.style]} bot, strength ${b.level}`;
  if (b.spec === 'capture') return 'Capture bot (takes the most valuable piece)';
  if (b.spec === 'random') return 'Random bot';
  if (b.spec === 'greedy') return 'Greedy bot';
  return b.name;
}

export type TableSettings = { options: { GameType: number; KingResult: number }; move_limit: number; seats: string[] };

/** The form's Keeps & Moats part; shown only while that game is chosen. */
export function tableFields(allBots: (Bot & { variants?: string[] })[]): { el: HTMLElement; settings: () => TableSettings } {
  const bots = allBots.filter((b) => b.variants?.includes(KEEPS));
  const select = (id: string, label: string, options: [string | number, string][], def: string | number) =>
    h('div', { class: 'row' }, h('label', { for: id }, label),
      h('select', { id, name: id }, ...options.map(([v, t]) => h('option', { value: v, selected: v === def }, t))));
  const defaultBot = bots.find((b) => (b as { style?: string }).style === 'balanced')?.name ?? bots[0]?.name ?? 'open';
  const seatChoices: [string, string][] = [['me', 'Me'], ['open', 'Open (another person)'], ...bots.map((b): [string, string] => [b.name, keepsBotLabel(b)])];
  const seatRows = KINGDOMS.map((name, k) => {
    const id = `km-seat-${k}`;
    return h('div', { class: 'row km-seat-row' },
      h('label', { for: id }, swatch(k), name, k === 0 ? ' (moves first)' : ''),
      h('select', { id, name: id, 'data-seat': k }, ...seatChoices.map(([v, t]) => h('option', { value: v, selected: v === (k === 0 ? 'me' : defaultBot) }, t))));
  });
  const el = h('fieldset', { class: 'km-table-fields', id: 'km-table' }, h('legend', {}, 'Keeps & Moats table'),
    select('km-game-type', 'Game type', GAME_TYPE_ORDER.map((t, i): [number, string] => [i, GAME_TYPES[t] + (t === 'neighbors' ? ' (White+Blue vs Red+Black)' : t === 'crossroad' ? ' (White+Black vs Red+Blue)' : ' (each for itself)')]), 2),
    select('km-king-result', 'Captured King Result', KING_RESULT_ORDER.map((t, i): [number, string] => [i, KING_RESULTS[t] + (t === 'gained' ? ': its pieces pass to the captor' : t === 'lost' ? ': its pieces leave the board' : ': its pieces stay, frozen')]), 0),
    select('km-limit', 'Move limit', LIMITS, 200),
    h('p', { class: 'hint' }, 'Seats: each kingdom is you, another person ("Open": they sit down from the lobby), or a bot. You may take several seats. The game starts when every seat is taken.'),
    ...seatRows);
  const num = (id: string) => Number((el.querySelector(`#${id}`) as HTMLSelectElement).value);
  return {
    el,
    settings: () => ({
      options: { GameType: num('km-game-type'), KingResult: num('km-king-result') },
      move_limit: num('km-limit'),
      seats: KINGDOMS.map((_, k) => (el.querySelector(`#km-seat-${k}`) as HTMLSelectElement).value),
    }),
  };
}

/** The lobby's open tables, with a button for each open seat. */
export function tableList(tables: TableSeek[], sit: (table: number, seat: number) => void): HTMLElement {
  return h('ul', { class: 'km-tables', id: 'km-tables' }, ...tables.map((t) => {
    const gt = GAME_TYPES[GAME_TYPE_ORDER[t.options?.GameType ?? 2]] ?? '';
    const kr = KING_RESULTS[KING_RESULT_ORDER[t.options?.KingResult ?? 0]] ?? '';
    return h('li', { class: 'km-table', 'data-table': t.id },
      h('p', {}, h('strong', {}, `${t.title ?? 'Keeps & Moats'}`), ` by ${playerName(t.player)} · ${gt} · ${kr} · ${formatTimeControl(t.base_ms, t.inc_ms)}`),
      h('ul', { class: 'km-table-seats' }, ...KINGDOMS.map((name, k) => {
        const p = t.seats?.[k] ?? null;
        return h('li', {}, swatch(k), `${name}: `, p ? `${p.name}${p.bot ? ' (bot)' : ''}`
          : h('button', { type: 'button', class: 'primary', 'data-sit': `${t.id}:${k}`, onclick: () => sit(t.id, k) }, `Sit here as ${name}`));
      })));
  }));
}
