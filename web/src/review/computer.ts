// review/computer.ts -- the computer review of a finished game, run in the
// browser: the engine (engine/worker.ts) scores every position (Rampart's
// variants: the two-sided search to one depth; Stratego after the game: its
// strongest bot, every rank known, within a node budget; Keeps & Moats: the
// four-sided search, for the kingdom to move and for the one that just
// moved, whose worth before and after its move judges it; no graph, which
// has two ends), and from those scores each move is called best,
// good, an inaccuracy, a mistake or a blunder, with the better move shown;
// an evaluation graph under the board follows the game, and a click on it
// (or on a move named in the review) goes to that position.
//
// A signed-in player may also ask the server to run the same review (the
// same search, depth and table: src/server/review.h) and keep it with the
// game; a review kept is shown to everyone who opens the game, at once.
//
// A move's verdict is what it cost its player in winning chances, the
// curve lichess uses (1 / (1 + e^(-0.00368 cp))), before against after:
// 5 points an inaccuracy, 10 a mistake, 15 a blunder; the engine's own
// choice is "best". A forced win or loss counts as certain.

import { api, ReviewAnswer } from '../api';
import { Analyser } from '../engine/load';
import { BOT_REVIEW_NODES, MULTI_REVIEW_DEPTH, MULTI_REVIEW_NODES } from '../engine/budgets';
import type { How, Info } from '../engine/worker';
import { me } from '../session';
import { errorText, h, SIDE_TITLES } from '../ui';

const WIN = 32000;       // src/ai/search.h SEARCH_WIN
export const REVIEW_DEPTH = 6;

export type Verdict = 'best' | 'good' | 'inaccuracy' | 'mistake' | 'blunder';
type Scored = { side: number; score: number; best: string | null; prev?: number };

/** The chance the side to move wins, from its score. */
export function winChance(score: number): number {
  if (Math.abs(score) > WIN - 1000) return score > 0 ? 1 : 0;
  return 1 / (1 + Math.exp(-0.00368208 * score));
}

/** The verdict on `played`, the move from `before` to `after`, and what it
 *  cost. With two sides `after` is scored for the other side; with more,
 *  `after.prev` is what it is worth to the side that moved. */
export function verdictOf(before: Scored, after: Scored, played: string): { verdict: Verdict; loss: number } {
  const was = winChance(before.score);
  const now = after.prev !== undefined ? winChance(after.prev) : 1 - winChance(after.score);
  const loss = Math.max(0, was - now);
  if (before.best === played) return { verdict: 'best', loss };
  const verdict = loss >= 0.15 ? 'blunder' : loss >= 0.10 ? 'mistake' : loss >= 0.05 ? 'inaccuracy' : 'good';
  return { verdict, loss };
}

const WORDS: Record<Verdict, string> = {
  best: 'the best move', good: 'a good move', inaccuracy: 'an inaccuracy',
  mistake: 'a mistake', blunder: 'a blunder',
};
const SVG = 'http://www.w3.org/2000/svg';

export class ComputerReview {
  private scored: (Scored | null)[];
  private analyser = new Analyser();
  private panel: HTMLElement;
  private graph: SVGSVGElement;
  private ply = 0;

  private polling = 0;
  private kept: HTMLElement;
  private how: How;
  private sides: readonly string[];
  private game: number;

  /** opts.how: the search that scores (the two-sided search, or the game's
   *  own bot); opts.sides: the sides' names; opts.game: the game's id, for
   *  a review kept by the server (0: none is offered). */
  constructor(host: HTMLElement, private variant: string, private positions: string[],
    private moves: string[], private go: (ply: number) => void,
    opts: { how?: How; sides?: readonly string[]; game?: number } = {}) {
    this.how = opts.how ?? 'search';
    this.sides = opts.sides ?? SIDE_TITLES;
    this.game = opts.game ?? 0;
    this.scored = positions.map(() => null);
    const start = h('button', { type: 'button', id: 'cr-start', onclick: () => this.start() },
      'Computer review');
    this.kept = h('p', { class: 'hint', id: 'cr-kept', 'aria-live': 'polite' });
    const what = this.how === 'bot'
      ? `The strongest bot, in your browser, scores every position with every rank known (${BOT_REVIEW_NODES.toLocaleString('en')} nodes each).`
      : this.how === 'multi'
        ? `The four-sided search, in your browser, scores every position for the kingdom to move and for the one that just moved (depth ${MULTI_REVIEW_DEPTH}, ${MULTI_REVIEW_NODES.toLocaleString('en')} nodes).`
        : `The engine in your browser scores every position (depth ${REVIEW_DEPTH}).`;
    this.panel = h('div', { class: 'panel cr', id: 'cr' },
      h('p', {}, start, ' ', h('span', { class: 'hint' }, what)), this.game ? this.kept : '');
    this.graph = document.createElementNS(SVG, 'svg');
    this.graph.setAttribute('class', 'cr-graph');
    this.graph.setAttribute('id', 'cr-graph');
    this.graph.setAttribute('viewBox', `0 0 ${Math.max(1, positions.length - 1)} 100`);
    this.graph.setAttribute('preserveAspectRatio', 'none');
    this.graph.setAttribute('role', 'img');
    this.graph.setAttribute('aria-label', `Evaluation graph: ${this.sides[0]} above the middle line`);
    this.graph.addEventListener('click', (e) => {
      const r = this.graph.getBoundingClientRect();
      const ply = Math.round(((e.clientX - r.left) / r.width) * (this.positions.length - 1));
      this.go(Math.max(0, Math.min(this.positions.length - 1, ply)));
    });
    this.graph.style.display = 'none';
    host.append(this.graph, this.panel);
    if (this.game) void this.readKept();
  }

  /** The review kept with the game, if there is one: shown at once;
   *  otherwise a signed-in player is offered to have the server make it. */
  private async readKept(): Promise<void> {
    let r: ReviewAnswer;
    try {
      r = await api.review(this.game);
    } catch {
      return;  // the browser's own review is still there
    }
    this.onKept(r);
  }

  private onKept(r: ReviewAnswer): void {
    window.clearTimeout(this.polling);
    if (r.status === 'done' && r.positions.length === this.positions.length) {
      this.analyser.stop();
      this.scored = r.positions.map((p) => ({ side: p.side, score: p.score, best: p.best }));
      this.graph.style.display = '';
      this.finish(`Computer review, kept with the game (depth ${r.depth}${r.requested_by ? `, asked for by ${r.requested_by}` : ''})`);
      return;
    }
    const p = me();
    const ask = h('button', { type: 'button', id: 'cr-ask', onclick: () => void this.ask() },
      'Keep a review with the game');
    const words: Record<string, string> = {
      queued: r.place ? `The server will review this game: ${r.place === 1 ? 'next' : `number ${r.place} in its queue`}.`
        : 'The server will review this game.',
      running: `The server is reviewing this game: ${r.scored} of ${r.total} positions…`,
      failed: 'The server could not review this game.',
    };
    if (r.status === 'queued' || r.status === 'running') {
      this.kept.replaceChildren(words[r.status]);
      this.polling = window.setTimeout(() => void this.readKept(), 1000);
    } else if (p && !p.guest) {
      this.kept.replaceChildren(...(r.status === 'failed' ? [words.failed, ' '] : []), ask, ' ',
        h('span', {}, 'The server reviews it for everyone who opens this game.'));
    } else {
      this.kept.replaceChildren(r.status === 'failed' ? words.failed : 'Sign in to have the server keep a review with the game.');
    }
  }

  private async ask(): Promise<void> {
    try {
      this.onKept(await api.askReview(this.game));
    } catch (e) {
      this.kept.replaceChildren(h('span', { class: 'error' }, errorText(e)));
    }
  }

  private start(): void {
    this.panel.replaceChildren(h('p', { class: 'status', id: 'cr-progress', 'aria-live': 'polite' },
      `Reviewing: 0 of ${this.positions.length} positions…`));
    this.graph.style.display = this.sides.length === 2 ? '' : 'none';  // a graph has two ends
    this.analyser.onInfo = (info: Info) => this.onInfo(info);
    void this.analyser.review(this.variant, this.positions, this.how === 'multi' ? MULTI_REVIEW_DEPTH : REVIEW_DEPTH, this.how);
  }

  private onInfo(info: Info): void {
    if (info.kind === 'position') {
      this.scored[info.index] = { side: info.side, score: info.score, best: info.best, prev: info.prev };
      const n = this.scored.filter((s) => s).length;
      const p = this.panel.querySelector('#cr-progress');
      if (p) p.textContent = `Reviewing: ${n} of ${this.positions.length} positions…`;
      this.drawGraph();
    } else if (info.kind === 'done') {
      this.finish();
    } else if (info.kind === 'error') {
      this.panel.replaceChildren(h('p', { class: 'error' }, `The review stopped: ${info.error}`));
    }
  }

  /** Bottom's winning chance after each ply, as far as scored. */
  private bottomChances(): (number | null)[] {
    return this.scored.map((s) => (s ? (s.side === 0 ? winChance(s.score) : 1 - winChance(s.score)) : null));
  }

  private drawGraph(): void {
    const pts = this.bottomChances().map((c, i) => (c === null ? null : `${i},${(100 - c * 100).toFixed(1)}`))
      .filter((p) => p) as string[];
    const el = (name: string, attrs: Record<string, string>) => {
      const e = document.createElementNS(SVG, name);
      for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
      return e;
    };
    const w = String(Math.max(1, this.positions.length - 1));
    this.graph.replaceChildren(
      el('rect', { x: '0', y: '0', width: w, height: '100', class: 'cr-top' }),
      el('polygon', { points: `0,100 ${pts.join(' ')} ${pts.length ? pts[pts.length - 1].split(',')[0] : 0},100`, class: 'cr-bottom' }),
      el('line', { x1: '0', y1: '50', x2: w, y2: '50', class: 'cr-mid' }),
      el('line', { x1: String(this.ply), y1: '0', x2: String(this.ply), y2: '100', class: 'cr-now' }));
  }

  /** Each move's verdict, once both its positions are scored. */
  private verdicts(): ({ verdict: Verdict; loss: number; side: number; better: string | null } | null)[] {
    return this.moves.map((m, i) => {
      const a = this.scored[i], b = this.scored[i + 1];
      if (!a || !b) return null;
      return { ...verdictOf(a, b, m), side: a.side, better: a.best };
    });
  }

  private finish(title = 'Computer review'): void {
    const v = this.verdicts();
    const rows = this.sides.map((_, side) => {
      const count = (k: Verdict) => v.filter((x) => x && x.side === side && x.verdict === k).length;
      const n = (k: Verdict, one: string, many: string) => `${count(k)} ${count(k) === 1 ? one : many}`;
      return h('li', { 'data-side': side }, `${this.sides[side]}: ${n('inaccuracy', 'inaccuracy', 'inaccuracies')}, ` +
        `${n('mistake', 'mistake', 'mistakes')}, ${n('blunder', 'blunder', 'blunders')}`);
    });
    const bad = v.map((x, i) => ({ x, i })).filter(({ x }) => x && ['inaccuracy', 'mistake', 'blunder'].includes(x.verdict));
    const list = h('ul', { class: 'cr-list', id: 'cr-list' }, ...bad.map(({ x, i }) =>
      h('li', { class: `cr-${x!.verdict}` }, h('button', { type: 'button', class: 'mv', onclick: () => this.go(i + 1) },
        `${this.moves[i]}`), ` ${this.sides[x!.side]}: ${WORDS[x!.verdict]}${x!.better ? `; better ${x!.better}` : ''}`)));
    this.panel.replaceChildren(h('p', { class: 'status', id: 'cr-done' }, title),
      h('ul', { class: 'cr-summary', id: 'cr-summary' }, ...rows),
      h('p', { class: 'cr-move', id: 'cr-move', 'aria-live': 'polite' }),
      bad.length ? list : h('p', {}, 'No inaccuracies: every move kept its player\'s chances.'));
    this.show(this.ply);
  }

  /** The position after `ply` moves is shown: the graph's marker, and the verdict on its move. */
  show(ply: number): void {
    this.ply = ply;
    if (this.graph.style.display !== 'none') this.drawGraph();
    const line = this.panel.querySelector('#cr-move');
    if (!line) return;
    const x = ply > 0 ? this.verdicts()[ply - 1] : null;
    line.textContent = !x ? 'The start: no move to judge.'
      : `${this.moves[ply - 1]} by ${this.sides[x.side]}: ${WORDS[x.verdict]}` +
        (x.verdict !== 'best' && x.better ? `; the engine prefers ${x.better}.` : '.');
  }

  destroy(): void {
    this.analyser.stop();
    window.clearTimeout(this.polling);
  }
}
