// stratego/game.ts -- a Stratego game, live or finished: set up, play,
// watch. pages/game.ts hands /game/ID here when the game is Stratego.
//
// What the page shows is exactly what the server sent: each client gets only
// its side's view (docs/api.md). One-device games get the view of the side to
// move, and the page covers the board between turns so that a player never
// sees the other's pieces: the board is emptied while the cover is up and
// drawn again only when the next player says who they are.

import { api, Result } from '../api';
import { h, link, toast, formatClock, formatTimeControl, reasonText, resultHeadline } from '../ui';
import { socket } from '../ws';
import { beep, setSound, soundOn } from '../sound';
import { navigate, Cleanup } from '../main';
import { StrategoBoard } from './board';
import { SetupEditor } from './setup';
import { StrategoGame, MoveMsg, ReadyMsg, SetupOkMsg } from './api';
import { ARMY_SIZE, KINDS, KIND_ORDER, Kind, SIDE_NAMES, View, countOnBoard, lossesFromEvents, moveSquares, parseEvent, parseSetup, parseView, setupView } from './notation';
import { pieceBadge } from './pieces';

export function renderStrategoGame(host: HTMLElement, id: number): Cleanup {
  const offs: (() => void)[] = [];
  let g: StrategoGame | null = null;
  let syncAt = performance.now();
  let drawOffer: number | null = null;
  let rematchOffer: number | null = null;
  let confirmResign = false;
  let editor: SetupEditor | null = null;
  let editorSide = -1;
  let submitted = new Set<number>(); // sides whose setup this page sent
  let cover: { side: number; why: 'setup' | 'move' } | null = null;
  let coverShownFor = ''; // the state a cover was last dismissed for
  let sentSetup: View | null = null; // shown while waiting for the opponent's setup

  const title = h('h1', {}, `Game ${id}`);
  const boardHost = h('div', { class: 'board-host st-board-host' });
  const coverBox = h('div', { class: 'st-cover', id: 'st-cover', role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'st-cover-h', hidden: true });
  const bars = [h('div', { class: 'player-bar' }), h('div', { class: 'player-bar' })];
  const clocks = [h('span', { class: 'clock', role: 'timer' }), h('span', { class: 'clock', role: 'timer' })];
  const status = h('p', { class: 'status', 'aria-live': 'polite', id: 'game-status' });
  const setupHost = h('div', {});
  const resultBox = h('div', { id: 'result', 'aria-live': 'polite' });
  const offers = h('div', { 'aria-live': 'polite' });
  const controls = h('div', { class: 'controls' });
  const tally = h('div', { class: 'panel st-tally', id: 'st-tally' });
  const moveList = h('div', { class: 'moves st-moves', id: 'move-list', tabindex: 0, 'aria-label': 'Moves and combat' });
  const boardStack = h('div', { class: 'st-stack' }, boardHost, coverBox);
  const boardCol = h('div', {});
  const sideCol = h('div', { class: 'game-side' });
  host.append(title, h('div', { class: 'game st-game' }, boardCol, sideCol));

  const board = new StrategoBoard(boardHost);
  board.onMove = (mv) => {
    if (!g) return;
    socket.send({ type: 'move', game: id, ply: g.moves.length, move: mv, ref: 'move' });
    beep('move');
    g.legal = [];
    board.setLegal([]);
    status.textContent = 'Sending your move…';
  };

  const soundBox = h('input', { type: 'checkbox', id: 'sound', checked: soundOn() });
  soundBox.addEventListener('change', () => setSound(soundBox.checked));
  const flipBtn = h('button', { type: 'button', onclick: () => { board.setFlipped(!board.isFlipped()); drawBars(); } }, 'Flip board');
  boardCol.append(bars[0], boardStack, bars[1]);
  sideCol.append(status, setupHost, resultBox, offers, controls,
    h('div', { class: 'controls' }, h('label', { class: 'toggle' }, soundBox, 'Sound'), flipBtn,
      link('/stratego/help', 'How to play Stratego')),
    tally, moveList);

  const mySides = () => g?.you ?? [];
  const plays = (side: number) => mySides().includes(side);
  const isLocal = () => mySides().length > 1;
  const inSetup = () => !!g && g.status === 'live' && g.phase === 'setup';
  const events = () => g?.events ?? [];

  function view(): View | null {
    if (!g || !g.position) return null;
    try {
      return parseView(g.position);
    } catch (e) {
      console.error('stratego: cannot read the position', g.position, e);
      return null;
    }
  }

  // ---- the side this screen belongs to right now ----

  /** Whose eyes the board is for: the player; in a one-device game the side
   *  to move (or setting up); a spectator sees Red at the bottom. */
  function viewer(): number {
    if (!g) return 0;
    if (!isLocal()) return mySides().length ? mySides()[0] : 0;
    if (inSetup()) return nextToSetUp() ?? 0;
    return g.to_move;
  }

  function nextToSetUp(): number | null {
    if (!g) return null;
    for (const s of mySides()) if (!(g.ready ?? []).includes(s) && !submitted.has(s)) return s;
    return null;
  }

  // ---- drawing ----

  function drawBars(): void {
    if (!g) return;
    const topSide = board.isFlipped() ? 0 : 1;
    [topSide, 1 - topSide].forEach((side, i) => {
      const p = g!.players[side];
      const you = plays(side) && !isLocal();
      const ready = inSetup() ? ((g!.ready ?? []).includes(side) ? ' · ready' : ' · arranging pieces') : '';
      bars[i].className = `player-bar st-bar-${side ? 'blue' : 'red'}${g!.status === 'live' && !inSetup() && g!.to_move === side ? ' to-move' : ''}`;
      bars[i].setAttribute('data-side', String(side));
      bars[i].replaceChildren(
        h('span', { class: 'pname' }, pieceBadge({ side, kind: 'X', revealed: false, moved: false, scout: false }, 22),
          h('span', {}, `${SIDE_NAMES[side]}: `, p ? (p.bot || p.guest ? p.name : link(`/players/${encodeURIComponent(p.name)}`, p.name)) : '?', you ? ' (you)' : '', ready)),
        g!.base_ms ? clocks[side] : '');
    });
    drawClocks();
  }

  function clockMs(side: number): number {
    if (!g) return 0;
    const run = g.status === 'live' && !inSetup() && g.to_move === side;
    return g.clocks[side] - (run ? performance.now() - syncAt : 0);
  }

  function drawClocks(): void {
    if (!g || !g.base_ms) return;
    for (const side of [0, 1]) {
      const ms = clockMs(side);
      const text = formatClock(ms);
      const c = clocks[side];
      if (c.textContent !== text) c.textContent = text;
      const running = g.status === 'live' && !inSetup() && g.to_move === side;
      c.className = `clock${running ? ' running' : ''}${ms < 10000 && g.status === 'live' ? ' low' : ''}`;
      c.setAttribute('aria-label', `${SIDE_NAMES[side]} clock ${text}`);
    }
  }

  function drawStatus(): void {
    if (!g) return;
    if (g.status !== 'live') {
      status.textContent = 'Game over';
      return;
    }
    if (inSetup()) {
      const waitingFor = [0, 1].filter((s) => !(g!.ready ?? []).includes(s));
      const mine = nextToSetUp();
      if (mine !== null) status.textContent = `${SIDE_NAMES[mine]}: arrange your pieces, then press Ready`;
      else status.textContent = waitingFor.length ? `Waiting for ${waitingFor.map((s) => SIDE_NAMES[s]).join(' and ')}'s setup…` : 'Starting…';
      return;
    }
    const side = g.to_move;
    const p = g.players[side];
    if (isLocal()) status.textContent = `${SIDE_NAMES[side]} to move`;
    else if (plays(side)) status.textContent = g.legal?.length ? 'Your move' : 'Game ending…';
    else if (p?.bot) status.textContent = `${p.name} is thinking…`;
    else status.textContent = `${SIDE_NAMES[side]} (${p?.name ?? '?'}) to move`;
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
        return;
      }
      controls.append(h('button', { type: 'button', class: 'danger', id: 'resign', onclick: () => { confirmResign = true; drawControls(); controls.querySelector<HTMLElement>('#resign-yes')?.focus(); } }, 'Resign'));
      if (!isLocal() && !inSetup()) {
        const theirs = drawOffer !== null && !plays(drawOffer);
        controls.append(h('button', { type: 'button', id: 'draw', onclick: () => socket.send({ type: 'draw', game: id }) }, theirs ? 'Accept draw' : 'Offer draw'));
      }
    } else if (!isLocal()) {
      const theirs = rematchOffer !== null && !plays(rematchOffer);
      controls.append(h('button', { type: 'button', class: 'primary', id: 'rematch', onclick: () => { socket.send({ type: 'rematch', game: id }); rematchOffer = mySides()[0]; drawOffers(); } }, theirs ? 'Accept rematch' : 'Rematch'));
    }
  }

  function drawOffers(): void {
    offers.replaceChildren();
    if (!g) return;
    if (g.status === 'live' && drawOffer !== null)
      offers.append(h('p', { class: 'panel' }, plays(drawOffer) ? 'You offered a draw.' : `${SIDE_NAMES[drawOffer]} offers a draw.`));
    if (g.status === 'over' && rematchOffer !== null)
      offers.append(h('p', { class: 'panel' }, plays(rematchOffer) ? 'Rematch offered: waiting for the other player.' : `${SIDE_NAMES[rematchOffer]} wants a rematch.`));
    drawControls();
  }

  function drawResult(r: Result | null | undefined): void {
    resultBox.replaceChildren();
    if (!g || g.status !== 'over' || !r) return;
    const words = r.reason === 'flag' ? 'The Flag was captured' : r.reason === 'no-moves' ? 'No legal move left' : r.reason === 'move-limit' ? 'Move limit reached: a draw' : reasonText(r.reason);
    resultBox.append(h('div', { class: 'result' },
      h('h2', { tabindex: -1 }, resultHeadline(r, g.players, SIDE_NAMES)),
      h('p', {}, words),
      (r.ratings ?? []).length ? h('ul', { class: 'rating-changes' }, ...(r.ratings ?? []).map((c) => {
        const d = Math.round(c.after - c.before);
        return h('li', {}, `${c.name}: ${Math.round(c.before)} → ${Math.round(c.after)} (${d >= 0 ? '+' : ''}${d})`);
      })) : null,
      h('p', {}, link(`/review/${id}`, 'Review this game'), ' · ', h('a', { href: `/api/games/${id}/record`, target: '_blank' }, 'Game record'), ' · ', link('/', 'New game'))));
  }

  /** The move list: one line per move, with what combat showed. */
  function drawMoves(): void {
    if (!g) return;
    if (!g.moves.length) {
      moveList.replaceChildren(h('p', { class: 'empty' }, inSetup() ? 'The game starts when both armies are set up.' : 'No moves yet.'));
      return;
    }
    const ol = h('ol', {});
    g.moves.forEach((mv, ply) => {
      const ev = events()[ply];
      ol.append(h('li', { class: ev ? 'st-combat' : '' },
        h('span', { class: `st-side st-side-${ply % 2 ? 'blue' : 'red'}` }, SIDE_NAMES[ply % 2]), ' ',
        h('span', { class: 'mv' }, mv),
        ev ? h('span', { class: 'st-event' }, ev) : null));
    });
    moveList.replaceChildren(ol);
    moveList.scrollTop = moveList.scrollHeight;
  }

  /** Pieces each side has lost. A side whose every piece the board shows is
   *  counted from the board; otherwise from the combat words (every capture is
   *  a combat, which both players see), with any remainder as unknown. */
  function drawTally(): void {
    tally.replaceChildren(h('h2', {}, 'Captured pieces'));
    const v = view();
    if (!g || !v) {
      tally.append(h('p', { class: 'empty' }, 'None yet.'));
      return;
    }
    const fromEvents = lossesFromEvents(events());
    for (const side of [0, 1]) {
      const on = countOnBoard(v, side);
      const total = [...on.values()].reduce((a, b) => a + b, 0);
      const lostCount = ARMY_SIZE - total;
      let lost: Map<Kind, number>;
      if (!on.has('X')) {
        lost = new Map();
        for (const k of KIND_ORDER) {
          const n = KINDS[k].count - (on.get(k) ?? 0);
          if (n > 0) lost.set(k, n);
        }
      } else lost = fromEvents[side];
      const known = [...lost.values()].reduce((a, b) => a + b, 0);
      const items = KIND_ORDER.filter((k) => lost.get(k)).map((k) =>
        h('li', {}, pieceBadge({ side, kind: k, revealed: false, moved: false, scout: false }, 24), `${KINDS[k].name}${lost.get(k)! > 1 ? ` ×${lost.get(k)}` : ''}`));
      if (lostCount > known) items.push(h('li', {}, `${lostCount - known} not known`));
      tally.append(h('div', { class: 'st-tally-side', 'data-side': side },
        h('h3', {}, `${SIDE_NAMES[side]} has lost ${lostCount}`),
        items.length ? h('ul', {}, ...items) : h('p', { class: 'empty' }, 'Nothing yet.')));
    }
  }

  /** The last move, its combat and the squares it touched. */
  function lastMoveWords(): string {
    if (!g || !g.moves.length) return 'No move has been played yet.';
    const ply = g.moves.length - 1;
    const [from, to] = moveSquares(g.moves[ply]);
    return `${SIDE_NAMES[ply % 2]} moved ${from} to ${to}.`;
  }

  function drawCover(): void {
    if (!cover || !g) {
      coverBox.hidden = true;
      boardHost.removeAttribute('inert');
      boardHost.removeAttribute('aria-hidden');
      return;
    }
    const name = SIDE_NAMES[cover.side];
    const ev = events()[g.moves.length - 1];
    const combat = parseEvent(ev);
    coverBox.className = `st-cover st-cover-${cover.side ? 'blue' : 'red'}`;
    const parts: (Node | null)[] = [
      h('h2', { id: 'st-cover-h' }, `Pass the device to ${name}`),
      cover.why === 'setup'
        ? h('p', {}, `${SIDE_NAMES[1 - cover.side]} has set up. Now ${name} arranges their pieces, in private.`)
        : h('p', { id: 'st-cover-last' }, lastMoveWords()),
      cover.why === 'move' && ev ? h('p', { class: 'st-cover-event', id: 'st-cover-event' },
        combat ? h('span', { class: 'st-cover-badges' },
          pieceBadge({ side: combat.attacker.side, kind: combat.attacker.kind, revealed: true, moved: true, scout: false }, 40),
          ' attacks ',
          pieceBadge({ side: combat.defender.side, kind: combat.defender.kind, revealed: true, moved: false, scout: false }, 40)) : null,
        h('span', {}, ev)) : null,
      h('p', { class: 'hint' }, `${SIDE_NAMES[1 - cover.side]}: look away now.`),
      h('button', { type: 'button', class: 'primary big', id: 'st-cover-go', onclick: () => uncover() },
        `I am ${name} — show my ${cover.why === 'setup' ? 'setup' : 'pieces'}`)];
    coverBox.replaceChildren(...parts.filter((x): x is Node => x !== null));
    coverBox.hidden = false;
    boardHost.setAttribute('inert', '');
    boardHost.setAttribute('aria-hidden', 'true');
    board.hide();
    coverBox.querySelector<HTMLElement>('#st-cover-go')?.focus();
  }

  function uncover(): void {
    coverShownFor = coverKey();
    cover = null;
    drawAll();
  }

  /** What the cover is about: it comes back when this changes. */
  function coverKey(): string {
    if (!g) return '';
    return inSetup() ? `setup:${nextToSetUp()}` : `play:${g.moves.length}`;
  }

  /** A one-device game covers the board whenever the screen changes hands. */
  function needCover(): { side: number; why: 'setup' | 'move' } | null {
    if (!g || !isLocal() || g.status !== 'live' || coverShownFor === coverKey()) return null;
    if (inSetup()) {
      const s = nextToSetUp();
      // Red sets up first on an uncovered screen; Blue only after the hand-over.
      return s === null || s === 0 ? null : { side: s, why: 'setup' };
    }
    return { side: g.to_move, why: 'move' };
  }

  function drawBoardAndSetup(): void {
    if (!g) return;
    const setupSide = inSetup() ? nextToSetUp() : null;
    if (setupSide === null && editor) {
      editor.destroy();
      editor = null;
      editorSide = -1;
    }
    if (cover) return; // drawCover has emptied the board
    board.setFlipped(viewer() === 1);
    if (setupSide !== null) {
      if (!editor || editorSide !== setupSide) {
        editor?.destroy();
        editorSide = setupSide;
        editor = new SetupEditor(board, setupSide, g.variant);
        editor.onReady = (setup) => {
          submitted.add(setupSide);
          if (!isLocal()) sentSetup = setupView(setupSide, parseSetup(setup));
          socket.send({ type: 'setup', game: id, setup, ...(isLocal() ? { side: setupSide } : {}), ref: 'setup' });
        };
        setupHost.replaceChildren(editor.el);
      }
      return;
    }
    const v = view() ?? (inSetup() ? sentSetup : null);
    if (!v) {
      board.hide(); // setup phase, waiting: nothing to show yet
      return;
    }
    board.setView(v);
    board.setLegal(g.status === 'live' && plays(g.to_move) ? g.legal ?? [] : []);
    board.clearMarks();
    const last = g.moves[g.moves.length - 1];
    if (last) {
      board.mark(moveSquares(last), 'last');
      if (events()[g.moves.length - 1]) board.mark([moveSquares(last)[1]], 'combat');
    }
  }

  function drawAll(): void {
    if (!g) return;
    title.textContent = `${g.title} · ${formatTimeControl(g.base_ms, g.inc_ms)}${g.rated ? ' · rated' : ' · unrated'}`;
    cover = needCover();
    drawCover();
    drawBoardAndSetup();
    drawBars();
    drawStatus();
    drawOffers();
    drawResult(g.result);
    drawMoves();
    drawTally();
  }

  // ---- messages ----

  function setGame(game: StrategoGame): void {
    const had = g;
    g = game;
    // keep the combat words this page saw when the server does not resend them
    if (!g.events && had && had.id === game.id) g.events = had.events?.slice(0, game.moves.length);
    syncAt = performance.now();
    drawOffer = game.draw_offer && game.draw_offer.length ? game.draw_offer[0] : null;
    if (game.phase !== 'setup') submitted = new Set();
    drawAll();
  }

  offs.push(socket.on('game', (m) => {
    if (m.game.id === id) {
      setGame(m.game as StrategoGame);
      return;
    }
    if (g && m.game.you.length && m.game.status === 'live' && m.game.ply === 0) navigate(`/game/${m.game.id}`);
  }));
  offs.push(socket.on('*', (raw) => {
    const m = raw as unknown as { type: string; game?: number };
    if (m.game !== id || !g) return;
    if (m.type === 'ready') {
      g.ready = (m as ReadyMsg).sides;
      drawAll();
    } else if (m.type === 'setup_ok') {
      submitted.add((m as SetupOkMsg).side);
      drawAll();
    } else if (m.type === 'move') {
      onMove(m as MoveMsg);
    }
  }));

  function onMove(m: MoveMsg): void {
    if (!g || m.ply < g.moves.length) return;
    if (m.ply > g.moves.length) {
      socket.send({ type: 'watch', game: id });
      return;
    }
    g.moves.push(m.move);
    g.events = [...(g.events ?? []), ...new Array(Math.max(0, g.moves.length - 1 - (g.events?.length ?? 0))).fill(null), m.event ?? null];
    g.ply = g.moves.length;
    g.position = m.position;
    g.to_move = m.to_move;
    g.clocks = m.clocks;
    g.legal = m.legal ?? [];
    g.phase = 'play';
    syncAt = performance.now();
    drawOffer = null;
    beep(m.event ? 'capture' : 'move');
    drawAll();
  }

  offs.push(socket.on('end', (m) => {
    if (m.game !== id || !g) return;
    g.status = 'over';
    g.result = m.result;
    if (m.clocks) g.clocks = m.clocks;
    syncAt = performance.now();
    confirmResign = false;
    beep('end');
    drawAll();
    resultBox.querySelector<HTMLElement>('h2')?.focus();
    // the finished game is public: fetch it to show every piece
    socket.send({ type: 'watch', game: id });
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
      socket.send({ type: 'watch', game: id });
    } else if (m.ref === 'setup') {
      toast(m.error, 'error');
      submitted = new Set();
      editor?.refused();
    } else if (m.ref === 'watch') {
      api.game(id).then((x) => setGame(x as StrategoGame)).catch((e) => {
        title.textContent = 'Game not found';
        status.textContent = e instanceof Error ? e.message : String(e);
      });
    } else if (m.ref === undefined && g) {
      toast(m.error, 'error');
    }
  }));
  offs.push(socket.on('hello', () => socket.send({ type: 'watch', game: id, ref: 'watch' })));
  socket.send({ type: 'watch', game: id, ref: 'watch' });

  const timer = window.setInterval(drawClocks, 100);
  return () => {
    window.clearInterval(timer);
    for (const off of offs) off();
    socket.send({ type: 'unwatch', game: id });
    editor?.destroy();
    board.destroy();
  };
}
