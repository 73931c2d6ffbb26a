// pages/review.ts -- a finished (or live) game replayed move by move:
// buttons, the move list, and the keyboard (Left/Right, Home/End).

import { api, Game } from '../api';
import { Board } from '../board';
import { diffCaptured, moveSquares } from '../rampart';
import { h, link, toast, errorText, copyText, formatTimeControl, reasonText, resultHeadline, SIDE_TITLES, formatDate } from '../ui';
import { drawMoveList } from '../movelist';
import { Cleanup } from '../main';

/** Every position of the game, from the start (index 0) to after the last
 *  move, asked of the server a few at a time. */
async function positionsOf(g: Game): Promise<string[]> {
  const out: string[] = new Array(g.moves.length + 1);
  out[0] = g.start;
  const plies = g.moves.map((_, i) => i + 1);
  const BATCH = 8;
  for (let i = 0; i < plies.length; i += BATCH) {
    await Promise.all(plies.slice(i, i + BATCH).map(async (k) => {
      out[k] = (await api.position(g.variant, g.start, g.moves.slice(0, k))).position;
    }));
  }
  return out;
}

export async function renderReview(host: HTMLElement, idText: string): Promise<Cleanup> {
  const id = Number(idText);
  const title = h('h1', {}, `Review of game ${id}`);
  host.append(title);
  let g: Game;
  let positions: string[];
  try {
    g = await api.game(id);
    positions = await positionsOf(g);
  } catch (e) {
    host.append(h('p', { class: 'error' }, errorText(e)));
    return;
  }
  title.textContent = `Review: ${g.players.map((p) => p?.name ?? '?').join(' vs ')}`;
  let ply = g.moves.length;

  const boardHost = h('div', {});
  const board = new Board(boardHost, { interactive: false });
  const where = h('p', { class: 'status', id: 'review-ply', 'aria-live': 'polite' });
  const list = h('div', { class: 'moves', id: 'move-list' });
  const btn = (label: string, text: string, to: () => number, id: string) =>
    h('button', { type: 'button', 'aria-label': label, title: label, id, onclick: () => go(to()) }, text);
  const nav = h('div', { class: 'controls', role: 'group', 'aria-label': 'Replay' },
    btn('First position (Home)', '« First', () => 0, 'rv-first'),
    btn('Previous move (Left arrow)', '‹ Back', () => ply - 1, 'rv-prev'),
    btn('Next move (Right arrow)', 'Next ›', () => ply + 1, 'rv-next'),
    btn('Last position (End)', 'Last »', () => g.moves.length, 'rv-last'),
    h('button', { type: 'button', onclick: () => { board.setFlipped(!board.isFlipped()); } }, 'Flip board'));

  const r = g.result;
  const about = h('div', { class: 'panel' },
    h('p', {}, `${g.title} · ${formatTimeControl(g.base_ms, g.inc_ms)} · ${g.move_limit ? `${g.move_limit} move limit` : 'no move limit'} · ${g.rated ? 'rated' : 'unrated'}${g.created ? ` · ${formatDate(g.created)}` : ''}`),
    h('p', {}, ...[0, 1].flatMap((s) => [s ? ' vs ' : '', `${SIDE_TITLES[s]}: `, g.players[s] ? link(`/players/${encodeURIComponent(g.players[s].name)}`, g.players[s].name) : '?'])),
    g.status === 'over' && r ? h('p', { class: 'status' }, `${resultHeadline(r, g.players, g.sides ?? SIDE_TITLES)}. ${reasonText(r.reason)}.`) : h('p', {}, link(`/game/${id}`, 'This game is still being played: watch it live')));

  const copyBtn = h('button', { type: 'button', id: 'copy-record', onclick: async () => {
    try {
      await copyText(await api.record(id), 'Record copied');
    } catch (e) {
      toast(errorText(e), 'error');
    }
  } }, 'Copy record');
  const exportBox = h('div', { class: 'controls' },
    h('a', { class: 'button', href: `/api/games/${id}/record`, target: '_blank', rel: 'noopener' }, 'Open record as text'), copyBtn);

  host.append(h('div', { class: 'game' },
    h('div', {}, boardHost),
    h('div', { class: 'game-side' }, about, where, nav,
      h('p', { class: 'hint' }, 'Use the Left and Right arrow keys to step through the moves, Home and End to jump.'),
      list, exportBox)));

  function go(to: number): void {
    ply = Math.max(0, Math.min(g.moves.length, to));
    board.setPosition(positions[ply]);
    board.clearMarks();
    if (ply > 0) {
      board.mark(moveSquares(g.moves[ply - 1]), 'last');
      board.mark(diffCaptured(positions[ply - 1], positions[ply]), 'captured');
    }
    const full = Math.floor((ply + 1) / 2);
    where.textContent = ply === 0 ? 'Start position' : `Move ${full}, ${SIDE_TITLES[(ply - 1) % 2]}: ${g.moves[ply - 1]} (${ply} of ${g.moves.length})`;
    drawMoveList(list, g.moves, ply, go);
  }

  const onKey = (e: KeyboardEvent) => {
    const t = e.target as HTMLElement;
    if (t.closest('input, textarea, select') || e.altKey || e.ctrlKey || e.metaKey) return;
    // the board's own arrow keys move its focus square; leave them to it
    if (t.closest('.board')) return;
    const to = { ArrowLeft: ply - 1, ArrowRight: ply + 1, Home: 0, End: g.moves.length }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    go(to);
  };
  document.addEventListener('keydown', onKey);
  go(ply);
  return () => {
    document.removeEventListener('keydown', onKey);
    board.destroy();
  };
}
