// games/stratego/board.ts -- the 10x10 Stratego board in SVG, with its two lakes.
//
// Like the Rampart board (web/src/board.ts) it only shows things and reports
// what a person chose; the server decides what is legal. Choosing (click,
// drag, keyboard) is the shared web/src/play/input.ts. Two modes:
// - play: setLegal(moves) from the server; choosing a piece then a target
//   gives onMove(move);
// - swap (the setup screen): setSwappable(squares); choosing one piece then
//   another gives onSwap(a, b).
// Invariant: hide() takes every piece off the screen (the pass-the-device
// cover) and nothing can be chosen until the next setView draws them again.

import { Cell, LAKES, Piece, SIZE, View, indexName, moveSquares, parseSquare, pieceName, squareIndex, squareName } from './notation';
import { pieceTile } from './pieces';
import { svgEl } from '../../svg';
import { BoardInput, InputBoard, UNIT } from '../../play/input';

const S = UNIT; // one square, in SVG units

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
  private notes = new Map<string, { short: string; long: string }>();
  private id = `stboard${++boardCount}`;
  private input: BoardInput;

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
    this.input = new BoardInput(this.svg, this.layers.drag, this.inputBoard());
  }

  setView(v: View): void {
    this.view = v;
    this.hidden = false;
    this.input.refresh();
    this.drawPieces();
    this.drawMarks();
  }

  /** Takes every piece and mark off the board until the next setView. */
  hide(): void {
    this.hidden = true;
    this.view = null;
    this.input.clear();
    this.legal = [];
    this.swappable = [];
    this.marks.clear();
    this.notes.clear();
    this.svg.classList.remove('can-move');
    this.drawPieces();
    this.drawMarks();
  }

  setLegal(moves: string[]): void {
    this.legal = moves.slice();
    this.swappable = [];
    this.input.refresh();
    this.svg.classList.toggle('can-move', this.legal.length > 0);
    this.drawMarks();
  }

  setSwappable(squares: string[]): void {
    this.swappable = squares.slice();
    this.legal = [];
    this.input.refresh();
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

  /** A few words on squares (the analysis board's belief about hidden
   *  pieces): `short` drawn on the square, `long` read out with it. */
  setNotes(notes: Map<string, { short: string; long: string }>): void {
    this.notes = new Map(notes);
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
    this.input.destroy();
    this.wrap.remove();
  }

  // ---- geometry ----

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
    // the coordinates, drawn beside the squares, not in them: a square is named by
    // its label alone, and a click on a coordinate falls through to the square
    const coords = svgEl('g', { 'aria-hidden': 'true', 'pointer-events': 'none' });
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
          coords.appendChild(t);
        }
        if (line === SIZE - 1) {
          const t = svgEl('text', { x: col * S + S - 5, y: line * S + S - 5, class: 'coord', 'text-anchor': 'end' });
          t.textContent = name[0];
          coords.appendChild(t);
        }
        rowG.appendChild(cell);
      }
      layer.appendChild(rowG);
    }
    layer.appendChild(coords);
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
      if (this.input.dragging === name) return;
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
    text += this.input.label(name);
    if ((this.marks.get('last') ?? []).includes(name)) text += ', last move';
    if ((this.marks.get('combat') ?? []).includes(name)) text += ', combat';
    const note = this.notes.get(name);
    if (note) text += `, ${note.long}`;
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
    for (const [n, note] of this.notes) {
      if (!parseSquare(n) || this.hidden) continue;
      const [x, y] = this.xy(n);
      const t = svgEl('text', { x: x + S / 2, y: y + S - 8, class: 'st-note', 'text-anchor': 'middle' });
      t.textContent = note.short;
      over.appendChild(t);
    }
    this.input.drawSelection(under, over, (sq) => !!this.pieceOn(sq));
    for (const cell of this.layers.squares.querySelectorAll<SVGGElement>('[data-square]')) {
      cell.setAttribute('aria-label', this.label(cell.dataset.square!));
    }
    if (this.input.focus) this.svg.setAttribute('aria-activedescendant', `${this.id}-${this.input.focus}`);
  }

  // ---- choosing (web/src/play/input.ts) ----

  private canAct(): boolean {
    return !!this.view && !this.hidden && (this.legal.length > 0 || this.swappable.length > 0);
  }

  private inputBoard(): InputBoard {
    return {
      squareAt: (c, l) => this.at(c, l),
      cellOf: (sq) => {
        const [x, y] = this.xy(sq);
        return [x / S, y / S];
      },
      gridSize: () => [SIZE, SIZE],
      targets: (from) => (this.canAct() ? this.targetsOf(from) : []),
      active: () => this.canAct(),
      choose: (from, to) => this.finish(from, to),
      ghost: (from) => {
        const pc = this.pieceOn(from);
        if (!pc) return null;
        const g = svgEl('g', { class: 'piece-ghost' });
        g.appendChild(pieceTile(pc, 4, 4, S - 8));
        return g;
      },
      changed: (pieces) => {
        if (pieces) this.drawPieces();
        this.drawMarks();
      },
      verb: () => (this.swappable.length ? 'swap' : 'move'),
      startSquare: () => (this.legal.length ? moveSquares(this.legal[0])[0] : this.swappable[0]) || 'e4',
    };
  }

  private finish(from: string, to: string): void {
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
}
