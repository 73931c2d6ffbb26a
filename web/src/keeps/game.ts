// keeps/game.ts -- a Keeps & Moats game, live or finished: play it, watch it.
// pages/game.ts hands /game/ID here when the variant's family is keeps-moats.
//
// Four kingdoms, each played by a person or a bot (one person may play
// several). The page draws what the server sends; the server's `legal` list
// is the only source of moves, including the K5 choices of a Pawn entering
// an enemy Keep, which the page asks about in a dialog before sending.

import { api, Game, Result } from '../api';
import { h, link, toast, formatClock, formatTimeControl, reasonText } from '../ui';
import { socket } from '../ws';
import { beep, setSound, soundOn } from '../sound';
import { navigate, Cleanup } from '../main';
import { KeepsBoard } from './board';
import { areaOf, GAME_TYPES, KINGDOMS, KING_RESULTS, KIND_NAMES, Piece, Position, moveSquares, moveWords, parseMove, parsePosition, pieceName } from './notation';

type KmGame = Game & { teams?: number[] };

/** The names of a team's kingdoms: "White and Blue". */
export function teamWords(team: number, teams: number[]): string {
  const ks = KINGDOMS.filter((_, i) => teams[i] === team);
  return ks.length > 1 ? ks.slice(0, -1).join(', ') + ' and ' + ks[ks.length - 1] : ks[0] ?? `Team ${team}`;
}

export function kmResultHeadline(r: Result, teams: number[]): string {
  if (r.winner < 0) return 'Draw';
  const words = teamWords(r.winner, teams);
  return `${words} ${words.includes(' and ') ? 'win' : 'wins'}`;
}

export function swatch(kingdom: number): HTMLElement {
  return h('span', { class: `km-swatch km-s${kingdom}`, 'aria-hidden': 'true' });
}

/** What each K5 choice does, in words for the dialog's buttons. */
export function choiceWords(move: string, pos: Position | null): string {
  const m = parseMove(move);
  if (!m || m === 'pass') return move;
  if (m.choice?.release) return `Release your ${KIND_NAMES[m.choice.release.kind]}` + (m.choice.release.kingdom !== pos?.toMove ? ` (${KINGDOMS[m.choice.release.kingdom]}'s)` : '');
  if (m.choice?.assassinate) {
    const v = pos?.board.get(m.choice.assassinate);
    return `Assassinate ${v ? `the ${pieceName(v)}` : 'the piece'} on ${m.choice.assassinate}`;
  }
  return 'Just leave the board';
}

export function renderKeepsGame(host: HTMLElement, id: number): Cleanup {
  const offs: (() => void)[] = [];
  let g: KmGame | null = null;
  let pos: Position | null = null;
  let syncAt = performance.now();
  let drawOffer: number | null = null;
  let rematchOffer: number | null = null;
  let confirmResign = false;
  let moveSent = false;
  const movers: (number | null)[] = []; // the kingdom of each ply, where the page saw it played
  const words: (string | null)[] = [];

  const title = h('h1', {}, `Game ${id}`);
  const boardHost = h('div', { class: 'board-host km-board-host' });
  const status = h('p', { class: 'status km-status', 'aria-live': 'polite', id: 'game-status' });
  const choice = h('div', { class: 'km-choice', id: 'km-choice', role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'km-choice-h', hidden: true });
  const passBox = h('div', { id: 'km-pass' });
  const kingdoms = h('div', { class: 'panel km-kingdoms', id: 'km-kingdoms' });
  const info = h('p', { class: 'hint', id: 'km-info' });
  const resultBox = h('div', { id: 'result', 'aria-live': 'polite' });
  const offers = h('div', { 'aria-live': 'polite' });
  const controls = h('div', { class: 'controls' });
  const moveList = h('div', { class: 'moves km-moves', id: 'move-list', tabindex: 0, 'aria-label': 'Moves' });
  const soundBox = h('input', { type: 'checkbox', id: 'sound', checked: soundOn() });
  soundBox.addEventListener('change', () => setSound(soundBox.checked));
  host.append(title, h('div', { class: 'game km-game' },
    h('div', {}, status, boardHost, choice),
    h('div', { class: 'game-side' }, passBox, resultBox, offers, controls, kingdoms, info,
      h('div', { class: 'controls' }, h('label', { class: 'toggle' }, soundBox, 'Sound'), link('/keeps/help', 'How to play Keeps & Moats')),
      moveList)));

  const board = new KeepsBoard(boardHost);
  board.onMove = (moves) => {
    // one plain move goes at once; a Pawn entering an enemy Keep asks first
    if (moves.length === 1 && !entersEnemyKeep(moves[0])) send(moves[0]);
    else askChoice(moves);
  };

  const mine = () => g?.you ?? [];
  const plays = (k: number) => mine().includes(k);
  const teams = () => g?.teams ?? [0, 1, 2, 3];

  /** A Pawn arriving in an enemy Keep (K5): worth a word even with no choice. */
  function entersEnemyKeep(move: string): boolean {
    const m = parseMove(move);
    if (!m || m === 'pass' || !pos) return false;
    const p = pos.board.get(m.from);
    const area = areaOf(m.to);
    if (!p || (p.kind !== 'P' && p.kind !== 'C') || area?.part !== 'keep') return false;
    return teams()[area.kingdom] !== teams()[pos.toMove];
  }

  function send(move: string): void {
    if (!g) return;
    socket.send({ type: 'move', game: id, ply: g.moves.length, move, ref: 'move' });
    beep('move');
    moveSent = true;
    g.legal = [];
    board.setLegal([]);
    closeChoice();
    status.textContent = 'Sending your move…';
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

  function viewer(): number {
    if (!g || !mine().length) return 0;
    return plays(g.to_move) && g.status === 'live' ? g.to_move : mine()[0];
  }

  function clockMs(k: number): number {
    if (!g) return 0;
    const run = g.status === 'live' && g.to_move === k;
    return (g.clocks[k] ?? 0) - (run ? performance.now() - syncAt : 0);
  }

  function drawClocks(): void {
    if (!g || !g.base_ms) return;
    for (const el of kingdoms.querySelectorAll<HTMLElement>('.clock')) {
      const k = Number(el.dataset.kingdom);
      const ms = clockMs(k);
      const text = formatClock(ms);
      if (el.textContent !== text) el.textContent = text;
      el.className = `clock${g.status === 'live' && g.to_move === k ? ' running' : ''}${ms < 10000 && g.status === 'live' ? ' low' : ''}`;
      el.setAttribute('aria-label', `${KINGDOMS[k]} clock ${text}`);
    }
  }

  function prisonerList(list: Piece[]): string {
    if (!list.length) return 'no prisoners';
    const count = new Map<string, number>();
    for (const p of list) count.set(pieceName(p), (count.get(pieceName(p)) ?? 0) + 1);
    return 'holds ' + [...count].map(([n, c]) => (c > 1 ? `${c}× ${n}` : n)).join(', ');
  }

  function drawKingdoms(): void {
    if (!g) return;
    const rows = KINGDOMS.map((name, k) => {
      const p = g!.players[k];
      const out = pos?.out.includes(k);
      const who = p ? (p.bot || p.guest ? p.name : link(`/players/${encodeURIComponent(p.name)}`, p.name)) : '?';
      return h('li', { class: `km-kingdom${g!.status === 'live' && g!.to_move === k ? ' to-move' : ''}${out ? ' out' : ''}`, 'data-kingdom': k },
        h('div', { class: 'km-kingdom-head' },
          h('span', { class: 'pname' }, swatch(k), h('strong', {}, name), ': ', who, p?.bot ? ' (bot)' : '', plays(k) ? ' (you)' : ''),
          g!.base_ms ? h('span', { class: 'clock', role: 'timer', 'data-kingdom': k }) : null),
        h('div', { class: 'hint' }, out ? 'Out: its King was captured. ' : '', pos ? prisonerList(pos.prisoners[k]) : ''));
    });
    kingdoms.replaceChildren(h('h2', {}, 'Kingdoms'), h('ul', { class: 'km-kingdom-list' }, ...rows));
    drawClocks();
  }

  function drawInfo(): void {
    if (!g || !pos) return;
    const ally = pos.gameType === 'anarchy' ? 'every kingdom for itself' : `${teamWords(0, teams())} against ${teamWords(1, teams())}`;
    info.textContent = `${GAME_TYPES[pos.gameType] ?? pos.gameType} (${ally}) · Captured King: ${KING_RESULTS[pos.kingResult] ?? pos.kingResult} · Round ${pos.round}${pos.limit ? ` of ${pos.limit}` : ''} · ${formatTimeControl(g.base_ms, g.inc_ms)}`;
  }

  function drawStatus(): void {
    if (!g) return;
    status.replaceChildren();
    if (g.status !== 'live') {
      status.textContent = 'Game over';
      return;
    }
    const k = g.to_move;
    const p = g.players[k];
    const whose = h('span', { class: 'km-turn' }, swatch(k), `${KINGDOMS[k]}`);
    if (plays(k)) status.append(whose, moveSent ? ': sending your move…' : g.legal?.length ? ': your move' : ': waiting…');
    else status.append(whose, p?.bot ? ` (${p.name}) is thinking…` : ` (${p?.name ?? '?'}) to move`);
  }

  function drawPass(): void {
    passBox.replaceChildren();
    if (!g || g.status !== 'live' || !plays(g.to_move)) return;
    const legal = g.legal ?? [];
    if (legal.length === 1 && legal[0] === 'pass')
      passBox.append(h('div', { class: 'panel' }, h('p', {}, `${KINGDOMS[g.to_move]} has no legal move and must pass.`),
        h('button', { type: 'button', class: 'primary', id: 'km-pass-btn', onclick: () => send('pass') }, 'Pass')));
  }

  function drawControls(): void {
    controls.replaceChildren();
    if (!g || !mine().length) return;
    if (g.status === 'live') {
      if (confirmResign) {
        controls.append(h('span', { class: 'status' }, 'Resign this game?'),
          h('button', { type: 'button', class: 'danger', id: 'resign-yes', onclick: () => { socket.send({ type: 'resign', game: id }); confirmResign = false; drawControls(); } }, 'Yes, resign'),
          h('button', { type: 'button', onclick: () => { confirmResign = false; drawControls(); } }, 'No, play on'));
        return;
      }
      controls.append(h('button', { type: 'button', class: 'danger', id: 'resign', onclick: () => { confirmResign = true; drawControls(); controls.querySelector<HTMLElement>('#resign-yes')?.focus(); } }, 'Resign'));
      const theirs = drawOffer !== null && !plays(drawOffer);
      controls.append(h('button', { type: 'button', id: 'draw', onclick: () => socket.send({ type: 'draw', game: id }) }, theirs ? 'Accept draw' : 'Offer draw'));
    } else {
      const theirs = rematchOffer !== null && !plays(rematchOffer);
      controls.append(h('button', { type: 'button', class: 'primary', id: 'rematch', onclick: () => { socket.send({ type: 'rematch', game: id }); rematchOffer = mine()[0]; drawOffers(); } }, theirs ? 'Accept rematch' : 'Rematch'));
    }
  }

  function drawOffers(): void {
    offers.replaceChildren();
    if (!g) return;
    if (g.status === 'live' && drawOffer !== null)
      offers.append(h('p', { class: 'panel' }, plays(drawOffer) ? 'You offered a draw: every other person must accept (bots never do).' : `${KINGDOMS[drawOffer]} offers a draw.`));
    if (g.status === 'over' && rematchOffer !== null)
      offers.append(h('p', { class: 'panel' }, plays(rematchOffer) ? 'Rematch offered: waiting for the others.' : `${KINGDOMS[rematchOffer]} wants a rematch.`));
    drawControls();
  }

  function drawResult(r: Result | null | undefined): void {
    resultBox.replaceChildren();
    if (!g || g.status !== 'over' || !r) return;
    const why = r.reason === 'kings' ? 'Every King left belongs to one side' : r.reason === 'move-limit' ? 'The move limit was reached: a draw among the kingdoms still in' : reasonText(r.reason);
    resultBox.append(h('div', { class: 'result' },
      h('h2', { tabindex: -1 }, kmResultHeadline(r, teams())),
      h('p', {}, why),
      h('p', {}, link(`/review/${id}`, 'Review this game'), ' · ', h('a', { href: `/api/games/${id}/record`, target: '_blank' }, 'Game record'), ' · ', link('/', 'New game'))));
  }

  function drawMoves(): void {
    if (!g) return;
    if (!g.moves.length) {
      moveList.replaceChildren(h('p', { class: 'empty' }, 'No moves yet. White moves first, then Red, Black and Blue.'));
      return;
    }
    const ol = h('ol', {});
    g.moves.forEach((mv, ply) => {
      const k = movers[ply];
      ol.append(h('li', {}, k !== null && k !== undefined ? h('span', { class: 'km-mover' }, swatch(k), KINGDOMS[k], ' ') : null,
        h('span', { class: 'mv', title: mv }, words[ply] ?? mv)));
    });
    moveList.replaceChildren(ol);
    moveList.scrollTop = moveList.scrollHeight;
  }

  function drawAll(): void {
    if (!g) return;
    title.textContent = `Keeps & Moats · Game ${id}`;
    board.setViewer(viewer());
    if (pos) board.setPosition(pos);
    board.setLegal(g.status === 'live' && plays(g.to_move) && !moveSent ? (g.legal ?? []).filter((m) => m !== 'pass') : []);
    board.setLast(g.moves.length ? moveSquares(g.moves[g.moves.length - 1]) : []);
    drawStatus();
    drawPass();
    drawKingdoms();
    drawInfo();
    drawOffers();
    drawResult(g.result);
    drawMoves();
  }

  function setGame(x: KmGame): void {
    g = x;
    syncAt = performance.now();
    moveSent = false;
    drawOffer = x.draw_offer?.length ? x.draw_offer[0] : null;
    try {
      pos = parsePosition(x.position);
    } catch (e) {
      console.error('keeps-moats: cannot read the position', x.position, e);
    }
    movers.length = x.moves.length;
    words.length = x.moves.length;
    drawAll();
  }

  offs.push(socket.on('game', (m) => {
    if (m.game.id === id) return setGame(m.game as KmGame);
    // a rematch started for us
    if (g && m.game.you.length && m.game.status === 'live' && m.game.ply === 0) navigate(`/game/${m.game.id}`);
  }));
  offs.push(socket.on('move', (m) => {
    if (m.game !== id || !g) return;
    if (m.ply < g.moves.length) return; // already have it
    if (m.ply > g.moves.length) return void socket.send({ type: 'watch', game: id });
    movers[m.ply] = pos ? pos.toMove : null;
    words[m.ply] = moveWords(m.move, pos ?? undefined);
    g.moves.push(m.move);
    g.position = m.position;
    g.to_move = m.to_move;
    g.clocks = m.clocks;
    g.legal = m.legal ?? [];
    syncAt = performance.now();
    moveSent = false;
    drawOffer = null;
    try { pos = parsePosition(m.position); } catch { /* drawn from the last good one */ }
    if (!plays(movers[m.ply] ?? -1)) beep('move');
    closeChoice();
    drawAll();
  }));
  offs.push(socket.on('end', (m) => {
    if (m.game !== id || !g) return;
    g.status = 'over';
    g.result = m.result;
    if (m.clocks) g.clocks = m.clocks;
    confirmResign = false;
    beep('end');
    drawAll();
    resultBox.querySelector<HTMLElement>('h2')?.focus();
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
    } else if (m.ref === 'watch') {
      api.game(id).then((x) => setGame(x as KmGame)).catch((e) => {
        title.textContent = 'Game not found';
        status.textContent = e instanceof Error ? e.message : String(e);
      });
    } else if (m.ref === undefined && g) toast(m.error, 'error');
  }));
  offs.push(socket.on('hello', () => socket.send({ type: 'watch', game: id, ref: 'watch' })));
  socket.send({ type: 'watch', game: id, ref: 'watch' });

  const onKey = (e: KeyboardEvent) => { if (e.key === 'Escape' && !choice.hidden) closeChoice(); };
  document.addEventListener('keydown', onKey);
  const timer = window.setInterval(drawClocks, 100);
  return () => {
    window.clearInterval(timer);
    document.removeEventListener('keydown', onKey);
    for (const off of offs) off();
    socket.send({ type: 'unwatch', game: id });
    board.destroy();
  };
}
