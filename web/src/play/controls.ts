// play/controls.ts -- what every game page shares around its board: the one
// live link to the server for this game (watch, the game's messages, errors),
// the player bars with their clocks, the turn line, Resign (with its
// confirmation), draw and rematch offers, the result, and the connection's
// state; and the game's chat (play/chat.ts), which each page places with
// `controls.chat.el`. Rampart (games/rampart/game.ts), Stratego
// (games/stratego/game.ts) and Keeps & Moats (games/keeps/game.ts) each make one GameControls and keep only
// their own: the board, Stratego's setup and cover, Keeps & Moats's
// prisoner dialog.
//
// Invariants:
// - the server's messages are read here, once, through their declared types
//   (play/protocol.ts); a page hears of them only through its hooks, after
//   the shared state (moves, position, clocks, offers, result) is updated;
// - offers are the server's list of offering sides (`draw_offer.sides`,
//   `game.draw_offer`), never a guess: the person who offered is told so and
//   gets no Accept button, everyone else reads the offering player's name;
// - a side's clock runs on the page only while the server runs it (live,
//   begun, its turn, not held), counted from when the server's clocks last came.

import { api, Game, Player, Result } from '../api';
import { haveEngine, prepare, whenEngine } from '../engine/read';
import { socket, type Handler, type ServerMessage } from '../ws';
import { navigate } from '../router';
import { beep, setSound, soundOn } from '../sound';
import { h, link, toast, formatClock, formatTimeControl, reasonText } from '../ui';
import type { EndMessage, ErrorMessage, LiveGame, MoveMessage } from './protocol';
import { GameChat } from './chat';

/** "Rampart Classic · 5+3 · rated": the heading of a game's page. */
export function gameTitle(g: Game): string {
  return `${g.title} · ${formatTimeControl(g.base_ms, g.inc_ms)}${g.rated ? ' · rated' : ' · unrated'}`;
}

/** What a page tells its controls. */
export type ControlHooks<G extends Game> = {
  /** A side's name as the game says it: "Bottom", "Red", "White". */
  sideName(side: number): string;
  /** A small picture of the side for its bar. */
  badge(side: number): Node;
  /** The result's headline: "Top (bob) wins", "White and Black win". */
  headline(r: Result, g: G): string;
  /** Why the game ended, where the game has words of its own; null for the shared words. */
  reason?(r: Result, g: G): string | null;
  /** More about a side, in its bar: material, "ready", "out". */
  barNote?(side: number, g: G): string;
  /** Extra classes of a side's bar. */
  barClass?(side: number, g: G): string;
  /** Whether play has begun (Stratego: both setups in). Until then no clock
   *  runs and no draw may be offered. */
  begun?(g: G): boolean;
  /** The turn line's text when the page has its own (a setup phase); null otherwise. */
  status?(g: G): string | null;
  /** Whether a side is still in the game (Keeps & Moats: not out); all are unless said. */
  sideIn?(side: number): boolean;
  /** The side that played a move when it is not the side to move (a
   *  resignation, which may come out of turn); null for the side to move. */
  mover?(move: string): number | null;
  /** A picture for the side to move in the turn line (Keeps & Moats's colours). */
  statusBadge?(side: number): Node;
  /** The whole game came (watch, reconnect, a reload); `previous` is what the page had. */
  onGame(g: G, previous: G | null): void;
  /** A move came and the shared state has it; `before` is the position it was played
   *  from. Returns whether it took something (for the sound). */
  onMove(m: MoveMessage, before: { position: string; to_move: number }, g: G): boolean;
  /** The game ended; the shared state has the result already. */
  onEnd?(m: EndMessage, g: G): void;
  /** An error the page answers itself (its own refs); true when handled. */
  onError?(m: ErrorMessage): boolean;
  /** The game cannot be read at all. */
  onMissing?(why: string): void;
  /** Draws the page's own part: called after every change. */
  draw(): void;
};

type Offers = { draw: number[]; rematch: number[] };
/** A game may be aborted until every side has made this many moves. */
const ABORT_BEFORE = 2;

export class GameControls<G extends Game> {
  /** The game as the server last told it, with moves applied since. */
  game: G | null = null;
  /** The turn line (#game-status): whose move it is. */
  readonly status = h('p', { class: 'status play-status', 'aria-live': 'polite', id: 'game-status' });
  /** Offers, buttons, errors, the connection line and the result. */
  readonly panel = h('div', { class: 'play-controls' });
  /** The game's chat panel (hidden when the game has none for this client). */
  readonly chat: GameChat;

  private bars: HTMLElement[] = [];
  private clocks: HTMLElement[] = [];
  private syncAt = performance.now(); // when game.clocks last came from the server
  private moveSent = false; // our move is on its way and not acknowledged yet
  private offers: Offers = { draw: [], rematch: [] };
  private declined: number[] = []; // the sides that last declined a draw offer, until the next move
  private confirmResign = false;
  private refused = ''; // the server's answer to our last resign, draw or rematch, if it said no
  private conn = h('p', { class: 'play-conn', id: 'play-conn', role: 'status', hidden: true });
  private errorLine = h('p', { class: 'error play-error', id: 'play-error', role: 'alert', hidden: true });
  private offerBox = h('div', { class: 'play-offers', id: 'offers', 'aria-live': 'polite' });
  private buttons = h('div', { class: 'controls', id: 'game-buttons' });
  private resultBox = h('div', { id: 'result', 'aria-live': 'polite' });
  private offs: (() => void)[] = [];
  private timer: number;
  private waiting = 0;  // messages held until they can be read (inOrder)
  private held: Promise<void> = Promise.resolve();
  private gone = false;

  constructor(readonly id: number, private hooks: ControlHooks<G>) {
    this.panel.append(this.conn, this.resultBox, this.offerBox, this.buttons, this.errorLine);
    this.chat = new GameChat(id);
    this.listen();
    socket.send({ type: 'watch', game: id, ref: 'watch' });
    // the clocks tick between the server's messages
    this.timer = window.setInterval(() => {
      this.drawClocks();
      this.drawConn();
    }, 100);
  }

  destroy(): void {
    this.gone = true;
    window.clearInterval(this.timer);
    for (const off of this.offs) off();
    this.chat.destroy();
    socket.send({ type: 'unwatch', game: this.id });
  }

  // ---- who is who ----

  /** The sides this page plays. */
  mine(): number[] {
    return this.game?.you ?? [];
  }

  plays(side: number): boolean {
    return this.mine().includes(side);
  }

  /** Every side is played here: one device. */
  allMine(): boolean {
    const g = this.game;
    return !!g && g.you.length > 1 && g.you.length === g.players.length;
  }

  /** Whether this page may move now, and with which moves. */
  legal(): string[] {
    const g = this.game;
    if (!g || g.status !== 'live' || this.moveSent || !this.begun() || !this.plays(g.to_move)) return [];
    return g.legal ?? [];
  }

  private begun(): boolean {
    return !!this.game && (this.hooks.begun?.(this.game) ?? true);
  }

  private teamOf(side: number): number {
    const teams = (this.game as LiveGame | null)?.teams;
    return teams?.[side] ?? side;
  }

  private player(side: number): Player | null {
    return this.game?.players[side] ?? null;
  }

  /** "alice", or the side's name when nobody is known there. */
  private nameOf(side: number): string {
    return this.player(side)?.name ?? this.hooks.sideName(side);
  }

  /** The people's names at these sides, each once: "alice and bob". */
  private namesOf(sides: number[]): string {
    const names = [...new Set(sides.map((s) => this.nameOf(s)))];
    return names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}` : names[0] ?? '';
  }

  private sideIn(side: number): boolean {
    return this.hooks.sideIn?.(side) ?? true;
  }

  /** Sides still in the game. */
  private inSides(): number[] {
    return (this.game?.players ?? []).map((_, i) => i).filter((i) => this.sideIn(i));
  }

  /** Sides still in played by people (bots never offer nor accept). */
  private peopleSides(): number[] {
    return this.inSides().filter((i) => !this.player(i)?.bot);
  }

  // ---- what the page asks ----

  /** Sends a move the person chose; nothing more can be played until the server answers. */
  sendMove(move: string): void {
    const g = this.game;
    if (!g) return;
    socket.send({ type: 'move', game: this.id, ply: g.moves.length, move, ref: 'move' });
    beep('move');
    this.moveSent = true;
    g.legal = [];
    this.redraw();
  }

  /** Draws everything again (the page changed something of its own). */
  redraw(): void {
    this.hooks.draw();
    this.drawOwn();
  }

  /** The bar of a side: badge, name, player, note and clock. */
  bar(side: number): HTMLElement {
    while (this.bars.length <= side) {
      const s = this.bars.length;
      this.clocks.push(h('span', { class: 'clock', role: 'timer', 'data-side': s }));
      this.bars.push(h('div', { class: 'player-bar', 'data-side': s }));
    }
    return this.bars[side];
  }

  /** The sound on/off switch. */
  soundToggle(): HTMLElement {
    const box = h('input', { type: 'checkbox', id: 'sound', checked: soundOn() });
    box.addEventListener('change', () => setSound(box.checked));
    return h('label', { class: 'toggle' }, box, 'Sound');
  }

  // ---- the server ----

  /** Handles the server's messages in the order they came, each once the
   *  page can read it: at once when the engine is loaded and none waits;
   *  before, a game's state once the server has read its position
   *  (engine/read.ts prepare: the board is drawn while the engine loads),
   *  anything about a move once the engine is there (`texts` null), and
   *  what draws no board (`texts` empty) after those before it. */
  private inOrder(family: string, texts: string[] | null, f: () => void): void {
    if (haveEngine() && !this.waiting) {
      f();
      return;
    }
    this.waiting++;
    this.held = this.held
      .then(() => (texts === null ? whenEngine() : texts.length && !haveEngine() ? prepare(family, texts) : undefined))
      .then(() => {
        if (!this.gone) f();
      })
      .catch((e) => console.error(e))
      .finally(() => this.waiting--);
  }

  private listen(): void {
    const id = this.id;
    const family = (): string => this.game?.family ?? '';
    const on = <T extends 'game' | 'move' | 'end' | 'draw_offer' | 'rematch_offer'>(type: T, f: Handler<T>) =>
      socket.on(type, ((m: ServerMessage) => {
        const texts = m.type === 'game' ? [m.game.position] : m.type === 'move' || m.type === 'end' ? null : [];
        this.inOrder(m.type === 'game' ? m.game.family : family(), texts, () => (f as (x: ServerMessage) => void)(m));
      }) as Handler<T>);
    this.offs.push(on('game', (m) => {
      if (m.game.id === id) {
        const had = this.game ? this.game.rematch ?? 0 : -1;
        this.setGame(m.game as G);
        // a spectator follows the players into their rematch, once it starts
        if (had === 0 && m.game.rematch && !m.game.you.length) navigate(`/game/${m.game.rematch}`);
        return;
      }
      // a rematch (or another game) just started for us: go there
      if (this.game && m.game.you.length && m.game.status === 'live' && m.game.ply === 0) navigate(`/game/${m.game.id}`);
    }));
    this.offs.push(on('move', (m) => {
      const g = this.game;
      if (m.game !== id || !g) return;
      if (m.ply < g.moves.length) return; // seen already
      if (m.ply > g.moves.length) {
        socket.send({ type: 'watch', game: id }); // missed one: fetch everything again
        return;
      }
      const before = { position: g.position, to_move: g.to_move };
      g.moves.push(m.move);
      g.ply = g.moves.length;
      // a move that ends a game with hidden pieces may come without its position: the end brings it
      if (typeof m.position === 'string') g.position = m.position;
      g.to_move = m.to_move;
      g.clocks = m.clocks;
      // one device: no clock runs while the board is covered for the hand-over
      if (m.held) g.held = true;
      else delete g.held;
      g.legal = m.legal ?? [];
      // what the server says the move did and what stands attacked now
      if (m.material) g.material = m.material;
      if (m.effects) g.last = m.effects;
      g.threats = m.threats;
      this.syncAt = performance.now();
      this.moveSent = false;
      const mover = this.hooks.mover?.(m.move) ?? before.to_move;
      // a turn's move declines the others' draw offers (the mover's own stands)
      if (mover === before.to_move) this.offers.draw = this.offers.draw.filter((s) => s === mover);
      this.declined = [];
      const took = this.hooks.onMove(m as MoveMessage, before, g);
      if (took) beep('capture');
      else if (!this.plays(mover) || this.allMine()) beep('move');
      this.redraw();
    }));
    this.offs.push(on('end', (m) => {
      const g = this.game;
      if (m.game !== id || !g) return;
      g.status = 'over';
      g.result = m.result;
      if (m.clocks) g.clocks = m.clocks;
      this.syncAt = performance.now();
      this.confirmResign = false;
      this.offers.draw = [];
      this.moveSent = false;
      this.hooks.onEnd?.(m as EndMessage, g);
      beep('end');
      this.redraw();
      this.resultBox.querySelector<HTMLElement>('h2')?.focus({ preventScroll: true });
    }));
    this.offs.push(on('draw_offer', (m) => {
      if (m.game !== id) return;
      this.offers.draw = m.sides.slice();
      this.declined = (m.declined_by ?? []).slice();
      this.drawOwn();
    }));
    this.offs.push(on('rematch_offer', (m) => {
      if (m.game !== id) return;
      this.offers.rematch = m.sides.slice();
      this.drawOwn();
    }));
    this.offs.push(socket.on('error', (m) => this.onError(m)));
    this.offs.push(socket.on('hello', () => socket.send({ type: 'watch', game: id, ref: 'watch' })));
  }

  /** The game as the page first read it (GET /api/games/ID), drawn at once
   *  while the server's live state is on its way; that state replaces it. */
  seed(game: G | null): void {
    if (game && !this.game) this.setGame(game);
  }

  private setGame(game: G): void {
    const previous = this.game;
    this.game = game;
    this.syncAt = performance.now();
    this.moveSent = false;
    this.offers.draw = game.status === 'live' ? (game.draw_offer ?? []).slice() : [];
    this.offers.rematch = (game.rematch_offer ?? []).slice();
    this.chat.setGame(game);
    this.hooks.onGame(game, previous);
    this.redraw();
  }

  private onError(m: ErrorMessage): void {
    if (this.hooks.onError?.(m)) return;
    if (m.ref === 'move') {
      toast(m.error, 'error');
      this.moveSent = false;
      socket.send({ type: 'watch', game: this.id }); // put the board back as the server has it
    } else if (m.ref === 'watch') {
      // not a live game (finished before the server started, or unknown): read it once
      api.game(this.id).then((g) => this.setGame(g as G)).catch((e) => this.hooks.onMissing?.(e instanceof Error ? e.message : String(e)));
    } else if (m.ref === 'resign' || m.ref === 'draw' || m.ref === 'rematch' || m.ref === 'abort') {
      this.refused = m.error;
      this.drawOwn();
    } else if (m.ref === undefined && this.game) {
      toast(m.error, 'error');
    }
  }

  /** A request about the game; `side` names the kingdom that resigns. */
  private ask(type: 'resign' | 'draw' | 'rematch' | 'abort', side?: number): void {
    this.refused = '';
    socket.send({ type, game: this.id, ...(side === undefined ? {} : { side }), ref: type });
  }

  // ---- drawing ----

  private drawOwn(): void {
    this.drawBars();
    this.drawStatus();
    this.drawOffersAndButtons();
    this.drawResult();
    this.drawConn();
    this.errorLine.hidden = !this.refused;
    this.errorLine.textContent = this.refused ? `The server said no: ${this.refused}` : '';
  }

  private clockRuns(side: number): boolean {
    const g = this.game;
    return !!g && g.status === 'live' && this.begun() && g.to_move === side && g.base_ms > 0 && !g.held;
  }

  private clockMs(side: number): number {
    const g = this.game;
    if (!g) return 0;
    return (g.clocks[side] ?? 0) - (this.clockRuns(side) ? performance.now() - this.syncAt : 0);
  }

  private drawClocks(): void {
    const g = this.game;
    if (!g || !g.base_ms) return;
    this.clocks.forEach((c, side) => {
      const ms = this.clockMs(side);
      const text = formatClock(ms);
      if (c.textContent !== text) c.textContent = text;
      const cls = `clock${this.clockRuns(side) ? ' running' : ''}${ms < 10000 && g.status === 'live' ? ' low' : ''}`;
      if (c.className !== cls) c.className = cls;
      const label = `${this.hooks.sideName(side)} clock ${text}`;
      if (c.getAttribute('aria-label') !== label) c.setAttribute('aria-label', label);
    });
  }

  private drawBars(): void {
    const g = this.game;
    if (!g) return;
    g.players.forEach((p, side) => {
      const bar = this.bar(side);
      const you = this.plays(side) && !this.allMine();
      const toMove = g.status === 'live' && this.begun() && g.to_move === side;
      bar.className = `player-bar${toMove ? ' to-move' : ''}${you ? ' mine' : ''} ${this.hooks.barClass?.(side, g) ?? ''}`.trim();
      const note = this.hooks.barNote?.(side, g) ?? '';
      const who = p ? (p.bot || p.guest ? p.name : link(`/players/${encodeURIComponent(p.name)}`, p.name)) : '?';
      const parts: Node[] = [h('span', { class: 'pname' }, this.hooks.badge(side),
        h('span', { class: 'pwho' }, h('span', { class: 'pside' }, this.hooks.sideName(side)), h('span', { class: 'psep' }, ': '),
          h('span', { class: 'pplayer' }, who, p?.bot ? ' (bot)' : ''), you ? h('span', { class: 'pyou' }, ' (you)') : null))];
      if (note) parts.push(h('span', { class: 'mat' }, note));
      if (g.base_ms) parts.push(this.clocks[side]);
      bar.replaceChildren(...parts);
    });
    this.drawClocks();
  }

  private drawStatus(): void {
    const g = this.game;
    if (!g) return;
    this.status.replaceChildren();
    if (g.status !== 'live') {
      this.status.textContent = 'Game over';
      return;
    }
    const own = this.hooks.status?.(g);
    if (own) {
      this.status.textContent = own;
      return;
    }
    const side = g.to_move;
    const name = this.hooks.sideName(side);
    const p = this.player(side);
    let text: string;
    if (this.plays(side)) {
      // a last move comes without legal moves, just before its `end`
      if (this.moveSent) text = 'Sending your move…';
      else if (!g.legal?.length) text = 'Game ending…';
      else if (this.allMine()) text = `${name} to move`;
      else text = this.mine().length > 1 ? `${name}: your move` : 'Your move';
    } else if (p?.bot) text = `${name} (${p.name}) is thinking…`;
    else text = `${name} (${p?.name ?? '?'}) to move`;
    const badge = this.hooks.statusBadge?.(side);
    if (badge) this.status.append(badge);
    this.status.append(text);
  }

  private drawOffersAndButtons(): void {
    const g = this.game;
    this.offerBox.replaceChildren();
    this.buttons.replaceChildren();
    if (!g) return;
    const mine = this.mine();
    const people = this.peopleSides();
    const button = (id: string, text: string, onclick: () => void, cls = '') => h('button', { type: 'button', id, class: cls || null, onclick }, text);
    const say = (text: string) => this.offerBox.append(h('p', { class: 'panel play-offer' }, text));
    /** The offer's words: ours, theirs (with an Accept button), or none. */
    const offer = (sides: number[], what: 'draw' | 'rematch'): 'mine' | 'theirs' | null => {
      const ours = sides.filter((s) => this.plays(s));
      const theirs = sides.filter((s) => !this.plays(s) && people.includes(s));
      const waiting = people.filter((s) => !sides.includes(s) && !this.plays(s));
      const noun = what === 'draw' ? 'a draw' : 'a rematch';
      if (ours.length && mine.length) {
        say(`You offered ${noun}.${waiting.length ? ` Waiting for ${this.namesOf(waiting)}.` : ''}`);
        return 'mine';
      }
      if (theirs.length) {
        const names = this.namesOf(theirs);
        const several = names.includes(' and ');
        say(what === 'draw' ? `${names} ${several ? 'offer' : 'offers'} a draw.` : `${names} ${several ? 'want' : 'wants'} a rematch.`);
        return 'theirs';
      }
      return null;
    };
    if (g.status === 'live') {
      const myIn = mine.filter((x) => this.sideIn(x));
      const canOffer = this.begun() && !this.allMine() && myIn.length > 0 && people.length === this.inSides().length;
      const drawState = canOffer || !mine.length ? offer(this.offers.draw, 'draw') : null;
      // a refusal, said to everyone who sees the game
      if (this.declined.length) {
        const byMe = this.declined.some((x) => this.plays(x)) && mine.length > 0;
        say(byMe ? 'You declined the draw.' : `${this.namesOf(this.declined)} declined the draw.`);
      }
      if (!mine.length) return;
      if (!myIn.length) {
        const names = mine.map((x) => this.hooks.sideName(x));
        say(`${names.join(' and ')} ${names.length > 1 ? 'are' : 'is'} out of the game; the others play on.`);
        return;
      }
      if (this.confirmResign) {
        const several = g.players.length > 2;
        const question = !this.begun() ? 'Leave this game? It has not begun, so it is called off.'
          : several ? `Resign ${myIn.length > 1 ? 'which kingdom' : this.hooks.sideName(myIn[0])}? A kingdom that resigns is out of the game; its allies play on.`
          : 'Resign this game?';
        this.buttons.append(h('span', { class: 'status', id: 'resign-question' }, question));
        if (several && myIn.length > 1)
          for (const x of myIn) this.buttons.append(button(`resign-yes-${x}`, `Resign ${this.hooks.sideName(x)}`, () => { this.confirmResign = false; this.ask('resign', x); this.drawOwn(); }, 'danger'));
        else
          this.buttons.append(button('resign-yes', 'Yes, resign', () => { this.confirmResign = false; this.ask('resign', several ? myIn[0] : undefined); this.drawOwn(); }, 'danger'));
        this.buttons.append(button('resign-no', 'No, play on', () => { this.confirmResign = false; this.drawOwn(); }));
        return;
      }
      // in its first moves either player may call the game off (the server's
      // ABORT_BEFORE moves a side, src/server/play/live.h), with no result
      if (this.begun() && g.ply < ABORT_BEFORE * g.players.length)
        this.buttons.append(button('abort', 'Abort', () => this.ask('abort')));
      this.buttons.append(button('resign', 'Resign', () => {
        this.confirmResign = true;
        this.refused = '';
        this.drawOwn();
        this.buttons.querySelector<HTMLElement>('button.danger')?.focus();
      }, 'danger'));
      if (canOffer && drawState !== 'mine') this.buttons.append(button('draw', drawState === 'theirs' ? 'Accept draw' : 'Offer draw', () => this.ask('draw')));
      if (drawState === 'theirs')
        this.buttons.append(button('draw-decline', 'Decline draw', () => {
          this.refused = '';
          socket.send({ type: 'draw', game: this.id, decline: true, ref: 'draw' });
        }));
      return;
    }
    // over
    const rematch = g.rematch;
    if (rematch) {
      this.offerBox.append(h('p', { class: 'panel play-offer' }, 'A rematch is being played: ', link(`/game/${rematch}`, 'go to the rematch'), '.'));
      return;
    }
    const state = offer(this.offers.rematch, 'rematch');
    if (mine.length && state !== 'mine')
      this.buttons.append(button('rematch', state === 'theirs' ? 'Accept rematch' : 'Rematch', () => {
        this.ask('rematch');
        // the server tells the others; this page knows already
        this.offers.rematch = [...new Set([...this.offers.rematch, ...mine])];
        this.drawOwn();
      }, 'primary'));
  }

  /** The shared words for why a game ended, naming who lost where one side did. */
  private reasonWords(r: Result, g: G): string {
    const own = this.hooks.reason?.(r, g);
    if (own) return own;
    const losers = r.winner < 0 ? [] : g.players.map((_, s) => s).filter((s) => this.teamOf(s) !== r.winner);
    const who = losers.length === 1 ? `${this.hooks.sideName(losers[0])} (${this.nameOf(losers[0])})` : '';
    if (who && (r.reason === 'resign' || r.reason === 'resigned')) return `${who} resigned`;
    if (who && (r.reason === 'time' || r.reason === 'timeout')) return `${who} ran out of time`;
    if (who && r.reason === 'abandoned') return `${who} left the game and their time to return ran out`;
    // the words the server may use for the shared reasons (docs/api.schema.json)
    const same: Record<string, string> = { resigned: 'resign', timeout: 'time', agreed: 'agreement' };
    return reasonText(same[r.reason] ?? r.reason);
  }

  private drawResult(): void {
    const g = this.game;
    this.resultBox.replaceChildren();
    const r = g?.result;
    if (!g || g.status !== 'over' || !r) return;
    const changes = (r.ratings ?? []).filter((x) => x.before !== x.after || g.rated);
    const aborted = r.reason === 'aborted';
    this.resultBox.append(h('div', { class: 'result' },
      h('h2', { tabindex: -1 }, aborted ? 'Game aborted' : this.hooks.headline(r, g)),
      aborted ? h('p', { class: 'hint' }, g.ply ? 'It was called off in its first moves: no result, no rating change.'
        : 'It ended before it began: no result, no rating change.') : null,
      h('p', { id: 'result-reason' }, this.reasonWords(r, g)),
      r.winner < 0 && r.sterile ? h('p', { class: 'hint' }, 'A sterile draw: neither side lost game material, so ratings do not change.') : null,
      changes.length ? h('ul', { class: 'rating-changes' }, ...changes.map((c) => {
        const d = Math.round(c.after - c.before);
        return h('li', {}, `${c.name}: ${Math.round(c.before)} → ${Math.round(c.after)} (${d >= 0 ? '+' : ''}${d})`);
      })) : null,
      h('p', {}, link(`/review/${this.id}`, 'Review this game'), ' · ',
        h('a', { href: `/api/games/${this.id}/record`, download: `citadel-${this.id}.pgn` }, 'Game record (.pgn)'), ' · ', link('/', 'New game'))));
  }

  private drawConn(): void {
    const open = socket.state === 'open';
    if (this.conn.hidden === open) return;
    this.conn.hidden = open;
    this.conn.textContent = open ? '' : 'Reconnecting to the server… The game goes on there: moves and clocks catch up when the connection is back.';
  }
}
