// pages/game.ts -- a game, live or finished: play it, or watch it.
//
// The server sends the whole game on `watch` (and again after a reconnect),
// then each move, the end, and offers. The page keeps a copy, draws it, and
// sends the moves the person makes; the server's answer is what counts.

import { api, Game, Result } from '../api';
import { Board } from '../board';
import { diffCaptured, flipSideToMove, material, moveSquares, parsePosition } from '../rampart';
import { pieceIcon } from '../pieces';
import { h, link, toast, formatClock, formatTimeControl, reasonText, resultHeadline, SIDE_TITLES } from '../ui';
import { drawMoveList } from '../movelist';
import { socket } from '../ws';
import { beep, setSound, soundOn } from '../sound';
import { navigate, Cleanup } from '../main';
import { isStratego } from '../stratego/api';
import { renderStrategoGame } from '../stratego/game';
import { renderKeepsGame } from '../keeps/game';

const THREATS = 'citadel.threats';

/** /game/ID: a Stratego game has a page of its own (web/src/stratego/game.ts). */
export async function renderGamePage(host: HTMLElement, idText: string): Promise<Cleanup> {
  const variant = await api.game(Number(idText)).then((x) => x.variant).catch(() => '');
  if (variant === 'keeps-moats') return renderKeepsGame(host, Number(idText));
  return isStratego(variant) ? renderStrategoGame(host, Number(idText)) : renderGame(host, idText);
}

export function renderGame(host: HTMLElement, idText: string): Cleanup {
  const id = Number(idText);
  const offs: (() => void)[] = [];
  let g: Game | null = null;
  let syncAt = performance.now(); // when g.clocks were last set from the server
  let drawOffer: number | null = null; // the side offering a draw, if any
  let rematchOffer: number | null = null;
  let confirmResign = false;
  let moveSent = false; // our move is on its way and not yet acknowledged
  let threatsOn = localStorage.getItem(THREATS) === 'on';
  let threatAsk = 0; // drops answers to questions that are no longer current

  const title = h('h1', {}, `Game ${id}`);
  const boardHost = h('div', { class: 'board-host' });
  const bars = [h('div', { class: 'player-bar' }), h('div', { class: 'player-bar' })];
  const clocks = [h('span', { class: 'clock', role: 'timer' }), h('span', { class: 'clock', role: 'timer' })];
  const status = h('p', { class: 'status', 'aria-live': 'polite', id: 'game-status' });
  const resultBox = h('div', { id: 'result', 'aria-live': 'polite' });
  const offers = h('div', { 'aria-live': 'polite' });
  const controls = h('div', { class: 'controls' });
  const counter = h('p', { class: 'hint', id: 'move-counter' });
  const moveList = h('div', { class: 'moves', id: 'move-list', tabindex: 0, 'aria-label': 'Moves' });
  const boardCol = h('div', {});
  const sideCol = h('div', { class: 'game-side' });
  host.append(title, h('div', { class: 'game' }, boardCol, sideCol));

  const board = new Board(boardHost, { interactive: true });
  board.onMove = (mv) => {
    if (!g) return;
    socket.send({ type: 'move', game: id, ply: g.moves.length, move: mv, ref: 'move' });
    beep('move');
    // Nothing more to play until the server has stored the move and says so.
    moveSent = true;
    g.legal = [];
    board.setLegal([]);
    drawStatus();
  };

  const threatBox = h('input', { type: 'checkbox', id: 'show-threats', checked: threatsOn });
  threatBox.addEventListener('change', () => {
    threatsOn = threatBox.checked;
    localStorage.setItem(THREATS, threatsOn ? 'on' : 'off');
    void showThreats();
  });
  const soundBox = h('input', { type: 'checkbox', id: 'sound', checked: soundOn() });
  soundBox.addEventListener('change', () => setSound(soundBox.checked));
  const flipBtn = h('button', { type: 'button', onclick: () => { board.setFlipped(!board.isFlipped()); drawBars(); } }, 'Flip board');

  const legend = h('div', { class: 'legend', 'aria-hidden': 'true' },
    ...(['Q', 'N', 'K', 'B'] as const).map((k) => h('span', {}, pieceIcon(k, 'b', 22), pieceIcon(k, 't', 22),
      { Q: 'Queen takes Knight', N: 'Knight takes King', K: 'King takes Queen', B: 'Blocker: walls in' }[k])));

  boardCol.append(bars[0], boardHost, bars[1], legend);
  sideCol.append(status, resultBox, offers, controls, counter,
    h('div', { class: 'controls' },
      h('label', { class: 'toggle', title: 'Mark the pieces the other side could take with its next move' }, threatBox, 'Show threats'),
      h('label', { class: 'toggle' }, soundBox, 'Sound'), flipBtn),
    moveList);

  const mySides = () => g?.you ?? [];
  const plays = (side: number) => mySides().includes(side);
  const isLocal = () => mySides().length > 1;

  // ---- drawing ----

  /** Bars: the side shown at the top of the board first. */
  function drawBars(): void {
    if (!g) return;
    const topSide = board.isFlipped() ? 0 : 1;
    const order = [topSide, 1 - topSide];
    const mat = material(parsePosition(g.position));
    order.forEach((side, i) => {
      const bar = bars[i];
      const p = g!.players[side];
      const you = plays(side) && !isLocal();
      bar.className = `player-bar${g!.status === 'live' && g!.to_move === side ? ' to-move' : ''}`;
      bar.setAttribute('data-side', String(side));
      bar.replaceChildren(
        h('span', { class: 'pname' }, pieceIcon('K', side ? 't' : 'b', 24),
          h('span', {}, `${SIDE_TITLES[side]}: `, p ? (p.bot || p.guest ? p.name : link(`/players/${encodeURIComponent(p.name)}`, p.name)) : '?', you ? ' (you)' : '')),
        h('span', { class: 'mat', title: 'Game material: Queens, Knights and Kings count 1, Blockers 0' }, `material ${mat[side]}`),
        g!.base_ms ? clocks[side] : '');
    });
    drawClocks();
  }

  function clockMs(side: number): number {
    if (!g) return 0;
    const run = g.status === 'live' && g.to_move === side;
    return g.clocks[side] - (run ? performance.now() - syncAt : 0);
  }

  function drawClocks(): void {
    if (!g || !g.base_ms) return;
    for (const side of [0, 1]) {
      const ms = clockMs(side);
      const c = clocks[side];
      const text = formatClock(ms);
      if (c.textContent !== text) c.textContent = text;
      const running = g.status === 'live' && g.to_move === side;
      c.className = `clock${running ? ' running' : ''}${ms < 10000 && g.status === 'live' ? ' low' : ''}`;
      c.setAttribute('aria-label', `${SIDE_TITLES[side]} clock ${text}`);
    }
  }

  function drawStatus(): void {
    if (!g) return;
    if (g.status !== 'live') {
      status.textContent = 'Game over';
      return;
    }
    const side = g.to_move;
    const p = g.players[side];
    if (isLocal()) status.textContent = `${SIDE_TITLES[side]} to move`;
    // A last move comes without legal moves, just before its `end` message.
    else if (plays(side))
      status.textContent = moveSent ? 'Sending your move…' : g.legal?.length ? 'Your move' : 'Game ending…';
    else if (p?.bot) status.textContent = `${p.name} is thinking…`;
    else status.textContent = `${SIDE_TITLES[side]} (${p?.name ?? '?'}) to move`;
  }

  function drawCounter(): void {
    if (!g) return;
    const pos = parsePosition(g.position);
    const played = Math.floor(g.moves.length / 2); // full moves completed
    if (g.status === 'over') counter.textContent = `${played} full moves played${g.move_limit ? ` (limit ${g.move_limit})` : ''}`;
    else counter.textContent = g.move_limit
      ? `Move ${pos.fullmove} of ${g.move_limit} (then decided by material)`
      : `Move ${pos.fullmove}`;
  }

  function drawControls(): void {
    controls.replaceChildren();
    if (!g || !mySides().length) return;
    if (g.status === 'live') {
      if (confirmResign) {
        controls.append(
          h('span', { class: 'status' }, 'Resign this game?'),
          h('button', { type: 'button', class: 'danger', id: 'resign-yes', onclick: () => { socket.send({ type: 'resign', game: id }); confirmResign = false; drawControls(); } }, 'Yes, resign'),
          h('button', { type: 'button', onclick: () => { confirmResign = false; drawControls(); } }, 'No, play on'));
      } else {
        controls.append(h('button', { type: 'button', class: 'danger', id: 'resign', onclick: () => { confirmResign = true; drawControls(); (controls.querySelector('#resign-yes') as HTMLElement | null)?.focus(); } }, 'Resign'));
        if (!isLocal()) {
          const theirs = drawOffer !== null && !plays(drawOffer);
          controls.append(h('button', { type: 'button', id: 'draw', onclick: () => socket.send({ type: 'draw', game: id }) }, theirs ? 'Accept draw' : 'Offer draw'));
        }
      }
    } else if (!isLocal()) {
      const theirs = rematchOffer !== null && !plays(rematchOffer);
      controls.append(h('button', { type: 'button', class: 'primary', id: 'rematch', onclick: () => { socket.send({ type: 'rematch', game: id }); rematchOffer = mySides()[0]; drawOffers(); } }, theirs ? 'Accept rematch' : 'Rematch'));
    }
  }

  function drawOffers(): void {
    offers.replaceChildren();
    if (!g) return;
    if (g.status === 'live' && drawOffer !== null) {
      offers.append(h('p', { class: 'panel' }, plays(drawOffer) ? 'You offered a draw.' : `${SIDE_TITLES[drawOffer]} offers a draw.`));
    }
    if (g.status === 'over' && rematchOffer !== null) {
      offers.append(h('p', { class: 'panel' }, plays(rematchOffer) ? 'Rematch offered: waiting for the other player.' : `${SIDE_TITLES[rematchOffer]} wants a rematch.`));
    }
    drawControls();
  }

  function drawResult(r: Result | null | undefined): void {
    resultBox.replaceChildren();
    if (!g || g.status !== 'over' || !r) return;
    const changes = (r.ratings ?? []).filter((x) => x.before !== x.after || g!.rated);
    resultBox.append(h('div', { class: 'result' },
      h('h2', {}, resultHeadline(r, g.players, g.sides ?? SIDE_TITLES)),
      h('p', {}, reasonText(r.reason)),
      r.winner < 0 && r.sterile ? h('p', { class: 'hint' }, 'A sterile draw: neither side lost game material, so ratings do not change.') : null,
      changes.length ? h('ul', { class: 'rating-changes' }, ...changes.map((c) => {
        const d = Math.round(c.after - c.before);
        return h('li', {}, `${c.name}: ${Math.round(c.before)} → ${Math.round(c.after)} (${d >= 0 ? '+' : ''}${d})`);
      })) : null,
      h('p', {}, link(`/review/${id}`, 'Review this game'), ' · ', link('/', 'New game'))));
  }

  /** Last move and what it took, from the position before it. */
  async function markLastMove(before: string | null): Promise<void> {
    if (!g) return;
    board.clearMarks('last');
    board.clearMarks('captured');
    const last = g.moves[g.moves.length - 1];
    if (!last) return;
    board.mark(moveSquares(last), 'last');
    if (before) {
      board.mark(diffCaptured(before, g.position), 'captured');
      return;
    }
    // after a (re)load: ask the server for the position before the last move
    try {
      const prev = await api.position(g.variant, g.start, g.moves.slice(0, -1));
      if (g && prev.position) board.mark(diffCaptured(prev.position, g.position), 'captured');
    } catch {
      // the marks are a help, not essential
    }
  }

  /** With "Show threats" on: every square the side not to move could take
   *  (directly or by enclosure) if it were its turn now. */
  async function showThreats(): Promise<void> {
    const ask = ++threatAsk;
    board.clearMarks('threat');
    if (!g || !threatsOn || g.status !== 'live') return;
    const flipped = flipSideToMove(g.position);
    try {
      const info = await api.position(g.variant, flipped);
      if (ask !== threatAsk) return;
      const squares = new Set<string>();
      for (const l of info.legal) for (const s of diffCaptured(flipped, l.after)) squares.add(s);
      board.mark([...squares], 'threat');
    } catch (e) {
      if (ask === threatAsk) toast(`Could not compute threats: ${e instanceof Error ? e.message : e}`, 'error');
    }
  }

  function drawAll(before: string | null): void {
    if (!g) return;
    title.textContent = `${g.title} · ${formatTimeControl(g.base_ms, g.inc_ms)}${g.rated ? ' · rated' : ' · unrated'}`;
    board.setPosition(g.position);
    board.setLegal(g.status === 'live' && plays(g.to_move) ? g.legal ?? [] : []);
    drawBars();
    drawStatus();
    drawCounter();
    drawOffers();
    drawResult(g.result);
    drawMoveList(moveList, g.moves, g.moves.length);
    void markLastMove(before);
    void showThreats();
  }

  // ---- messages ----

  function setGame(game: Game): void {
    moveSent = false;
    const first = !g;
    g = game;
    syncAt = performance.now();
    drawOffer = game.draw_offer && game.draw_offer.length ? game.draw_offer[0] : null;
    if (first) board.setFlipped(game.you.length === 1 && game.you[0] === 1);
    drawAll(null);
  }

  offs.push(socket.on('game', (m) => {
    if (m.game.id === id) {
      setGame(m.game);
      return;
    }
    // a rematch (or another game) just started for us: go there
    if (g && m.game.you.length && m.game.status === 'live' && m.game.ply === 0) navigate(`/game/${m.game.id}`);
  }));
  offs.push(socket.on('move', (m) => {
    if (m.game !== id || !g) return;
    if (m.ply < g.moves.length) return; // seen already
    if (m.ply > g.moves.length) {
      socket.send({ type: 'watch', game: id }); // missed one: fetch everything again
      return;
    }
    const before = g.position;
    g.moves.push(m.move);
    g.ply = g.moves.length;
    g.position = m.position;
    g.to_move = m.to_move;
    g.clocks = m.clocks;
    g.legal = m.legal ?? [];
    moveSent = false;
    syncAt = performance.now();
    drawOffer = null; // a move declines a pending offer
    const took = diffCaptured(before, m.position).length > 0;
    if (took) beep('capture');
    else if (!plays(1 - m.to_move) || isLocal()) beep('move');
    drawAll(before);
  }));
  offs.push(socket.on('end', (m) => {
    if (m.game !== id || !g) return;
    g.status = 'over';
    g.result = m.result;
    if (m.clocks) g.clocks = m.clocks;
    syncAt = performance.now();
    confirmResign = false;
    beep('end');
    drawAll(null);
    (resultBox.querySelector('h2') as HTMLElement | null)?.focus?.();
  }));
  offs.push(socket.on('draw_offer', (m) => {
    if (m.game !== id) return;
    drawOffer = Array.isArray(m.side) ? m.side[0] ?? null : m.side;
    drawOffers();
  }));
  offs.push(socket.on('rematch_offer', (m) => {
    if (m.game !== id) return;
    rematchOffer = Array.isArray(m.side) ? m.side[0] ?? null : m.side;
    drawOffers();
  }));
  offs.push(socket.on('error', (m) => {
    if (m.ref === 'move') {
      toast(m.error, 'error');
      socket.send({ type: 'watch', game: id }); // put the board back as the server has it
    } else if (m.ref === 'watch') {
      // not a live game (finished before the server started, or unknown): read it once
      api.game(id).then(setGame).catch((e) => {
        title.textContent = 'Game not found';
        status.textContent = e instanceof Error ? e.message : String(e);
      });
    } else if (m.ref === undefined && g) {
      toast(m.error, 'error');
    }
  }));
  offs.push(socket.on('hello', () => socket.send({ type: 'watch', game: id, ref: 'watch' })));
  socket.send({ type: 'watch', game: id, ref: 'watch' });

  // the clocks tick between server messages
  const timer = window.setInterval(drawClocks, 100);

  return () => {
    window.clearInterval(timer);
    for (const off of offs) off();
    socket.send({ type: 'unwatch', game: id });
    board.destroy();
  };
}
