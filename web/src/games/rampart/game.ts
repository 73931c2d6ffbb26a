// games/rampart/game.ts -- a Rampart game, live or finished: play it, or
// watch it (pages/game.ts hands /game/ID here for a game of Rampart's).
//
// The shared web/src/play/controls.ts holds the game as the server sends it
// (on `watch`, after a reconnect, then each move, the end and the offers),
// with the clocks, offers and result; this page keeps only Rampart's own:
// the board, its capture and threat marks, material and the move counter.
// Invariant: the board shows the server's position; the page only sends the
// moves a person makes, and the server's answer is what counts.

import type { Game } from '../../api';
import { localPosition } from '../../engine/position';
import { Board, takenPieces } from './board';
import { parsePosition, pieceAt } from './notation';
import { pieceIcon } from './pieces';
import { afterPaint, h, resultHeadline, SIDE_TITLES } from '../../ui';
import { drawMoveList } from '../../movelist';
import { Cleanup } from '../../router';
import { GameControls, gameTitle } from '../../play/controls';

const THREATS = 'citadel.threats';

export function renderGame(host: HTMLElement, idText: string, first: Game | null = null): Cleanup {
  const id = Number(idText);
  let threatsOn = localStorage.getItem(THREATS) === 'on';
  let markAsk = 0;
  let shown: string | null = null; // the position on the board, as the server sent it

  const title = h('h1', { class: 'play-title' }, first ? gameTitle(first) : `Game ${id}`);
  const boardHost = h('div', { class: 'board-host' });
  const counter = h('p', { class: 'hint', id: 'move-counter' });
  const moveList = h('div', { class: 'moves', id: 'move-list', tabindex: 0, 'aria-label': 'Moves' });
  const topBar = h('div', { class: 'play-bar-slot' });
  const bottomBar = h('div', { class: 'play-bar-slot' });
  const boardCol = h('div', { class: 'play-board-col' });
  const sideCol = h('div', { class: 'game-side' });
  host.append(title, h('div', { class: 'game play-game' }, boardCol, sideCol));

  const board = new Board(boardHost, { interactive: true });
  const controls: GameControls<Game> = new GameControls<Game>(id, {
    sideName: (side) => SIDE_TITLES[side] ?? `Side ${side}`,
    badge: (side) => pieceIcon('K', side ? 't' : 'b', 24),
    headline: (r, g) => resultHeadline(r, g.players, g.sides ?? SIDE_TITLES),
    barNote: (side, g) => (g.material ? `material ${g.material[side]}` : ''),
    onGame: (g, previous) => {
      shown = null; // the board may show a move the server did not take: draw it again
      if (!previous || previous.id !== g.id) board.setFlipped(g.you.length === 1 && g.you[0] === 1);
      void markLastMove(null);
    },
    onMove: (m, before) => {
      void markLastMove(before.position);
      return !!m.effects && m.effects.captured.length + m.effects.removed.length > 0;
    },
    onEnd: () => void markLastMove(null),
    onMissing: (why) => {
      title.textContent = 'Game not found';
      controls.status.textContent = why;
    },
    draw: () => drawAll(),
  });
  board.onMove = (mv) => controls.sendMove(mv);

  const threatBox = h('input', { type: 'checkbox', id: 'show-threats', checked: threatsOn });
  threatBox.addEventListener('change', () => {
    threatsOn = threatBox.checked;
    localStorage.setItem(THREATS, threatsOn ? 'on' : 'off');
    showThreats();
  });
  const flipBtn = h('button', { type: 'button', onclick: () => { board.setFlipped(!board.isFlipped()); placeBars(); } }, 'Flip board');

  const legend = h('div', { class: 'legend', 'aria-hidden': 'true' },
    ...(['Q', 'N', 'K', 'B'] as const).map((k) => h('span', {}, pieceIcon(k, 'b', 22), pieceIcon(k, 't', 22),
      { Q: 'Queen takes Knight', N: 'Knight takes King', K: 'King takes Queen', B: 'Blocker: walls in' }[k])));

  boardCol.append(controls.status, topBar, boardHost, bottomBar);
  sideCol.append(controls.panel, counter,
    h('div', { class: 'controls' },
      h('label', { class: 'toggle', title: 'Mark the pieces the other side could take with its next move' }, threatBox, 'Show threats'),
      controls.soundToggle(), flipBtn),
    legend, moveList, controls.chat.el);

  /** The side shown at the top of the board in the upper bar. */
  function placeBars(): void {
    const topSide = board.isFlipped() ? 0 : 1;
    topBar.replaceChildren(controls.bar(topSide));
    bottomBar.replaceChildren(controls.bar(1 - topSide));
  }

  function drawCounter(g: Game): void {
    const pos = parsePosition(g.position);
    const played = Math.floor(g.moves.length / 2); // full moves completed
    if (g.status === 'over') counter.textContent = `${played} full moves played${g.move_limit ? ` (limit ${g.move_limit})` : ''}`;
    else counter.textContent = g.move_limit
      ? `Move ${pos.fullmove} of ${g.move_limit} (then decided by material)`
      : `Move ${pos.fullmove}`;
  }

  /** Last move and what it took: the server's effects of it (the game's
   *  `last`, kept up by every move's `effects`); the position before it
   *  only names the pieces taken, for the marks' badges. */
  async function markLastMove(before: string | null): Promise<void> {
    const ask = ++markAsk;
    const g = controls.game;
    if (!g) return;
    board.clearMarks('last');
    board.clearMarks('captured');
    const e = g.last;
    if (!e || !e.from) return;
    board.mark([e.from, e.to], 'last');
    const gone = [...e.captured, ...e.removed];
    if (!gone.length) return;
    const position = g.position;
    let prev = before;
    if (!prev) {
      // after a (re)load: the position before the last move, for the badges
      try {
        await afterPaint();  // the board first; the engine this asks comes after
        prev = (await localPosition(g.variant, g.start, g.moves.slice(0, -1))).position;
      } catch {
        prev = null;
      }
      if (ask !== markAsk || controls.game?.position !== position) return;
    }
    if (prev) board.setTaken(takenPieces(prev, gone));
    board.mark(gone, 'captured');
  }

  /** With "Show threats" on: the pieces of the side to move that the other
   *  side could take (directly or by enclosure) with its next move: the
   *  server's threats, those standing on the side to move's squares. */
  function showThreats(): void {
    board.clearMarks('threat');
    const g = controls.game;
    if (!g || !threatsOn || g.status !== 'live' || !g.threats) return;
    const pos = parsePosition(g.position);
    board.mark(g.threats.filter((sq) => pieceAt(pos, sq)?.side === pos.toMove), 'threat');
  }

  function drawAll(): void {
    const g = controls.game;
    if (!g) return;
    title.textContent = gameTitle(g);
    // a move the person just made stays shown until the server's position comes
    if (shown !== g.position) board.setPosition(g.position);
    shown = g.position;
    board.setLegal(controls.legal());
    placeBars();
    drawCounter(g);
    drawMoveList(moveList, g.moves, g.moves.length);
    showThreats();
  }

  controls.seed(first);
  return () => {
    controls.destroy();
    board.destroy();
  };
}
