// stratego/board.ts -- the 10x10 Stratego board in SVG, with its two lakes.
//
// Like the Rampart board (web/src/board.ts) it only shows things and reports
// what a person chose; the server decides what is legal. Two modes:
// - play: setLegal(moves) from the server; a click on a piece then a target,
//   a drag, or the keyboard (arrows, Enter/Space, Escape) gives onMove(move);
// - swap (the setup screen): setSwappable(squares); choosing one piece then
//   another gives onSwap(a, b).
// hide() takes every piece off the screen (the pass-the-device cover); the
// next setView draws them again.

import { Cell, LAKES, Piece, SIZE, View, indexName, moveSquares, parseSquare, pieceName, squareIndex, squareName } from './notation';
import { pieceTile, svgEl } from './pieces';

const S = 100; // one square, in SVG units

export type MarkKind = 'last' | 'combat';

let boardCount = 0;

export class StrategoBoard {
  onMove: ((move: string) => void) | null = null;
  onSwap: ((a: string, b: string) => void) | null = null;

  private wrap: HTMLDivElement;
  private svg: SVGSVGElement;
  private layers: { squares: SVGGElement; under: SVGGElement; pieces: SVGGElement; over: SVGGElement; drag: SVGGElement };
  private view: View | null = null;
  private hidden = false;
  private flipped = false;
  private legal: string[] = [];
  private swappable: string[] = [];
  private marks = new Map<MarkKind, string[]>();
  private selected: string | null = null;
  private focusSq: string | null = null;
  private keyboard = false;
  private id = `stboard${++boardCount}`;
  private drag: { from: string; ghost: SVGGElement; moved: boolean; startX: number; startY: number; wasSelected: boolean } | null = null;
  private listeners: [EventTarget, string, EventListener][] = [];

  constructor(host: HTMLElement, opts: { size?: 'large' | 'small'; label?: string } = {}) {
    this.wrap = document.createElement('div');
    this.wrap.className = `board st-board board-${opts.size ?? 'large'}`;
    this.wrap.style.setProperty('--board-ratio', '1 / 1');
    this.svg = svgEl('svg', { role: 'grid', tabindex: 0, 'aria-label': opts.label ?? 'Stratego board', viewBox: `0 0 ${SIZE * S} ${SIZE * S}` });
    this.layers = {
      squares: svgEl('g'),
      under: svgEl('g', { 'aria-hidden': 'true' }),
      pieces: svgEl('g', { 'aria-hidden': 'true', class: 'st-pieces' }),
      over: svgEl('g', { 'aria-hidden': 'true', 'pointer-events': 'none' }),
      drag: svgEl('g', { 'aria-hidden': 'true', 'pointer-events': 'none' }),
    };
    for (const l of Object.values(this.layers)) this.svg.appendChild(l);
    this.wrap.appendChild(this.svg);
    host.appendChild(this.wrap);
    this.drawSquares();

    this.listen(this.svg, 'pointerdown', (e) => this.pointerDown(e as PointerEvent));
    this.listen(window, 'pointermove', (e) => this.pointerMove(e as PointerEvent));
    this.listen(window, 'pointerup', (e) => this.pointerUp(e as PointerEvent));
    this.listen(this.svg, 'keydown', (e) => this.keyDown(e as KeyboardEvent));
    this.listen(this.svg, 'focus', () => this.ensureFocus());
    this.listen(this.svg, 'blur', () => this.drawMarks());
  }

  setView(v: View): void {
    this.view = v;
    this.hidden = false;
    if (this.selected && !this.targetsOf(this.selected).length) this.selected = null;
    this.drawPieces();
    this.drawMarks();
  }

  /** Takes every piece and mark off the board until the next setView. */
  hide(): void {
    this.hidden = true;
    this.view = null;
    this.selected = null;
    this.legal = [];
    this.swappable = [];
    this.marks.clear();
    this.svg.classList.remove('can-move');
    this.drawPieces();
    this.drawMarks();
  }

  setLegal(moves: string[]): void {
    this.legal = moves.slice();
    this.swappable = [];
    if (this.selected && !this.targetsOf(this.selected).length) this.selected = null;
    this.svg.classList.toggle('can-move', this.legal.length > 0);
    this.drawMarks();
  }

  setSwappable(squares: string[]): void {
    this.swappable = squares.slice();
    this.legal = [];
    this.svg.classList.toggle('can-move', squares.length > 0);
    this.drawMarks();
  }

  mark(squares: string[], kind: MarkKind): void {
    this.marks.set(kind, squares.filter((s) => parseSquare(s)));
    this.drawMarks();
  }

  clearMarks(): void {
    this.marks.clear();
    this.drawMarks();
  }

  setFlipped(f: boolean): void {
    if (f === this.flipped) return;
    this.flipped = f;
    this.drawSquares();
    this.drawPieces();
    this.drawMarks();
  }

  /** Shows only the rectangle between two corner squares (teaching diagrams). */
  crop(a: string, b: string): void {
    const [ax, ay] = this.xy(a);
    const [bx, by] = this.xy(b);
    const x = Math.min(ax, bx);
    const y = Math.min(ay, by);
    const w = Math.abs(ax - bx) + S;
    const hgt = Math.abs(ay - by) + S;
    this.svg.setAttribute('viewBox', `${x} ${y} ${w} ${hgt}`);
    this.wrap.style.setProperty('--board-ratio', `${w} / ${hgt}`);
  }

  isFlipped(): boolean {
    return this.flipped;
  }

  destroy(): void {
    for (const [t, type, fn] of this.listeners) t.removeEventListener(type, fn);
    this.listeners = [];
    this.wrap.remove();
  }

  // ---- geometry ----

  private listen(t: EventTarget, type: string, fn: EventListener): void {
    t.addEventListener(type, fn);
    this.listeners.push([t, type, fn]);
  }

  private cell(name: string): Cell {
    if (!this.view) return LAKES.includes(name) ? 'lake' : null;
    return this.view.cells[squareIndex(name)] ?? null;
  }

  private pieceOn(name: string): Piece | null {
    const c = this.cell(name);
    return c && c !== 'lake' ? c : null;
  }

  /** Top-left corner of a square in SVG units. Flipped is Blue's view: row 10
   *  at the bottom and file j on the left, as Blue sits. */
  private xy(name: string): [number, number] {
    const sq = parseSquare(name)!;
    const col = this.flipped ? SIZE - 1 - sq.file : sq.file;
    const line = this.flipped ? sq.row : SIZE - 1 - sq.row;
    return [col * S, line * S];
  }

  private at(col: number, line: number): string | null {
    if (col < 0 || line < 0 || col >= SIZE || line >= SIZE) return null;
    const file = this.flipped ? SIZE - 1 - col : col;
    const row = this.flipped ? line : SIZE - 1 - line;
    return squareName(file, row);
  }

  private svgPoint(e: { clientX: number; clientY: number }): [number, number] {
    const m = this.svg.getScreenCTM();
    if (!m) return [-1, -1];
    const pt = new DOMPoint(e.clientX, e.clientY).matrixTransform(m.inverse());
    return [pt.x, pt.y];
  }

  private squareFromEvent(e: { clientX: number; clientY: number }): string | null {
    const [x, y] = this.svgPoint(e);
    return this.at(Math.floor(x / S), Math.floor(y / S));
  }

  private targetsOf(from: string): string[] {
    if (this.swappable.length) return this.swappable.includes(from) ? this.swappable.filter((s) => s !== from) : [];
    const out: string[] = [];
    for (const mv of this.legal) {
      const [f, t] = moveSquares(mv);
      if (f === from) out.push(t);
    }
    return out;
  }

  private moveText(from: string, to: string): string | null {
    for (const mv of this.legal) {
      const [f, t] = moveSquares(mv);
      if (f === from && t === to) return mv;
    }
    return null;
  }

  // ---- drawing ----

  private drawSquares(): void {
    const layer = this.layers.squares;
    layer.replaceChildren();
    for (let line = 0; line < SIZE; line++) {
      const rowG = svgEl('g', { role: 'row' });
      for (let col = 0; col < SIZE; col++) {
        const name = this.at(col, line)!;
        const s = parseSquare(name)!;
        const lake = LAKES.includes(name);
        const cell = svgEl('g', { role: 'gridcell', id: `${this.id}-${name}`, 'data-square': name });
        cell.appendChild(svgEl('rect', { x: col * S, y: line * S, width: S, height: S, class: lake ? 'st-lake' : (s.file + s.row) % 2 ? 'st-sq-light' : 'st-sq-dark' }));
        if (col === 0) {
          const t = svgEl('text', { x: col * S + 4, y: line * S + 18, class: 'coord' });
          t.textContent = String(s.row + 1);
          cell.appendChild(t);
        }
        if (line === SIZE - 1) {
          const t = svgEl('text', { x: col * S + S - 5, y: line * S + S - 5, class: 'coord', 'text-anchor': 'end' });
          t.textContent = name[0];
          cell.appendChild(t);
        }
        rowG.appendChild(cell);
      }
      layer.appendChild(rowG);
    }
    // the two lakes as single shapes over their four squares
    for (const corner of ['c6', 'g6']) {
      const s = parseSquare(corner)!;
      const names = [corner, squareName(s.file + 1, s.row), squareName(s.file, s.row - 1), squareName(s.file + 1, s.row - 1)];
      const xs = names.map((n) => this.xy(n));
      const x = Math.min(...xs.map((p) => p[0]));
      const y = Math.min(...xs.map((p) => p[1]));
      layer.appendChild(svgEl('rect', { x: x + 6, y: y + 6, width: 2 * S - 12, height: 2 * S - 12, rx: 40, class: 'st-lake-water', 'aria-hidden': 'true', 'pointer-events': 'none' }));
    }
  }

  private drawPieces(): void {
    const layer = this.layers.pieces;
    layer.replaceChildren();
    if (!this.view || this.hidden) return;
    this.view.cells.forEach((c, i) => {
      if (!c || c === 'lake') return;
      const name = indexName(i);
      if (this.drag?.moved && this.drag.from === name) return;
      const [x, y] = this.xy(name);
      const g = pieceTile(c, x + 4, y + 4, S - 8);
      g.setAttribute('data-piece', name);
      layer.appendChild(g);
    });
  }

  private label(name: string): string {
    const c = this.cell(name);
    let text: string;
    if (c === 'lake') return `${name}, lake`;
    if (!c) text = `${name}, empty`;
    else {
      text = `${name}, ${pieceName(c)}`;
      if (c.kind === 'X') text += c.scout ? ', unknown, known to be a Scout' : c.moved ? ', unknown, has moved' : ', unknown';
      else if (c.revealed) text += ', revealed';
    }
    if (this.selected === name) text += ', selected';
    else if (this.selected && this.targetsOf(this.selected).includes(name)) text += this.swappable.length ? ', can swap here' : ', can move here';
    if ((this.marks.get('last') ?? []).includes(name)) text += ', last move';
    if ((this.marks.get('combat') ?? []).includes(name)) text += ', combat';
    return text;
  }

  private drawMarks(): void {
    const under = this.layers.under;
    const over = this.layers.over;
    under.replaceChildren();
    over.replaceChildren();
    const rect = (layer: SVGGElement, name: string, cls: string, inset = 0) => {
      const [x, y] = this.xy(name);
      layer.appendChild(svgEl('rect', { x: x + inset, y: y + inset, width: S - 2 * inset, height: S - 2 * inset, class: cls }));
    };
    for (const n of this.marks.get('last') ?? []) rect(under, n, 'mark-last');
    for (const n of this.marks.get('combat') ?? []) rect(over, n, 'st-mark-combat', 3);
    if (this.selected) {
      rect(under, this.selected, 'mark-selected');
      for (const t of this.targetsOf(this.selected)) {
        const [x, y] = this.xy(t);
        if (this.pieceOn(t)) over.appendChild(svgEl('circle', { cx: x + S / 2, cy: y + S / 2, r: S / 2 - 5, class: 'mark-target-capture' }));
        else over.appendChild(svgEl('circle', { cx: x + S / 2, cy: y + S / 2, r: 14, class: 'mark-target' }));
      }
    }
    if (this.focusSq && this.keyboard && document.activeElement === this.svg) rect(over, this.focusSq, 'mark-focus', 2);
    for (const cell of this.layers.squares.querySelectorAll<SVGGElement>('[data-square]')) {
      cell.setAttribute('aria-label', this.label(cell.dataset.square!));
    }
    if (this.focusSq) this.svg.setAttribute('aria-activedescendant', `${this.id}-${this.focusSq}`);
  }

  // ---- choosing ----

  private canAct(): boolean {
    return !this.hidden && (this.legal.length > 0 || this.swappable.length > 0);
  }

  private choose(name: string): void {
    if (this.selected && this.selected !== name && this.targetsOf(this.selected).includes(name)) {
      this.finish(this.selected, name);
      return;
    }
    this.selected = this.selected === name ? null : this.targetsOf(name).length ? name : null;
    this.drawMarks();
  }

  private finish(from: string, to: string): void {
    this.selected = null;
    if (this.swappable.length) {
      this.drawMarks();
      this.onSwap?.(from, to);
      return;
    }
    const mv = this.moveText(from, to);
    if (!mv) return;
    this.legal = [];
    this.svg.classList.remove('can-move');
    this.mark([from, to], 'last');
    this.onMove?.(mv);
  }

  private pointerDown(e: PointerEvent): void {
    this.keyboard = false;
    if (e.button !== 0 || !this.canAct()) return;
    const name = this.squareFromEvent(e);
    if (!name) return;
    e.preventDefault();
    this.svg.focus({ preventScroll: true });
    this.focusSq = name;
    if (this.selected && this.selected !== name && this.targetsOf(this.selected).includes(name)) {
      this.finish(this.selected, name);
      return;
    }
    const pc = this.pieceOn(name);
    if (!pc || !this.targetsOf(name).length) {
      this.selected = null;
      this.drawMarks();
      return;
    }
    const ghost = pieceTile(pc, 0, 0, S - 8);
    ghost.classList.add('dragging');
    this.drag = { from: name, ghost, moved: false, startX: e.clientX, startY: e.clientY, wasSelected: this.selected === name };
    this.selected = name;
    this.drawMarks();
  }

  private pointerMove(e: PointerEvent): void {
    const d = this.drag;
    if (!d) return;
    if (!d.moved && Math.hypot(e.clientX - d.startX, e.clientY - d.startY) < 6) return;
    if (!d.moved) {
      d.moved = true;
      this.layers.drag.appendChild(d.ghost);
      this.drawPieces();
    }
    const [x, y] = this.svgPoint(e);
    d.ghost.setAttribute('transform', `translate(${x - (S - 8) / 2} ${y - (S - 8) / 2}) scale(${(S - 8) / 100})`);
  }

  private pointerUp(e: PointerEvent): void {
    const d = this.drag;
    if (!d) return;
    this.drag = null;
    d.ghost.remove();
    const to = this.squareFromEvent(e);
    if (d.moved) {
      this.drawPieces();
      if (to && to !== d.from && this.targetsOf(d.from).includes(to)) this.finish(d.from, to);
      else this.drawMarks();
      return;
    }
    if (d.wasSelected && to === d.from) this.selected = null;
    this.drawMarks();
  }

  private ensureFocus(): void {
    if (!this.focusSq) {
      const first = this.legal.length ? moveSquares(this.legal[0])[0] : this.swappable[0];
      this.focusSq = first || 'e4';
    }
    this.drawMarks();
  }

  private keyDown(e: KeyboardEvent): void {
    this.keyboard = true;
    this.ensureFocus();
    const [x, y] = this.xy(this.focusSq!);
    let col = x / S;
    let line = y / S;
    switch (e.key) {
      case 'ArrowLeft': col--; break;
      case 'ArrowRight': col++; break;
      case 'ArrowUp': line--; break;
      case 'ArrowDown': line++; break;
      case 'Enter':
      case ' ':
        e.preventDefault();
        if (this.canAct()) this.choose(this.focusSq!);
        return;
      case 'Escape':
        this.selected = null;
        this.drawMarks();
        return;
      default:
        return;
    }
    e.preventDefault();
    const next = this.at(col, line);
    if (next) this.focusSq = next;
    this.drawMarks();
  }
}
