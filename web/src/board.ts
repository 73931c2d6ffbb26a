// board.ts -- a Rampart board of any size drawn in SVG.
//
// The board only shows things and reports the move a person chose; it never
// decides what is legal. The caller hands it the legal moves (from the server)
// with setLegal, and gets each chosen move through onMove. Three ways to move:
// click a piece then a target, drag a piece onto a target, or use the keyboard
// (arrow keys move a focus square, Enter or Space selects and moves, Escape
// lets go).

import { Piece, Position, KIND_NAMES, SIDE_NAMES, parsePosition, parseSquare, squareName, moveSquares } from './rampart';
import { pieceGroup } from './pieces';

const SVG = 'http://www.w3.org/2000/svg';
const S = 100; // one square, in SVG units

export type MarkKind = 'last' | 'captured' | 'threat' | 'hint';
const MARK_KINDS: MarkKind[] = ['last', 'captured', 'threat', 'hint'];

export type BoardOptions = {
  flipped?: boolean;
  interactive?: boolean;
  size?: 'large' | 'small';
};

let boardCount = 0;

function el<K extends keyof SVGElementTagNameMap>(name: K, attrs: Record<string, string | number> = {}): SVGElementTagNameMap[K] {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

export class Board {
  onMove: ((move: string) => void) | null = null;

  private wrap: HTMLDivElement;
  private svg: SVGSVGElement;
  private layers: { squares: SVGGElement; under: SVGGElement; pieces: SVGGElement; over: SVGGElement; drag: SVGGElement };
  private pos: Position | null = null;
  private flipped: boolean;
  private interactive: boolean;
  private legal: string[] = [];
  private marks = new Map<MarkKind, string[]>();
  private selected: string | null = null;
  private focusSq: string | null = null;
  private id = `board${++boardCount}`;
  private drag: { from: string; ghost: SVGGElement; moved: boolean; startX: number; startY: number } | null = null;
  private listeners: [EventTarget, string, EventListener][] = [];

  constructor(host: HTMLElement, opts: BoardOptions = {}) {
    this.flipped = !!opts.flipped;
    this.interactive = opts.interactive !== false;
    this.wrap = document.createElement('div');
    this.wrap.className = `board board-${opts.size ?? 'large'}`;
    this.svg = el('svg', { role: 'grid', tabindex: 0, 'aria-label': 'Board' });
    this.layers = {
      squares: el('g'),
      under: el('g', { 'aria-hidden': 'true' }),
      pieces: el('g', { 'aria-hidden': 'true' }),
      over: el('g', { 'aria-hidden': 'true', 'pointer-events': 'none' }),
      drag: el('g', { 'aria-hidden': 'true', 'pointer-events': 'none' }),
    };
    for (const l of Object.values(this.layers)) this.svg.appendChild(l);
    this.wrap.appendChild(this.svg);
    host.appendChild(this.wrap);

    this.listen(this.svg, 'pointerdown', (e) => this.pointerDown(e as PointerEvent));
    this.listen(window, 'pointermove', (e) => this.pointerMove(e as PointerEvent));
    this.listen(window, 'pointerup', (e) => this.pointerUp(e as PointerEvent));
    this.listen(this.svg, 'keydown', (e) => this.keyDown(e as KeyboardEvent));
    this.listen(this.svg, 'focus', () => this.ensureFocus());
    this.listen(this.svg, 'blur', () => this.drawOver());
  }

  /** Shows a position string (R9). A bad string shows an empty board and logs why. */
  setPosition(text: string): void {
    try {
      this.pos = parsePosition(text);
    } catch (err) {
      console.error('board: cannot read position', text, err);
      return;
    }
    if (this.focusSq && !this.onBoard(this.focusSq)) this.focusSq = null;
    if (this.selected && !this.pieceOn(this.selected)) this.selected = null;
    this.drawAll();
  }

  /** The moves a person may make now; [] makes the board read-only. */
  setLegal(moves: string[]): void {
    this.legal = this.interactive ? moves.slice() : [];
    if (this.selected && !this.targetsOf(this.selected).length) this.selected = null;
    this.svg.classList.toggle('can-move', this.legal.length > 0);
    this.drawMarks();
  }

  mark(squares: string[], kind: MarkKind): void {
    this.marks.set(kind, squares.slice());
    this.drawMarks();
  }

  clearMarks(kind?: MarkKind): void {
    if (kind) this.marks.delete(kind);
    else this.marks.clear();
    this.drawMarks();
  }

  setFlipped(flipped: boolean): void {
    if (this.flipped === flipped) return;
    this.flipped = flipped;
    this.drawAll();
  }

  isFlipped(): boolean {
    return this.flipped;
  }

  destroy(): void {
    for (const [t, type, fn] of this.listeners) t.removeEventListener(type, fn);
    this.listeners = [];
    this.wrap.remove();
  }

  // ---- geometry -------------------------------------------------------

  private listen(t: EventTarget, type: string, fn: EventListener): void {
    t.addEventListener(type, fn);
    this.listeners.push([t, type, fn]);
  }

  private onBoard(name: string): boolean {
    const sq = parseSquare(name);
    return !!sq && !!this.pos && sq.file < this.pos.width && sq.row < this.pos.height;
  }

  private pieceOn(name: string): Piece | null {
    if (!this.pos || !this.onBoard(name)) return null;
    const sq = parseSquare(name)!;
    return this.pos.squares[sq.row * this.pos.width + sq.file];
  }

  /** The top-left corner of a square on screen, in SVG units. */
  private xy(name: string): [number, number] {
    const p = this.pos!;
    const sq = parseSquare(name)!;
    const col = this.flipped ? p.width - 1 - sq.file : sq.file;
    const line = this.flipped ? sq.row : p.height - 1 - sq.row;
    return [col * S, line * S];
  }

  /** The square under a screen column and line, or null off the board. */
  private at(col: number, line: number): string | null {
    const p = this.pos;
    if (!p || col < 0 || line < 0 || col >= p.width || line >= p.height) return null;
    const file = this.flipped ? p.width - 1 - col : col;
    const row = this.flipped ? line : p.height - 1 - line;
    return squareName(file, row);
  }

  private squareFromEvent(e: { clientX: number; clientY: number }): string | null {
    const m = this.svg.getScreenCTM();
    if (!m) return null;
    const pt = new DOMPoint(e.clientX, e.clientY).matrixTransform(m.inverse());
    return this.at(Math.floor(pt.x / S), Math.floor(pt.y / S));
  }

  private svgPoint(e: { clientX: number; clientY: number }): [number, number] {
    const m = this.svg.getScreenCTM();
    if (!m) return [0, 0];
    const pt = new DOMPoint(e.clientX, e.clientY).matrixTransform(m.inverse());
    return [pt.x, pt.y];
  }

  private targetsOf(from: string): string[] {
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

  // ---- drawing --------------------------------------------------------

  private label(name: string): string {
    const p = this.pieceOn(name);
    let text = p ? `${name}, ${SIDE_NAMES[p.side]} ${KIND_NAMES[p.kind]}` : `${name}, empty`;
    if (this.selected === name) text += ', selected';
    else if (this.selected && this.targetsOf(this.selected).includes(name)) text += ', can move here';
    for (const kind of MARK_KINDS) {
      if (!(this.marks.get(kind) ?? []).includes(name)) continue;
      if (kind === 'last') text += ', last move';
      if (kind === 'captured') text += ', piece taken';
      if (kind === 'threat') text += ', under threat';
      if (kind === 'hint') text += ', hint';
    }
    return text;
  }

  private drawAll(): void {
    const p = this.pos;
    if (!p) return;
    this.svg.setAttribute('viewBox', `0 0 ${p.width * S} ${p.height * S}`);
    this.wrap.style.setProperty('--board-ratio', `${p.width} / ${p.height}`);
    // The squares stay as long as the shape and orientation do: only the
    // pieces and marks change from move to move.
    const shape = `${p.width}x${p.height}${this.flipped ? 'f' : ''}`;
    if (shape !== this.shape) {
      this.shape = shape;
      this.drawSquares();
    }
    this.drawPieces();
    this.drawMarks();
  }

  private shape = '';

  private drawSquares(): void {
    const p = this.pos!;
    const sq = this.layers.squares;
    sq.replaceChildren();
    for (let line = 0; line < p.height; line++) {
      const rowG = el('g', { role: 'row' });
      for (let col = 0; col < p.width; col++) {
        const name = this.at(col, line)!;
        const s = parseSquare(name)!;
        const dark = (s.file + s.row) % 2 === 0;
        const cell = el('g', { role: 'gridcell', id: `${this.id}-${name}`, 'data-square': name });
        cell.appendChild(el('rect', { x: col * S, y: line * S, width: S, height: S, class: dark ? 'sq-dark' : 'sq-light' }));
        // coordinates along the left and bottom edges, as on a printed board
        if (col === 0) {
          const t = el('text', { x: col * S + 5, y: line * S + 20, class: 'coord' });
          t.textContent = String(s.row + 1);
          cell.appendChild(t);
        }
        if (line === p.height - 1) {
          const t = el('text', { x: col * S + S - 6, y: line * S + S - 6, class: 'coord', 'text-anchor': 'end' });
          t.textContent = name[0];
          cell.appendChild(t);
        }
        rowG.appendChild(cell);
      }
      sq.appendChild(rowG);
    }
  }

  private drawPieces(): void {
    const p = this.pos!;
    const layer = this.layers.pieces;
    layer.replaceChildren();
    for (let i = 0; i < p.squares.length; i++) {
      const pc = p.squares[i];
      if (!pc) continue;
      const name = squareName(i % p.width, Math.floor(i / p.width));
      if (this.drag && this.drag.moved && this.drag.from === name) continue;
      const [x, y] = this.xy(name);
      const g = pieceGroup(pc.kind, pc.side, x + 6, y + 6, S - 12);
      g.setAttribute('data-piece', name);
      layer.appendChild(g);
    }
  }

  /** Marks under the pieces (last move, selection) and over them (targets,
   *  captures, threats, hints, the keyboard focus), and the squares' labels. */
  private drawMarks(): void {
    if (!this.pos) return;
    const under = this.layers.under;
    const over = this.layers.over;
    under.replaceChildren();
    over.replaceChildren();
    const rect = (layer: SVGGElement, name: string, cls: string, inset = 0) => {
      const [x, y] = this.xy(name);
      layer.appendChild(el('rect', { x: x + inset, y: y + inset, width: S - 2 * inset, height: S - 2 * inset, class: cls }));
    };
    for (const name of this.marks.get('last') ?? []) if (this.onBoard(name)) rect(under, name, 'mark-last');
    if (this.selected) rect(under, this.selected, 'mark-selected');
    for (const name of this.marks.get('threat') ?? []) if (this.onBoard(name)) rect(over, name, 'mark-threat', 5);
    for (const name of this.marks.get('hint') ?? []) if (this.onBoard(name)) rect(over, name, 'mark-hint', 4);
    for (const name of this.marks.get('captured') ?? []) {
      if (!this.onBoard(name)) continue;
      const [x, y] = this.xy(name);
      rect(over, name, 'mark-captured', 3);
      over.appendChild(el('path', { d: `M${x + 30} ${y + 30} L${x + 70} ${y + 70} M${x + 70} ${y + 30} L${x + 30} ${y + 70}`, class: 'mark-captured-x' }));
    }
    if (this.selected) {
      for (const t of this.targetsOf(this.selected)) {
        const [x, y] = this.xy(t);
        if (this.pieceOn(t)) over.appendChild(el('circle', { cx: x + S / 2, cy: y + S / 2, r: S / 2 - 6, class: 'mark-target-capture' }));
        else over.appendChild(el('circle', { cx: x + S / 2, cy: y + S / 2, r: 14, class: 'mark-target' }));
      }
    }
    // the focus square shows only while the keyboard is in use, not after clicks
    if (this.focusSq && this.keyboard && document.activeElement === this.svg) rect(over, this.focusSq, 'mark-focus', 2);
    // labels for screen readers
    for (const cell of this.layers.squares.querySelectorAll<SVGGElement>('[data-square]')) {
      cell.setAttribute('aria-label', this.label(cell.dataset.square!));
    }
    if (this.focusSq) this.svg.setAttribute('aria-activedescendant', `${this.id}-${this.focusSq}`);
  }

  private drawOver(): void {
    this.drawMarks();
  }

  // ---- choosing a move ------------------------------------------------

  /** A click (or Enter) on a square: select a piece that can move, move the
   *  selected piece there, or let go. */
  private choose(name: string): void {
    if (this.selected && this.selected !== name) {
      const mv = this.moveText(this.selected, name);
      if (mv) {
        this.play(this.selected, name, mv);
        return;
      }
    }
    if (this.selected === name) this.selected = null;
    else this.selected = this.targetsOf(name).length ? name : null;
    this.drawMarks();
  }

  /** Shows the piece on its new square at once (the server's position,
   *  captures included, follows) and tells the caller. */
  private play(from: string, to: string, mv: string): void {
    this.selected = null;
    const p = this.pos!;
    const f = parseSquare(from)!;
    const t = parseSquare(to)!;
    p.squares[t.row * p.width + t.file] = p.squares[f.row * p.width + f.file];
    p.squares[f.row * p.width + f.file] = null;
    this.legal = [];
    this.svg.classList.remove('can-move');
    this.drawPieces();
    this.mark([from, to], 'last');
    this.marks.delete('captured');
    this.marks.delete('threat');
    this.drawMarks();
    this.onMove?.(mv);
  }

  private pointerDown(e: PointerEvent): void {
    this.keyboard = false;
    if (e.button !== 0 || !this.legal.length) return;
    const name = this.squareFromEvent(e);
    if (!name) return;
    e.preventDefault(); // keep the page from scrolling or selecting text while dragging
    this.svg.focus({ preventScroll: true });
    this.focusSq = name;
    if (this.selected && this.selected !== name && this.moveText(this.selected, name)) {
      this.choose(name);
      return;
    }
    if (!this.targetsOf(name).length) {
      this.selected = null;
      this.drawMarks();
      return;
    }
    const pc = this.pieceOn(name)!;
    const ghost = pieceGroup(pc.kind, pc.side, 0, 0, S - 12);
    ghost.setAttribute('class', 'piece dragging');
    this.drag = { from: name, ghost, moved: false, startX: e.clientX, startY: e.clientY };
    this.wasSelected = this.selected === name;
    this.selected = name;
    this.drawMarks();
  }

  private wasSelected = false;
  private keyboard = false;

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
    d.ghost.setAttribute('transform', `translate(${x - (S - 12) / 2} ${y - (S - 12) / 2}) scale(${(S - 12) / 100})`);
  }

  private pointerUp(e: PointerEvent): void {
    const d = this.drag;
    if (!d) return;
    this.drag = null;
    d.ghost.remove();
    const to = this.squareFromEvent(e);
    if (d.moved) {
      const mv = to ? this.moveText(d.from, to) : null;
      if (mv && to) {
        this.play(d.from, to, mv);
        return;
      }
      this.drawPieces(); // dropped elsewhere: the piece goes back, still selected
      this.drawMarks();
      return;
    }
    // a plain click on the piece: a second click on a selected piece lets go
    if (this.wasSelected && to === d.from) this.selected = null;
    this.drawMarks();
  }

  private ensureFocus(): void {
    if (!this.pos) return;
    if (!this.focusSq) {
      // start on a piece that can move, else the middle of the board
      const first = this.legal.length ? moveSquares(this.legal[0])[0] : null;
      this.focusSq = first ?? squareName(Math.floor(this.pos.width / 2), Math.floor(this.pos.height / 2));
    }
    this.drawMarks();
  }

  private keyDown(e: KeyboardEvent): void {
    if (!this.pos) return;
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
        if (this.legal.length) this.choose(this.focusSq!);
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
