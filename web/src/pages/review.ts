// pages/review.ts -- a finished (or live) game replayed move by move:
// buttons, the move list, and the keyboard (Left/Right, Home/End). The board
// and the words for moves come from the game's family (games/index.ts).

import { api, ApiError, Game, PositionsAnswer } from '../api';
import { h, link, toast, errorText, copyText, formatTimeControl, SIDE_TITLES, formatDate } from '../ui';
import { Cleanup, route } from '../router';
import { ReviewGame, sideTitle } from '../review/replayer';
import { ComputerReview } from '../review/computer';
import { familyOf, GameFamily } from '../games/index';
import { haveEngine, prepare, whenEngine } from '../engine/read';

/** Every position of the game, from the start (index 0) to after the last
 *  move. A game with hidden pieces answers only once it is over (403). */
async function positionsOf(id: number): Promise<PositionsAnswer> {
  return api.positions(id);
}

/** The move limit as each game counts it (its family's words). */
function limitWords(family: GameFamily, n: number): string {
  return n ? family.limitWords(n) : 'no move limit';
}

/** "Bottom: alice vs Top: bob", or each of four kingdoms with its player. */
function playersLine(g: Game): HTMLElement {
  const two = g.players.length <= 2;
  return h('p', {}, ...g.players.flatMap((p, s) => [
    s ? (two ? ' vs ' : ' · ') : '',
    `${sideTitle(g, s, SIDE_TITLES)}: `,
    p ? (p.guest ? p.name : link(`/players/${encodeURIComponent(p.name)}`, p.name)) : '?']));
}

export async function renderReview(host: HTMLElement, idText: string): Promise<Cleanup> {
  const id = Number(idText);
  const title = h('h1', {}, `Review of game ${id}`);
  host.append(title);
  let g: ReviewGame;
  let data: PositionsAnswer;
  let family: GameFamily;
  try {
    [g, data] = await Promise.all([api.game(id), positionsOf(id)]);
    family = familyOf(g.family);
  } catch (e) {
    host.append(h('p', { class: 'error' }, errorText(e)));
    if (e instanceof ApiError && e.status === 403) host.append(h('p', {}, link(`/game/${id}`, 'Watch the game live')));
    return;
  }
  title.textContent = g.players.length > 2
    ? `Review: ${g.title} game ${id}`
    : `Review: ${g.players.map((p) => p?.name ?? '?').join(' vs ')}`;
  const positions = data.positions;
  const last = positions.length - 1; // the moves the server could replay
  let ply = last;
  /** the positions showing ply `at` reads: its own and the one before */
  const shownAt = (at: number): string[] => [positions[at], positions[Math.max(0, at - 1)]];
  try {
    await (family.review.readsAll ? whenEngine() : prepare(family.name, shownAt(ply)));
  } catch (e) {
    host.append(h('p', { class: 'error' }, `The games' engine could not be loaded: ${String(e)}`));
    return;
  }

  const boardHost = h('div', { class: `review-board review-${family.name}` });
  const replay = family.replayer(boardHost, g, data);
  const where = h('p', { class: 'status', id: 'review-ply', 'aria-live': 'polite' });
  const list = h('div', { class: 'moves', id: 'move-list' });
  // each button is named by the words on it; the title says more
  const btn = (label: string, text: string, to: () => number, id: string) =>
    h('button', { type: 'button', title: label, id, onclick: () => go(to()) }, text);
  const nav = h('div', { class: 'controls', role: 'group', 'aria-label': 'Replay' },
    btn('First position (Home)', '« First', () => 0, 'rv-first'),
    btn('Previous move (Left arrow)', '‹ Back', () => ply - 1, 'rv-prev'),
    btn('Next move (Right arrow)', 'Next ›', () => ply + 1, 'rv-next'),
    btn('Last position (End)', 'Last »', () => last, 'rv-last'),
    h('button', { type: 'button', id: 'rv-turn', onclick: () => replay.turn() }, replay.turnLabel));

  const r = g.result;
  let resultLine: HTMLElement;
  if (g.status === 'over' && r) {
    const [headline, why] = replay.resultWords(r);
    resultLine = h('p', { class: 'status', id: 'review-result' }, `${headline}. ${why}.`);
  } else resultLine = h('p', {}, link(`/game/${id}`, 'This game is still being played: watch it live'));
  const about = h('div', { class: 'panel' },
    h('p', {}, `${g.title} · ${formatTimeControl(g.base_ms, g.inc_ms)} · ${limitWords(family, g.move_limit)} · ${g.rated ? 'rated' : 'unrated'}${g.created ? ` · ${formatDate(g.created)}` : ''}`),
    playersLine(g), resultLine);

  const copyBtn = h('button', { type: 'button', id: 'copy-record', onclick: async () => {
    try {
      await copyText(await api.record(id), 'Record copied');
    } catch (e) {
      toast(errorText(e), 'error');
    }
  } }, 'Copy record');
  // the analysis board from the position shown (Stratego's once the game
  // is over and its positions are whole)
  const analyse = family.analysable(g)
    ? h('a', { class: 'button', id: 'rv-analyse', 'data-link': true, href: '#' }, 'Analyse this position')
    : null;
  const exportBox = h('div', { class: 'controls' }, analyse ?? '',
    h('a', { class: 'button', href: `/api/games/${id}/record`, target: '_blank', rel: 'noopener' }, 'Open record as text'), copyBtn);

  // the engine's review of a finished game, in the browser: Rampart's
  // (which the server may also keep), Stratego's by its bot, Keeps & Moats's
  // by the four-sided search (docs/wasm.md)
  const crHost = h('div', {});
  const how = family.review;
  const cr = g.status !== 'over' ? null
    : new ComputerReview(crHost, g.variant, positions, g.moves.slice(0, last), (p) => go(p),
      { how: how.how, sides: how.sides, ...(how.stored ? { game: id } : {}) });
  host.append(h('div', { class: 'game' },
    h('div', {}, boardHost, crHost),
    h('div', { class: 'game-side' }, about, where, nav,
      h('p', { class: 'hint' }, 'Use the Left and Right arrow keys to step through the moves, Home and End to jump.'),
      list, exportBox)));

  function go(to: number): void {
    ply = Math.max(0, Math.min(last, to));
    const at = ply;
    // before the engine has come, the server reads the position to show
    if (!haveEngine()) void prepare(family.name, shownAt(at)).then(() => at === ply && draw());
    else draw();
  }

  function draw(): void {
    replay.show(ply);
    where.textContent = replay.describe(ply);
    replay.drawList(list, ply, go);
    if (analyse) analyse.href = `/analysis/${g.variant}?fen=${encodeURIComponent(positions[ply])}`;
    cr?.show(ply);
  }

  const onKey = (e: KeyboardEvent) => {
    const t = e.target as HTMLElement;
    if (t.closest('input, textarea, select') || e.altKey || e.ctrlKey || e.metaKey) return;
    // the board's own arrow keys move its focus square; leave them to it
    if (t.closest('.board')) return;
    const to = { ArrowLeft: ply - 1, ArrowRight: ply + 1, Home: 0, End: last }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    go(to);
  };
  document.addEventListener('keydown', onKey);
  go(ply);
  return () => {
    document.removeEventListener('keydown', onKey);
    cr?.destroy();
    replay.destroy();
  };
}

route(/^\/review\/(\d+)$/, renderReview, 'Review', { engine: 'served' });
