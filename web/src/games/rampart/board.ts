// games/rampart/board.ts -- a Rampart board of any size drawn in SVG.
//
// The board only shows things and reports the move a person chose; it never
// decides what is legal. The caller hands it the legal moves (from the server)
// with setLegal, and gets each chosen move through onMove. Choosing a piece
// and its target (click, drag, keyboard) is the shared web/src/play/input.ts.
//
// Captures: mark(squares, 'captured') marks the squares whose piece was
// taken. Invariant: no capture mark is ever drawn over a piece standing on
// the board. A square emptied by enclosure gets a red cross (and a faded
// copy of the piece taken, when setTaken said which); the square of a direct
// capture, where the taker now stands, gets a red frame under the taker and
// a small corner badge of the piece taken, never a cross over the taker.

import { Piece, Position, KIND_NAMES, SIDE_NAMES, parsePosition, parseSquare, squareName, moveSquares } from './notation';
import { pieceGroup } from './pieces';
import { BoardInput, InputBoard, UNIT as S } from '../../play/input';

const SVG = 'http://www.w3.org/2000/svg';

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
  private taken = new Map<string, Piece>(); // what each captured square held
  private id = `board${++boardCount}`;
  private input: BoardInput;
  private shape = '';

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
    this.input = new BoardInput(this.svg, this.layers.drag, this.inputBoard());
  }

  /** Shows a position string (R9). A bad string shows an empty board and logs why. */
  setPosition(text: string): void {
    let pos: Position;
    try {
      pos = parsePosition(text);
    } catch (err) {
      console.error('board: cannot read position', text, err);
      return;
    }
    this.show(pos);
  }

  /** Shows a position already read (the analysis editor's, which may be no
   *  position the engine would take while it is being made). */
  show(pos: Position): void {
    this.pos = pos;
    if (this.input.focus && !this.onBoard(this.input.focus)) this.input.focus = null;
    this.input.refresh();
    this.drawAll();
  }

  /** The moves a person may make now; [] makes the board read-only. */
  setLegal(moves: string[]): void {
    this.legal = this.interactive ? moves.slice() : [];
    this.input.refresh();
    this.svg.classList.toggle('can-move', this.legal.length > 0);
    this.drawMarks();
  }

  mark(squares: string[], kind: MarkKind): void {
    this.marks.set(kind, squares.slice());
    this.drawMarks();
  }

  /** Which piece each captured square held (from the position before the
   *  move), so its mark can show what was taken. */
  setTaken(taken: Map<string, Piece>): void {
    this.taken = new Map(taken);
    this.drawMarks();
  }

  clearMarks(kind?: MarkKind): void {
    if (kind) this.marks.delete(kind);
    else this.marks.clear();
    if (!kind || kind === 'captured') this.taken.clear();
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
    this.input.destroy();
    this.wrap.remove();
  }

  // ---- geometry -------------------------------------------------------

  private onBoard(name: string): boolean {
    const sq = parseSquare(name);
    return !!sq && !!this.pos && sq.file < this.pos.width && sq.row < this.pos.height;
  }

  private pieceOn(name: string): Piece | null {
    if (!this.pos || !this.onBoard(name)) return null;
    const sq = parseSquare(name)!;
    return this.pos.squares[sq.row * this.pos.width + sq.file];
  }

  /** The screen cell of a square: column and line from the top left. */
  private cell(name: string): [number, number] {
    const p = this.pos!;
    const sq = parseSquare(name)!;
    return [this.flipped ? p.width - 1 - sq.file : sq.file, this.flipped ? sq.row : p.height - 1 - sq.row];
  }

  /** The top-left corner of a square on screen, in SVG units. */
  private xy(name: string): [number, number] {
    const [c, l] = this.cell(name);
    return [c * S, l * S];
  }

  /** The square under a screen column and line, or null off the board. */
  private at(col: number, line: number): string | null {
    const p = this.pos;
    if (!p || col < 0 || line < 0 || col >= p.width || line >= p.height) return null;
    const file = this.flipped ? p.width - 1 - col : col;
    const row = this.flipped ? line : p.height - 1 - line;
    return squareName(file, row);
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

  private inputBoard(): InputBoard {
    return {
      squareAt: (c, l) => this.at(c, l),
      cellOf: (sq) => this.cell(sq),
      gridSize: () => [this.pos?.width ?? 0, this.pos?.height ?? 0],
      targets: (from) => this.targetsOf(from),
      active: () => !!this.pos && this.legal.length > 0,
      choose: (from, to) => {
        const mv = this.moveText(from, to);
        if (mv) this.play(from, to, mv);
      },
      ghost: (from) => {
        const pc = this.pieceOn(from);
        if (!pc) return null;
        const g = el('g', { class: 'piece-ghost' });
        g.appendChild(pieceGroup(pc.kind, pc.side, 6, 6, S - 12));
        return g;
      },
      changed: (pieces) => {
        if (pieces) this.drawPieces();
        this.drawMarks();
      },
      startSquare: () => {
        // a piece that can move, else the middle of the board
        const first = this.legal.length ? moveSquares(this.legal[0])[0] : null;
        return first ?? squareName(Math.floor((this.pos?.width ?? 1) / 2), Math.floor((this.pos?.height ?? 1) / 2));
      },
    };
  }

  // ---- drawing --------------------------------------------------------

  private pieceWords(p: Piece): string {
    return `${SIDE_NAMES[p.side]} ${KIND_NAMES[p.kind]}`;
  }

  private label(name: string): string {
    const p = this.pieceOn(name);
    let text = p ? `${name}, ${this.pieceWords(p)}` : `${name}, empty`;
    text += this.input.label(name);
    for (const kind of MARK_KINDS) {
      if (!(this.marks.get(kind) ?? []).includes(name)) continue;
      if (kind === 'last') text += ', last move';
      if (kind === 'captured') {
        const t = this.taken.get(name);
        text += p ? `, took ${t ? this.pieceWords(t) : 'a piece'} here` : `, piece taken${t ? `: ${this.pieceWords(t)}` : ''}`;
      }
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

  private drawSquares(): void {
    const p = this.pos!;
    const sq = this.layers.squares;
    sq.replaceChildren();
    // the coordinates, drawn beside the squares, not in them: a square is named by
    // its label alone, and a click on a coordinate falls through to the square
    const coords = el('g', { 'aria-hidden': 'true', 'pointer-events': 'none' });
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
          coords.appendChild(t);
        }
        if (line === p.height - 1) {
          const t = el('text', { x: col * S + S - 6, y: line * S + S - 6, class: 'coord', 'text-anchor': 'end' });
          t.textContent = name[0];
          coords.appendChild(t);
        }
        rowG.appendChild(cell);
      }
      sq.appendChild(rowG);
    }
    sq.appendChild(coords);
  }

  private drawPieces(): void {
    const p = this.pos!;
    const layer = this.layers.pieces;
    layer.replaceChildren();
    for (let i = 0; i < p.squares.length; i++) {
      const pc = p.squares[i];
      if (!pc) continue;
      const name = squareName(i % p.width, Math.floor(i / p.width));
      if (this.input.dragging === name) continue;
      const [x, y] = this.xy(name);
      const g = pieceGroup(pc.kind, pc.side, x + 6, y + 6, S - 12);
      g.setAttribute('data-piece', name);
      layer.appendChild(g);
    }
  }

  /** Marks under the pieces (last move, selection, the frame of a direct
   *  capture) and over them (targets, crosses on emptied squares, threats,
   *  hints, the keyboard focus), and the squares' labels. */
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
    for (const name of this.marks.get('threat') ?? []) if (this.onBoard(name)) rect(over, name, 'mark-threat', 5);
    for (const name of this.marks.get('hint') ?? []) if (this.onBoard(name)) rect(over, name, 'mark-hint', 4);
    for (const name of this.marks.get('captured') ?? []) if (this.onBoard(name)) this.drawCaptured(name);
    this.input.drawSelection(under, over, (sq) => !!this.pieceOn(sq));
    // labels for screen readers
    for (const cell of this.layers.squares.querySelectorAll<SVGGElement>('[data-square]')) {
      cell.setAttribute('aria-label', this.label(cell.dataset.square!));
    }
    if (this.input.focus && this.onBoard(this.input.focus)) this.svg.setAttribute('aria-activedescendant', `${this.id}-${this.input.focus}`);
  }

  /** A captured square: see the invariant at the top of this file. */
  private drawCaptured(name: string): void {
    const [x, y] = this.xy(name);
    const taker = this.pieceOn(name);
    const was = this.taken.get(name);
    if (taker) {
      // the taker stands here: a frame under it, the piece taken in a corner badge
      this.layers.under.appendChild(el('rect', { x: x + 3, y: y + 3, width: S - 6, height: S - 6, class: 'mark-captured' }));
      const badge = el('g', { class: 'mark-taken-badge', 'data-taken': name });
      badge.appendChild(el('circle', { cx: x + S - 17, cy: y + 17, r: 15, class: 'mark-taken-dot' }));
      if (was) badge.appendChild(pieceGroup(was.kind, was.side, x + S - 29, y + 5, 24));
      this.layers.over.appendChild(badge);
      return;
    }
    // an emptied square: what was there, faded, and a cross
    if (was) {
      const ghost = pieceGroup(was.kind, was.side, x + 6, y + 6, S - 12);
      ghost.setAttribute('class', `${ghost.getAttribute('class') ?? ''} piece-taken`);
      this.layers.under.appendChild(ghost);
    }
    this.layers.over.appendChild(el('rect', { x: x + 3, y: y + 3, width: S - 6, height: S - 6, class: 'mark-captured' }));
    this.layers.over.appendChild(el('path', { d: `M${x + 30} ${y + 30} L${x + 70} ${y + 70} M${x + 70} ${y + 30} L${x + 30} ${y + 70}`, class: 'mark-captured-x' }));
  }

  // ---- making a move --------------------------------------------------

  /** Shows the piece on its new square at once (the server's position,
   *  captures included, follows) and tells the caller. */
  private play(from: string, to: string, mv: string): void {
    const p = this.pos!;
    const f = parseSquare(from)!;
    const t = parseSquare(to)!;
    p.squares[t.row * p.width + t.file] = p.squares[f.row * p.width + f.file];
    p.squares[f.row * p.width + f.file] = null;
    this.legal = [];
    this.svg.classList.remove('can-move');
    this.drawPieces();
    this.marks.set('last', [from, to]);
    this.marks.delete('captured');
    this.marks.delete('threat');
    this.taken.clear();
    this.drawMarks();
    this.onMove?.(mv);
  }
}

/** The pieces a move took: each captured square with what stood there before. */
export function takenPieces(before: string, squares: string[]): Map<string, Piece> {
  const out = new Map<string, Piece>();
  let pos: Position;
  try {
    pos = parsePosition(before);
  } catch {
    return out;
  }
  for (const name of squares) {
    const sq = parseSquare(name);
    if (!sq || sq.file >= pos.width || sq.row >= pos.height) continue;
    const pc = pos.squares[sq.row * pos.width + sq.file];
    if (pc) out.set(name, pc);
  }
  return out;
}
