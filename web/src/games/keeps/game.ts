// games/keeps/game.ts -- a Keeps & Moats game, live or finished: play it, watch it.
// pages/game.ts hands /game/ID here for a game of Keeps & Moats's.
//
// Four kingdoms, each played by a person or a bot (one person may play
// several). The shared web/src/play/controls.ts holds the game as the server
// sends it, with the kingdoms' bars and clocks, Resign, offers and the
// result; this page keeps Keeps & Moats's own: the board, the kingdoms with
// their prisoners and who is out, the pass button, and the K5 dialog.
//
// Invariants: the server's `legal` list is the only source of moves,
// including the K5 choices of a Pawn entering an enemy Keep, which the page
// asks about in a dialog before sending; a kingdom is shown out exactly when
// the position's out field lists it.

import { h, link, formatTimeControl } from '../../ui';
import { Cleanup } from '../../router';
import { KeepsBoard } from './board';
import { choiceWords, keepsReason, kmResultHeadline, swatch, teamWords } from './words';
import { GameControls } from '../../play/controls';
import { moveEmpties } from '../../engine/read';
import type { LiveGame } from '../../play/protocol';
import { GAME_TYPES, KINGDOMS, KINGDOM_LETTERS, KING_RESULTS, Piece, Position, moveSquares, moveWords, parseMove, parsePosition, pieceName } from './notation';

/** The kingdom a resignation move resigns (`resign:w`, the server's
 *  move for it), or null for any other move. */
function resigner(move: string): number | null {
  const m = /^resign:([wrbu])$/.exec(move);
  return m ? KINGDOM_LETTERS.indexOf(m[1] as (typeof KINGDOM_LETTERS)[number]) : null;
}

export function renderKeepsGame(host: HTMLElement, id: number, first: LiveGame | null = null): Cleanup {
  let pos: Position | null = null;
  const movers: (number | null)[] = []; // the kingdom of each ply, where the page saw it played
  const words: (string | null)[] = [];

  const title = h('h1', { class: 'play-title' }, `Game ${id}`);
  const boardHost = h('div', { class: 'board-host km-board-host' });
  const choice = h('div', { class: 'km-choice', id: 'km-choice', role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'km-choice-h', hidden: true });
  const bars = h('div', { class: 'km-bars', id: 'km-bars' });
  const passBox = h('div', { id: 'km-pass' });
  const kingdoms = h('div', { class: 'panel km-kingdoms', id: 'km-kingdoms' });
  const info = h('p', { class: 'hint', id: 'km-info' });
  const moveList = h('div', { class: 'moves km-moves', id: 'move-list', tabindex: 0, 'aria-label': 'Moves' });

  const board = new KeepsBoard(boardHost);
  const teams = () => controls.game?.teams ?? [0, 1, 2, 3];
  const isOut = (k: number) => !!pos?.out.includes(k);
  const controls: GameControls<LiveGame> = new GameControls<LiveGame>(id, {
    sideName: (k) => KINGDOMS[k] ?? `Kingdom ${k}`,
    badge: (k) => swatch(k),
    statusBadge: (k) => swatch(k),
    headline: (r) => kmResultHeadline(r, teams()),
    reason: (r) => (r.reason === 'kings' || r.reason === 'move-limit' ? keepsReason(r.reason) : null),
    barNote: (k) => (isOut(k) ? 'out' : ''),
    barClass: (k) => `km-bar${isOut(k) ? ' out' : ''}`,
    sideIn: (k) => !isOut(k),
    mover: (move) => resigner(move),
    onGame: (g) => {
      readPosition(g.position);
      movers.length = g.moves.length;
      words.length = g.moves.length;
      closeChoice();
    },
    onMove: (m) => {
      const before = pos;
      const resigned = resigner(m.move);
      movers[m.ply] = resigned ?? (before ? before.toMove : null);
      words[m.ply] = resigned !== null ? 'resigns: out of the game' : moveWords(m.move, before ?? undefined);
      if (m.position !== undefined) readPosition(m.position);
      closeChoice();
      return !!m.effects && m.effects.captured.length > 0;  // the server's word on what it took
    },
    onMissing: (why) => {
      title.textContent = 'Game not found';
      controls.status.textContent = why;
    },
    draw: () => drawAll(),
  });
  board.onMove = (moves) => {
    // one plain move goes at once; a Pawn entering an enemy Keep asks first
    if (moves.length === 1 && !entersEnemyKeep(moves[0])) send(moves[0]);
    else askChoice(moves);
  };

  host.append(title, h('div', { class: 'game play-game km-game' },
    h('div', { class: 'play-board-col' }, controls.status, boardHost, choice, bars),
    h('div', { class: 'game-side' }, passBox, controls.panel, kingdoms, info,
      h('div', { class: 'controls' }, controls.soundToggle(), link('/keeps/help', 'How to play Keeps & Moats')),
      moveList, controls.chat.el)));

  function readPosition(text: string): void {
    try {
      pos = parsePosition(text);
    } catch (e) {
      console.error('keeps-moats: cannot read the position', text, e); // drawn from the last good one
    }
  }

  /** A Pawn arriving in an enemy Keep (K5): worth a word even with no
   *  choice. The engine says so: the Pawn leaves the board there. */
  function entersEnemyKeep(move: string): boolean {
    const g = controls.game;
    if (!g || !g.position) return false;
    try {
      return moveEmpties(g.variant, g.position, move);
    } catch {
      return false;
    }
  }

  function send(move: string): void {
    closeChoice();
    controls.sendMove(move);
  }

  function askChoice(moves: string[]): void {
    const m = parseMove(moves[0]);
    if (!m || m === 'pass') return;
    choice.replaceChildren(
      h('h2', { id: 'km-choice-h' }, 'Your Pawn enters an enemy Keep'),
      h('p', {}, moves.length > 1 ? 'It leaves the board. Choose what it does there:' : 'It leaves the board: there is no prisoner to release and no piece to assassinate.'),
      h('div', { class: 'km-choice-buttons' },
        ...moves.map((mv) => h('button', { type: 'button', class: 'primary', 'data-move': mv, onclick: () => send(mv) }, choiceWords(mv, pos))),
        h('button', { type: 'button', onclick: () => closeChoice() }, 'Cancel')));
    choice.hidden = false;
    choice.querySelector<HTMLElement>('button')?.focus();
  }

  function closeChoice(): void {
    choice.hidden = true;
    choice.replaceChildren();
  }

  // ---- drawing ----

  /** The kingdom drawn at the bottom: the one to move if it is ours, else our first. */
  function viewer(g: LiveGame): number {
    const mine = controls.mine();
    if (!mine.length) return 0;
    return controls.plays(g.to_move) && g.status === 'live' ? g.to_move : mine[0];
  }

  function prisonerList(list: Piece[]): string {
    if (!list.length) return 'no prisoners';
    const count = new Map<string, number>();
    for (const p of list) count.set(pieceName(p), (count.get(pieceName(p)) ?? 0) + 1);
    return 'holds ' + [...count].map(([n, c]) => (c > 1 ? `${c}× ${n}` : n)).join(', ');
  }

  /** The four bars under the board, the viewer's kingdom first, then in turn order. */
  function placeBars(g: LiveGame): void {
    const v = viewer(g);
    bars.replaceChildren(...[0, 1, 2, 3].map((i) => controls.bar((v + i) % 4)));
  }

  function drawKingdoms(g: LiveGame): void {
    const rows = KINGDOMS.map((name, k) => {
      const p = g.players[k];
      const out = isOut(k);
      const who = p ? (p.bot || p.guest ? p.name : link(`/players/${encodeURIComponent(p.name)}`, p.name)) : '?';
      return h('li', { class: `km-kingdom${g.status === 'live' && g.to_move === k ? ' to-move' : ''}${out ? ' out' : ''}`, 'data-kingdom': k },
        h('div', { class: 'km-kingdom-head' },
          h('span', { class: 'pname' }, swatch(k), h('strong', {}, name), ': ', who, p?.bot ? ' (bot)' : '', controls.plays(k) ? ' (you)' : '')),
        h('div', { class: 'hint' }, out ? `${name} is out of the game. ` : '', pos ? prisonerList(pos.prisoners[k]) : ''));
    });
    kingdoms.replaceChildren(h('h2', {}, 'Kingdoms'), h('ul', { class: 'km-kingdom-list' }, ...rows));
  }

  function drawInfo(g: LiveGame): void {
    if (!pos) return;
    const ally = pos.gameType === 'anarchy' ? 'every kingdom for itself' : `${teamWords(0, teams())} against ${teamWords(1, teams())}`;
    info.textContent = `${GAME_TYPES[pos.gameType] ?? pos.gameType} (${ally}) · Captured King: ${KING_RESULTS[pos.kingResult] ?? pos.kingResult} · Round ${pos.round}${pos.limit ? ` of ${pos.limit}` : ''} · ${formatTimeControl(g.base_ms, g.inc_ms)}`;
  }

  function drawPass(g: LiveGame): void {
    passBox.replaceChildren();
    const legal = controls.legal();
    if (g.status === 'live' && legal.length === 1 && legal[0] === 'pass')
      passBox.append(h('div', { class: 'panel' }, h('p', {}, `${KINGDOMS[g.to_move]} has no legal move and must pass.`),
        h('button', { type: 'button', class: 'primary', id: 'km-pass-btn', onclick: () => send('pass') }, 'Pass')));
  }

  function drawMoves(g: LiveGame): void {
    if (!g.moves.length) {
      moveList.replaceChildren(h('p', { class: 'empty' }, 'No moves yet. White moves first, then Red, Black and Blue.'));
      return;
    }
    const ol = h('ol', {});
    g.moves.forEach((mv, ply) => {
      const k = movers[ply] ?? resigner(mv);
      ol.append(h('li', {}, k !== null && k !== undefined ? h('span', { class: 'km-mover' }, swatch(k), KINGDOMS[k], ' ') : null,
        h('span', { class: 'mv', title: mv }, words[ply] ?? (resigner(mv) !== null ? 'resigns: out of the game' : mv))));
    });
    moveList.replaceChildren(ol);
    moveList.scrollTop = moveList.scrollHeight;
  }

  function drawAll(): void {
    const g = controls.game;
    if (!g) return;
    title.textContent = `Keeps & Moats · Game ${id}`;
    board.setViewer(viewer(g));
    if (pos) board.setPosition(pos);
    board.setLegal(controls.legal().filter((m) => m !== 'pass'));
    board.setLast(g.moves.length ? moveSquares(g.moves[g.moves.length - 1]) : []);
    placeBars(g);
    drawPass(g);
    drawKingdoms(g);
    drawInfo(g);
    drawMoves(g);
  }

  const onKey = (e: KeyboardEvent) => { if (e.key === 'Escape' && !choice.hidden) closeChoice(); };
  document.addEventListener('keydown', onKey);
  controls.seed(first);
  return () => {
    document.removeEventListener('keydown', onKey);
    controls.destroy();
    board.destroy();
  };
}
