// games/stratego/game.ts -- a Stratego game, live or finished: set up, play,
// watch. pages/game.ts hands /game/ID here for a game of Stratego's.
//
// The shared web/src/play/controls.ts holds the game as the server sends it,
// with clocks, offers and the result; this page keeps Stratego's own: the
// setup screen, the board, the pass-the-device cover, the move list with
// what combat showed, and the tally of lost pieces.
//
// Invariants: what the board shows is exactly what the server sent: during
// the game each client gets only its side's view (docs/api.md). One-device
// games get the view of the side to move, and the page covers the board
// between turns so that a player never sees the other's pieces: the board is
// emptied while the cover is up and drawn again only when the next player
// says who they are. Once the game is over the whole of it is public, and
// the board shows both armies (the `end` message's position, or after a
// reload the game's last position from /api/games/ID/positions).

import type { Game } from '../../api';
import { h, link, toast, resultHeadline } from '../../ui';
import { socket } from '../../ws';
import { Cleanup } from '../../router';
import { StrategoBoard } from './board';
import { SetupEditor } from './setup';
import { ARMY_SIZE, KINDS, KIND_ORDER, Kind, SIDE_NAMES, View, countOnBoard, lossesFromCombats, moveSquares, combatOf, parseSetup, parseView, setupView } from './notation';
import { pieceBadge } from './pieces';
import { strategoReason } from './replay';
import { GameControls, gameTitle } from '../../play/controls';

export function renderStrategoGame(host: HTMLElement, id: number, first: Game | null = null): Cleanup {
  const offs: (() => void)[] = [];
  let editor: SetupEditor | null = null;
  let editorSide = -1;
  let submitted = new Set<number>(); // sides whose setup this page sent
  let cover: { side: number; why: 'setup' | 'move' } | null = null;
  let coverShownFor = ''; // the state a cover was last dismissed for
  let sentSetup: View | null = null; // shown while waiting for the opponent's setup

  const title = h('h1', { class: 'play-title' }, first ? gameTitle(first) : `Game ${id}`);
  const boardHost = h('div', { class: 'board-host st-board-host' });
  const coverBox = h('div', { class: 'st-cover', id: 'st-cover', role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'st-cover-h', hidden: true });
  const topBar = h('div', { class: 'play-bar-slot' });
  const bottomBar = h('div', { class: 'play-bar-slot' });
  const setupHost = h('div', {});
  const tally = h('div', { class: 'panel st-tally', id: 'st-tally' });
  const moveList = h('div', { class: 'moves st-moves', id: 'move-list', tabindex: 0, 'aria-label': 'Moves and combat' });
  const boardStack = h('div', { class: 'st-stack' }, boardHost, coverBox);
  const boardCol = h('div', { class: 'play-board-col' });
  const sideCol = h('div', { class: 'game-side' });
  host.append(title, h('div', { class: 'game play-game st-game' }, boardCol, sideCol));

  const board = new StrategoBoard(boardHost);
  const inSetup = (g: Game | null) => !!g && g.status === 'live' && g.phase === 'setup';
  const controls: GameControls<Game> = new GameControls<Game>(id, {
    sideName: (side) => SIDE_NAMES[side] ?? `Side ${side}`,
    badge: (side) => pieceBadge({ side, kind: 'X', revealed: false, moved: false, scout: false }, 22),
    headline: (r, g) => resultHeadline(r, g.players, SIDE_NAMES),
    reason: (r) => (['flag', 'no-moves', 'move-limit'].includes(r.reason) ? strategoReason(r.reason) : null),
    barNote: (side, g) => (inSetup(g) ? ((g.ready ?? []).includes(side) ? 'ready' : 'arranging pieces') : ''),
    barClass: (side) => `st-bar-${side ? 'blue' : 'red'}`,
    begun: (g) => g.phase !== 'setup',
    status: (g) => (inSetup(g) ? setupStatus(g) : null),
    onGame: (g, previous) => {
      // keep the combat words this page saw when the server does not resend them
      if (!g.events && previous && previous.id === g.id) g.events = previous.events?.slice(0, g.moves.length);
      if (!g.combats && previous && previous.id === g.id) g.combats = previous.combats?.slice(0, g.moves.length);
      if (g.phase !== 'setup') submitted = new Set();
    },
    onMove: (m, _before, g) => {
      g.events = [...(g.events ?? []), ...new Array(Math.max(0, g.moves.length - 1 - (g.events?.length ?? 0))).fill(null), m.event || null];
      g.combats = [...(g.combats ?? []), ...new Array(Math.max(0, g.moves.length - 1 - (g.combats?.length ?? 0))).fill(null), m.effects?.combat ?? null];
      g.phase = 'play';
      return !!m.event;
    },
    onEnd: (m, g) => {
      // the finished game is public: the end brings the whole position
      if (m.position) g.position = m.position;
      if (m.start) g.start = m.start;
    },
    onError: (m) => {
      if (m.ref !== 'setup') return false;
      toast(m.error, 'error');
      submitted = new Set();
      editor?.refused();
      return true;
    },
    onMissing: (why) => {
      title.textContent = 'Game not found';
      controls.status.textContent = why;
    },
    draw: () => drawAll(),
  });
  board.onMove = (mv) => controls.sendMove(mv);

  const flipBtn = h('button', { type: 'button', onclick: () => { board.setFlipped(!board.isFlipped()); placeBars(); } }, 'Flip board');
  // The analysis board from this player's own view (what they know), in
  // unrated games only: a rated game is played without an engine's help.
  const analyseLink = h('a', { class: 'button', id: 'st-analyse', target: '_blank', rel: 'noopener', hidden: true },
    'Analyse my view');
  boardCol.append(controls.status, topBar, boardStack, bottomBar);
  sideCol.append(setupHost, controls.panel,
    h('div', { class: 'controls' }, controls.soundToggle(), flipBtn, analyseLink, link('/stratego/help', 'How to play Stratego')),
    tally, moveList, controls.chat.el);

  const game = () => controls.game;
  const mySides = () => controls.mine();
  const isLocal = () => controls.allMine();
  const events = () => game()?.events ?? [];
  const combats = () => game()?.combats ?? [];

  function view(): View | null {
    const g = game();
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
    const g = game();
    if (!g) return 0;
    if (!isLocal()) return mySides().length ? mySides()[0] : 0;
    if (inSetup(g)) return nextToSetUp() ?? 0;
    return g.to_move;
  }

  function nextToSetUp(): number | null {
    const g = game();
    if (!g) return null;
    for (const s of mySides()) if (!(g.ready ?? []).includes(s) && !submitted.has(s)) return s;
    return null;
  }

  function setupStatus(g: Game): string {
    const waitingFor = [0, 1].filter((s) => !(g.ready ?? []).includes(s));
    const mine = nextToSetUp();
    if (mine !== null) return `${SIDE_NAMES[mine]}: arrange your pieces, then press Ready`;
    return waitingFor.length ? `Waiting for ${waitingFor.map((s) => SIDE_NAMES[s]).join(' and ')}'s setup…` : 'Starting…';
  }

  // ---- drawing ----

  function placeBars(): void {
    const topSide = board.isFlipped() ? 0 : 1;
    topBar.replaceChildren(controls.bar(topSide));
    bottomBar.replaceChildren(controls.bar(1 - topSide));
  }

  /** The move list: one line per move, with what combat showed. */
  function drawMoves(g: Game): void {
    if (!g.moves.length) {
      moveList.replaceChildren(h('p', { class: 'empty' }, inSetup(g) ? 'The game starts when both armies are set up.' : 'No moves yet.'));
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
    if (!game() || !v) {
      tally.append(h('p', { class: 'empty' }, 'None yet.'));
      return;
    }
    const fromEvents = lossesFromCombats(combats());
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
  function lastMoveWords(g: Game): string {
    if (!g.moves.length) return 'No move has been played yet.';
    const ply = g.moves.length - 1;
    const [from, to] = moveSquares(g.moves[ply]);
    return `${SIDE_NAMES[ply % 2]} moved ${from} to ${to}.`;
  }

  function drawCover(g: Game): void {
    // under the cover the side panels go too (whose setup, the analysis
    // link, the move list): hidden, unreachable, their room kept
    sideCol.classList.toggle('st-covered', !!cover);
    if (cover) sideCol.setAttribute('inert', '');
    else sideCol.removeAttribute('inert');
    if (!cover) {
      coverBox.hidden = true;
      boardHost.removeAttribute('inert');
      boardHost.removeAttribute('aria-hidden');
      return;
    }
    const name = SIDE_NAMES[cover.side];
    const ev = events()[g.moves.length - 1];
    const combat = combatOf(combats()[g.moves.length - 1], g.moves.length - 1);
    coverBox.className = `st-cover st-cover-${cover.side ? 'blue' : 'red'}`;
    const parts: (Node | null)[] = [
      h('h2', { id: 'st-cover-h' }, `Pass the device to ${name}`),
      cover.why === 'setup'
        ? h('p', {}, `${SIDE_NAMES[1 - cover.side]} has set up. Now ${name} arranges their pieces, in private.`)
        : h('p', { id: 'st-cover-last' }, lastMoveWords(g)),
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
    // the clocks, held while the board was covered, run from now
    const g = game();
    if (g?.held) socket.send({ type: 'uncover', game: id, ref: 'uncover' });
    coverShownFor = coverKey();
    cover = null;
    controls.redraw();
  }

  /** What the cover is about: it comes back when this changes. */
  function coverKey(): string {
    const g = game();
    if (!g) return '';
    return inSetup(g) ? `setup:${nextToSetUp()}` : `play:${g.moves.length}`;
  }

  /** A one-device game covers the board whenever the screen changes hands. */
  function needCover(g: Game): { side: number; why: 'setup' | 'move' } | null {
    if (!isLocal() || g.status !== 'live' || coverShownFor === coverKey()) return null;
    if (inSetup(g)) {
      const s = nextToSetUp();
      // Red sets up first on an uncovered screen; Blue only after the hand-over.
      return s === null || s === 0 ? null : { side: s, why: 'setup' };
    }
    return { side: g.to_move, why: 'move' };
  }

  function drawBoardAndSetup(g: Game): void {
    const setupSide = inSetup(g) ? nextToSetUp() : null;
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
    const v = view() ?? (inSetup(g) ? sentSetup : null);
    if (!v) {
      board.hide(); // setup phase, waiting: nothing to show yet
      return;
    }
    board.setView(v);
    board.setLegal(controls.legal());
    board.clearMarks();
    const last = g.moves[g.moves.length - 1];
    if (last) {
      board.mark(moveSquares(last), 'last');
      if (combats()[g.moves.length - 1]) board.mark([moveSquares(last)[1]], 'combat');
    }
  }

  function drawAll(): void {
    const g = game();
    if (!g) return;
    title.textContent = gameTitle(g);
    cover = needCover(g);
    drawCover(g);
    drawBoardAndSetup(g);
    placeBars();
    drawMoves(g);
    drawTally();
    const own = g.status === 'live' && !inSetup(g) && !g.rated && !isLocal() && mySides().length === 1;
    analyseLink.hidden = !own || !g.position;
    if (own && g.position) analyseLink.setAttribute('href', `/analysis/${g.variant}?fen=${encodeURIComponent(g.position)}`);
  }

  // `ready` and `setup_ok`: the setup phase's own messages
  offs.push(socket.on('ready', (m) => {
    const g = game();
    if (m.game !== id || !g) return;
    g.ready = m.sides.slice();
    controls.redraw();
  }));
  offs.push(socket.on('setup_ok', (m) => {
    if (m.game !== id || !game()) return;
    submitted.add(m.side);
    controls.redraw();
  }));

  // the game as first read, while the live state comes: only once it is over
  // (then public); a live game's HTTP answer is no player's view
  controls.seed(first?.status === 'over' ? first : null);
  return () => {
    for (const off of offs) off();
    controls.destroy();
    editor?.destroy();
    board.destroy();
  };
}
