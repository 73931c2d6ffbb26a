// games/keeps/board.ts -- the 145-square Keeps & Moats board in SVG: the 9x9
// Battlefield, each kingdom's Moat and stepped Keep tinted in its colour, the
// Thrones marked, pieces as chess symbols in their kingdom's colour.
//
// It only shows things and reports what a person chose: the legal moves come
// from the server (setLegal), and choosing a piece then a target (click, drag,
// or the keyboard: the shared web/src/play/input.ts) calls onMove with every
// legal move from that square to that one: more than one when a Pawn entering
// an enemy Keep has a choice to make (K5), which the game page asks about.
// Invariant: onMove only ever gets moves from the list setLegal was given.

import { lettersOnly } from '../../prefs';
import { svgEl } from '../../svg';
import { BoardInput, InputBoard, UNIT } from '../../play/input';
import { ALL_SQUARES, KINGDOMS, Piece, Position, SIZE, THRONES, areaOf, exists, parseMove, parseSquare, pieceName, squareName } from './notation';

const S = UNIT; // one square, in SVG units

/** Filled chess symbols; U+FE0E asks for the text form, never an emoji. */
const GLYPHS: Record<string, string> = { K: '♚', Q: '♛', R: '♜', B: '♝', N: '♞', P: '♟', C: '♟' };

let boardCount = 0;

export class KeepsBoard {
  onMove: ((moves: string[]) => void) | null = null;

  private svg: SVGSVGElement;
  private wrap: HTMLDivElement;
  private live: HTMLElement;
  private layers: { squares: SVGGElement; marks: SVGGElement; pieces: SVGGElement; over: SVGGElement; drag: SVGGElement };
  private pos: Position | null = null;
  private viewer = 0; // the kingdom drawn at the bottom
  private legal: string[] = [];
  private last: string[] = [];
  private id = `kmboard${++boardCount}`;
  private input: BoardInput;

  constructor(host: HTMLElement, opts: { size?: 'large' | 'small'; label?: string } = {}) {
    this.wrap = document.createElement('div');
    this.wrap.className = `board km-board board-${opts.size ?? 'large'}`;
    this.wrap.style.setProperty('--board-ratio', '1 / 1');
    this.svg = svgEl('svg', { role: 'application', tabindex: 0, 'aria-label': opts.label ?? 'Keeps & Moats board', 'aria-roledescription': 'board', viewBox: `0 0 ${SIZE * S} ${SIZE * S}` });
    this.layers = { squares: svgEl('g'), marks: svgEl('g', { 'pointer-events': 'none' }), pieces: svgEl('g', { 'pointer-events': 'none' }), over: svgEl('g', { 'pointer-events': 'none' }), drag: svgEl('g', { 'pointer-events': 'none' }) };
    for (const l of Object.values(this.layers)) this.svg.appendChild(l);
    // what the keyboard focus is on, read out by screen readers
    this.live = document.createElement('p');
    this.live.className = 'km-sr';
    this.live.setAttribute('aria-live', 'polite');
    this.live.id = `${this.id}-live`;
    this.wrap.append(this.svg, this.live);
    host.appendChild(this.wrap);
    if (opts.size === 'small') this.svg.setAttribute('tabindex', '-1');
    this.input = new BoardInput(this.svg, this.layers.drag, this.inputBoard());
    this.drawSquares();
  }

  setPosition(p: Position): void {
    this.pos = p;
    this.input.refresh();
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
  }

  setLegal(moves: string[]): void {
    this.legal = moves.slice();
    this.input.refresh();
    this.svg.classList.toggle('can-move', this.legal.length > 0);
    this.drawMarks();
  }

  setLast(squares: string[]): void {
    this.last = squares.slice();
    this.drawMarks();
  }

  destroy(): void {
    this.input.destroy();
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
      // role img: a square is named by its label, which aria-label may give only an element with a role
      const cell = svgEl('g', { 'data-square': sq, role: 'img', 'aria-label': this.label(sq) });
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
        const t = svgEl('text', { x: corner === 'br' ? x + S - 8 : x + 6, y: corner === 'br' ? y + S - 8 : y + 22, class: 'km-coord', 'text-anchor': corner === 'br' ? 'end' : 'start', 'aria-hidden': 'true' });
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
      if (this.input.dragging === sq) continue;
      const [x, y] = this.xy(sq);
      const piece = this.pieceDrawing(p, x, y, frozen && this.pos.out.includes(p.kingdom));
      piece.setAttribute('data-piece', sq);
      g.appendChild(piece);
    }
    for (const cell of this.layers.squares.querySelectorAll('[data-square]')) cell.setAttribute('aria-label', this.label(cell.getAttribute('data-square')!));
  }

  /** One piece with its square's top-left corner at (x, y). */
  private pieceDrawing(p: Piece, x: number, y: number, frozen: boolean): SVGGElement {
    const piece = svgEl('g', { class: `km-piece km-p${p.kingdom}${frozen ? ' km-frozen' : ''}` });
    // the settings' "letters only" (prefs.ts): the piece's letter, a Castle Pawn's a P
    const letters = lettersOnly();
    const t = svgEl('text', { x: x + S / 2, y: y + S * (letters ? 0.72 : 0.8), 'text-anchor': 'middle',
      class: letters ? 'km-glyph km-letter' : 'km-glyph' });
    t.textContent = letters ? (p.kind === 'C' ? 'P' : p.kind) : GLYPHS[p.kind] + '\uFE0E';
    piece.appendChild(t);
    if (p.kind === 'C') {
      // the Castle Pawn: a Pawn with a small tower badge
      piece.appendChild(svgEl('rect', { x: x + S - 36, y: y + 6, width: 30, height: 30, rx: 6, class: 'km-badge' }));
      const c = svgEl('text', { x: x + S - 21, y: y + 30, 'text-anchor': 'middle', class: 'km-badge-text' });
      c.textContent = 'C';
      piece.appendChild(c);
    }
    return piece;
  }

  private drawMarks(): void {
    const g = this.layers.marks;
    g.replaceChildren();
    const rect = (sq: string, cls: string, inset = 0) => {
      const [x, y] = this.xy(sq);
      g.appendChild(svgEl('rect', { x: x + inset, y: y + inset, width: S - 2 * inset, height: S - 2 * inset, class: cls }));
    };
    for (const sq of this.last) if (parseSquare(sq)) rect(sq, 'mark-last');
    this.layers.over.replaceChildren();
    this.input.drawSelection(g, this.layers.over, (sq) => !!this.pos?.board.get(sq));
    for (const cell of this.layers.squares.querySelectorAll('[data-square]')) cell.setAttribute('aria-label', this.label(cell.getAttribute('data-square')!));
  }

  /** "i2, White King", with what a click there would do. */
  label(sq: string): string {
    const p = this.pos?.board.get(sq);
    const a = areaOf(sq);
    let s = `${sq}, ${p ? pieceName(p) : 'empty'}`;
    if (a) s += ` (${KINGDOMS[a.kingdom]} ${a.part === 'moat' ? 'Moat' : 'Keep'})`;
    return s + this.input.label(sq);
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

  private inputBoard(): InputBoard {
    return {
      squareAt: (c, l) => this.at(c, l),
      cellOf: (sq) => {
        const [f, r] = parseSquare(sq)!;
        return this.place(f, r);
      },
      gridSize: () => [SIZE, SIZE],
      targets: (from) => this.targetsOf(from),
      active: () => this.legal.length > 0,
      choose: (from, to) => {
        const moves = this.movesFrom(from).filter((m) => { const p = parseMove(m); return p && p !== 'pass' && p.to === to; });
        if (moves.length) this.onMove?.(moves);
      },
      ghost: (from) => {
        const p = this.pos?.board.get(from);
        if (!p) return null;
        const g = svgEl('g', { class: 'piece-ghost' });
        g.appendChild(this.pieceDrawing(p, 0, 0, false));
        return g;
      },
      changed: (pieces) => {
        if (pieces) this.drawPieces();
        this.drawMarks();
      },
      startSquare: () => {
        const first = this.legal.map((m) => parseMove(m)).find((p) => p && p !== 'pass');
        return first && first !== 'pass' ? first.from : 'i9';
      },
      announce: (sq) => {
        this.live.textContent = this.label(sq);
      },
    };
  }
}
