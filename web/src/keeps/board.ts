// keeps/board.ts -- the 145-square Keeps & Moats board in SVG: the 9x9
// Battlefield, each kingdom's Moat and stepped Keep tinted in its colour, the
// Thrones marked, pieces as chess symbols in their kingdom's colour.
//
// It only shows things and reports what a person chose: the legal moves come
// from the server (setLegal), and choosing a piece then a target (click, drag,
// or the keyboard: arrows, Enter/Space, Escape) calls onMove with every legal
// move from that square to that one: more than one when a Pawn entering an
// enemy Keep has a choice to make (K5), which the game page asks about.

import { svgEl } from '../stratego/pieces';
import { ALL_SQUARES, KINGDOMS, Position, SIZE, THRONES, areaOf, exists, parseMove, parseSquare, pieceName, squareName } from './notation';

const S = 100; // one square, in SVG units

/** Filled chess symbols; U+FE0E asks for the text form, never an emoji. */
const GLYPHS: Record<string, string> = { K: '♚', Q: '♛', R: '♜', B: '♝', N: '♞', P: '♟', C: '♟' };

let boardCount = 0;

export class KeepsBoard {
  onMove: ((moves: string[]) => void) | null = null;

  private svg: SVGSVGElement;
  private wrap: HTMLDivElement;
  private live: HTMLElement;
  private layers: { squares: SVGGElement; marks: SVGGElement; pieces: SVGGElement; focus: SVGGElement };
  private pos: Position | null = null;
  private viewer = 0; // the kingdom drawn at the bottom
  private legal: string[] = [];
  private last: string[] = [];
  private selected: string | null = null;
  private focusSq = 'i9';
  private keyboard = false;
  private dragFrom: string | null = null;
  private id = `kmboard${++boardCount}`;
  private listeners: [EventTarget, string, EventListener][] = [];

  constructor(host: HTMLElement, opts: { size?: 'large' | 'small'; label?: string } = {}) {
    this.wrap = document.createElement('div');
    this.wrap.className = `board km-board board-${opts.size ?? 'large'}`;
    this.wrap.style.setProperty('--board-ratio', '1 / 1');
    this.svg = svgEl('svg', { role: 'application', tabindex: 0, 'aria-label': opts.label ?? 'Keeps & Moats board', 'aria-roledescription': 'board', viewBox: `0 0 ${SIZE * S} ${SIZE * S}` });
    this.layers = { squares: svgEl('g'), marks: svgEl('g', { 'pointer-events': 'none' }), pieces: svgEl('g', { 'pointer-events': 'none' }), focus: svgEl('g', { 'pointer-events': 'none' }) };
    for (const l of Object.values(this.layers)) this.svg.appendChild(l);
    // what the keyboard focus is on, read out by screen readers
    this.live = document.createElement('p');
    this.live.className = 'km-sr';
    this.live.setAttribute('aria-live', 'polite');
    this.live.id = `${this.id}-live`;
    this.wrap.append(this.svg, this.live);
    host.appendChild(this.wrap);
    if (opts.size === 'small') this.svg.setAttribute('tabindex', '-1');

    this.listen(this.svg, 'pointerdown', (e) => this.pointerDown(e as PointerEvent));
    this.listen(window, 'pointerup', (e) => this.pointerUp(e as PointerEvent));
    this.listen(this.svg, 'keydown', (e) => this.keyDown(e as KeyboardEvent));
    this.listen(this.svg, 'focus', () => { this.keyboard = true; this.drawFocus(); });
    this.listen(this.svg, 'blur', () => { this.keyboard = false; this.drawFocus(); });
    this.drawSquares();
  }

  setPosition(p: Position): void {
    this.pos = p;
    this.drawSquares();
    this.drawPieces();
    this.drawMarks();
  }

  setViewer(kingdom: number): void {
    if (kingdom === this.viewer) return;
    this.viewer = kingdom;
    this.drawSquares();
    this.drawPieces();
    this.drawMarks();
    this.drawFocus();
  }

  setLegal(moves: string[]): void {
    this.legal = moves.slice();
    if (this.selected && !this.targetsOf(this.selected).length) this.selected = null;
    this.svg.classList.toggle('can-move', this.legal.length > 0);
    this.drawMarks();
  }

  setLast(squares: string[]): void {
    this.last = squares.slice();
    this.drawMarks();
  }

  destroy(): void {
    for (const [t, type, fn] of this.listeners) t.removeEventListener(type, fn);
    this.wrap.remove();
  }

  // ---- geometry: the viewer's kingdom at the bottom ----

  /** Where a square is drawn, in squares from the top left. */
  private place(f: number, r: number): [number, number] {
    const x = f, y = SIZE - 1 - r; // White at the bottom
    switch (this.viewer) {
      case 1: return [SIZE - 1 - y, SIZE - 1 - x]; // Red (west) at the bottom
      case 2: return [SIZE - 1 - x, SIZE - 1 - y];
      case 3: return [y, x]; // Blue (east) at the bottom
      default: return [x, y];
    }
  }

  /** The square drawn at a screen cell, if any. */
  private at(cx: number, cy: number): string | null {
    for (const sq of ALL_SQUARES) {
      const [f, r] = parseSquare(sq)!;
      const [x, y] = this.place(f, r);
      if (x === cx && y === cy) return sq;
    }
    return null;
  }

  private xy(sq: string): [number, number] {
    const [f, r] = parseSquare(sq)!;
    const [x, y] = this.place(f, r);
    return [x * S, y * S];
  }

  // ---- drawing ----

  private drawSquares(): void {
    const g = this.layers.squares;
    g.replaceChildren();
    for (const sq of ALL_SQUARES) {
      const [f, r] = parseSquare(sq)!;
      const [x, y] = this.xy(sq);
      const area = areaOf(sq);
      const cls = area ? `km-${area.part} km-k${area.kingdom}` : (f + r) % 2 ? 'sq-light' : 'sq-dark';
      const cell = svgEl('g', { 'data-square': sq, 'aria-label': this.label(sq) });
      cell.appendChild(svgEl('rect', { x, y, width: S, height: S, class: `km-sq ${cls}` }));
      if (THRONES.includes(sq)) cell.appendChild(svgEl('rect', { x: x + 8, y: y + 8, width: S - 16, height: S - 16, rx: 10, class: 'km-throne' }));
      g.appendChild(cell);
    }
    // edges of each Keep (solid) and Moat (dashed), so the steps show
    for (const sq of ALL_SQUARES) {
      const a = areaOf(sq);
      const [f, r] = parseSquare(sq)!;
      const [x, y] = this.xy(sq);
      for (const [df, dr] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
        const n = exists(f + df, r + dr) ? squareName(f + df, r + dr) : null;
        const b = n ? areaOf(n) : null;
        const same = n && ((a === null && b === null) || (a && b && a.kingdom === b.kingdom && a.part === b.part));
        if (same || (!a && !n)) continue;
        const [nx, ny] = this.place(f + df, r + dr);
        const dx = nx * S - x, dy = ny * S - y; // which side of the square the neighbour is on
        const line = dx ? { x1: x + (dx > 0 ? S : 0), x2: x + (dx > 0 ? S : 0), y1: y, y2: y + S } : { x1: x, x2: x + S, y1: y + (dy > 0 ? S : 0), y2: y + (dy > 0 ? S : 0) };
        g.appendChild(svgEl('line', { ...line, class: 'km-edge' }));
      }
    }
    // coordinates along the outer squares: files under row 1's side, rows beside
    this.drawCoords();
  }

  private drawCoords(): void {
    const g = this.layers.squares;
    for (let i = 0; i < SIZE; i++) {
      // the file letter on each file's lowest square as seen, the row number on each row's leftmost
      const file = String.fromCharCode(97 + i);
      const sqs = ALL_SQUARES.filter((s) => s[0] === file);
      const rowSqs = ALL_SQUARES.filter((s) => Number(s.slice(1)) === i + 1);
      const pick = (list: string[], key: (xy: [number, number]) => number) => list.reduce((a, b) => (key(this.xy(b)) > key(this.xy(a)) ? b : a));
      for (const [sq, text, corner] of [[pick(sqs, ([, y]) => y), file, 'br'], [pick(rowSqs, ([x]) => -x), String(i + 1), 'tl']] as const) {
        const [x, y] = this.xy(sq);
        const t = svgEl('text', { x: corner === 'br' ? x + S - 8 : x + 6, y: corner === 'br' ? y + S - 8 : y + 22, class: 'km-coord', 'text-anchor': corner === 'br' ? 'end' : 'start' });
        t.textContent = text;
        g.appendChild(t);
      }
    }
  }

  private drawPieces(): void {
    const g = this.layers.pieces;
    g.replaceChildren();
    if (!this.pos) return;
    const frozen = this.pos.kingResult === 'frozen';
    for (const [sq, p] of this.pos.board) {
      const [x, y] = this.xy(sq);
      const piece = svgEl('g', { class: `km-piece km-p${p.kingdom}${frozen && this.pos.out.includes(p.kingdom) ? ' km-frozen' : ''}`, 'data-piece': `${sq}` });
      const t = svgEl('text', { x: x + S / 2, y: y + S * 0.8, 'text-anchor': 'middle', class: 'km-glyph' });
      t.textContent = GLYPHS[p.kind] + '\uFE0E';
      piece.appendChild(t);
      if (p.kind === 'C') {
        // the Castle Pawn: a Pawn with a small tower badge
        piece.appendChild(svgEl('rect', { x: x + S - 36, y: y + 6, width: 30, height: 30, rx: 6, class: 'km-badge' }));
        const c = svgEl('text', { x: x + S - 21, y: y + 30, 'text-anchor': 'middle', class: 'km-badge-text' });
        c.textContent = 'C';
        piece.appendChild(c);
      }
      g.appendChild(piece);
    }
    for (const cell of this.layers.squares.querySelectorAll('[data-square]')) cell.setAttribute('aria-label', this.label(cell.getAttribute('data-square')!));
  }

  private drawMarks(): void {
    const g = this.layers.marks;
    g.replaceChildren();
    const rect = (sq: string, cls: string, inset = 0) => {
      const [x, y] = this.xy(sq);
      g.appendChild(svgEl('rect', { x: x + inset, y: y + inset, width: S - 2 * inset, height: S - 2 * inset, class: cls }));
    };
    for (const sq of this.last) if (parseSquare(sq)) rect(sq, 'mark-last');
    if (this.selected) {
      rect(this.selected, 'mark-selected');
      for (const t of this.targetsOf(this.selected)) {
        if (this.pos?.board.get(t)) rect(t, 'mark-target-capture', 6);
        else {
          const [x, y] = this.xy(t);
          g.appendChild(svgEl('circle', { cx: x + S / 2, cy: y + S / 2, r: 16, class: 'mark-target' }));
        }
      }
    }
    for (const cell of this.layers.squares.querySelectorAll('[data-square]')) cell.setAttribute('aria-label', this.label(cell.getAttribute('data-square')!));
    this.drawFocus();
  }

  private drawFocus(): void {
    const g = this.layers.focus;
    g.replaceChildren();
    if (!this.keyboard) return;
    const [x, y] = this.xy(this.focusSq);
    g.appendChild(svgEl('rect', { x: x + 3, y: y + 3, width: S - 6, height: S - 6, class: 'mark-focus' }));
  }

  /** "i2, White King", with what a click there would do. */
  label(sq: string): string {
    const p = this.pos?.board.get(sq);
    const a = areaOf(sq);
    let s = `${sq}, ${p ? pieceName(p) : 'empty'}`;
    if (a) s += ` (${KINGDOMS[a.kingdom]} ${a.part === 'moat' ? 'Moat' : 'Keep'})`;
    if (this.selected === sq) s += ', selected';
    else if (this.selected && this.targetsOf(this.selected).includes(sq)) s += ', can move here';
    else if (this.movesFrom(sq).length) s += ', can move';
    return s;
  }

  // ---- choosing a move ----

  private movesFrom(sq: string): string[] {
    return this.legal.filter((m) => { const p = parseMove(m); return !!p && p !== 'pass' && p.from === sq; });
  }

  private targetsOf(sq: string): string[] {
    const out = new Set<string>();
    for (const m of this.movesFrom(sq)) { const p = parseMove(m); if (p && p !== 'pass') out.add(p.to); }
    return [...out];
  }

  /** A square chosen by click, drag's end or Enter: select, move, or let go. */
  private choose(sq: string): void {
    if (this.selected && this.targetsOf(this.selected).includes(sq)) {
      const moves = this.movesFrom(this.selected).filter((m) => { const p = parseMove(m); return p && p !== 'pass' && p.to === sq; });
      this.selected = null;
      this.drawMarks();
      this.onMove?.(moves);
      return;
    }
    this.selected = this.movesFrom(sq).length && this.selected !== sq ? sq : null;
    this.drawMarks();
  }

  private squareAt(e: PointerEvent): string | null {
    const pt = this.svg.createSVGPoint();
    pt.x = e.clientX;
    pt.y = e.clientY;
    const m = this.svg.getScreenCTM();
    if (!m) return null;
    const p = pt.matrixTransform(m.inverse());
    return this.at(Math.floor(p.x / S), Math.floor(p.y / S));
  }

  private pointerDown(e: PointerEvent): void {
    if (e.button !== 0 || !this.legal.length) return;
    const sq = this.squareAt(e);
    if (!sq) return;
    this.keyboard = false;
    this.focusSq = sq;
    if (this.selected && this.targetsOf(this.selected).includes(sq)) {
      this.choose(sq);
      return;
    }
    this.dragFrom = this.movesFrom(sq).length ? sq : null;
    this.choose(sq);
    if (this.dragFrom && !this.selected) this.selected = this.dragFrom; // a second press on the same piece keeps it for the drag
    this.drawMarks();
    e.preventDefault();
  }

  /** A drag ends on a target: that is the move. */
  private pointerUp(e: PointerEvent): void {
    const from = this.dragFrom;
    this.dragFrom = null;
    if (!from) return;
    const sq = this.squareAt(e);
    if (sq && sq !== from && this.selected === from && this.targetsOf(from).includes(sq)) this.choose(sq);
  }

  private keyDown(e: KeyboardEvent): void {
    const dirs: Record<string, [number, number]> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (dirs[e.key]) {
      e.preventDefault();
      const [f, r] = parseSquare(this.focusSq)!;
      let [x, y] = this.place(f, r);
      // step over holes until a square or the edge
      for (let i = 0; i < SIZE; i++) {
        x += dirs[e.key][0];
        y += dirs[e.key][1];
        if (x < 0 || y < 0 || x >= SIZE || y >= SIZE) break;
        const sq = this.at(x, y);
        if (sq) { this.focusSq = sq; break; }
      }
      this.keyboard = true;
      this.drawFocus();
      this.live.textContent = this.label(this.focusSq);
    } else if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      this.choose(this.focusSq);
      this.live.textContent = this.label(this.focusSq);
    } else if (e.key === 'Escape' && this.selected) {
      this.selected = null;
      this.drawMarks();
    }
  }

  private listen(t: EventTarget, type: string, fn: EventListener): void {
    t.addEventListener(type, fn);
    this.listeners.push([t, type, fn]);
  }
}
