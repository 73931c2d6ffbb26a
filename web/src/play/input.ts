// play/input.ts -- how a person picks a piece and its target on any of the
// three boards (Rampart, Stratego, Keeps & Moats): click a piece then a
// target, drag a piece onto a target, or use the keyboard (arrow keys move a
// focus square over the squares drawn, stepping over holes; Enter or Space
// selects and moves; Escape lets go).
//
// Invariant: the input never decides what is legal. The board it serves says
// where a piece may go (targets), and the input reports only a pair the board
// offered (choose(from, to) with `to` among targets(from)). Selection, focus
// and the drag are kept here and nowhere else; the board draws them from
// `selected`, `focus`, `showFocus()`, `dragging` and the marks drawn by
// drawSelection(), and is told to draw again through changed().

const SVG = 'http://www.w3.org/2000/svg';

/** One square of the grid, in SVG units: every board here uses 100. */
export const UNIT = 100;

/** What a board tells its input. Screen cells are counted from the top left
 *  of the drawn grid, in whole squares. */
export interface InputBoard {
  /** The square drawn in screen cell (col, line), or null off the board or on a hole. */
  squareAt(col: number, line: number): string | null;
  /** The screen cell of a square. */
  cellOf(square: string): [number, number];
  /** Screen cells across and down. */
  gridSize(): [number, number];
  /** Where the piece on `from` may go now: [] when it cannot move. */
  targets(from: string): string[];
  /** Whether any square may be chosen now. */
  active(): boolean;
  /** The person chose `from` then `to` (one of targets(from)). */
  choose(from: string, to: string): void;
  /** A copy of the piece on `from` drawn at the origin in a 100-unit box, to
   *  follow the pointer while dragging; null for none. */
  ghost(from: string): SVGGElement | null;
  /** Selection, focus or drag changed: draw the marks again, and the pieces
   *  too when `pieces` (a dragged piece leaves, or comes back to, its square). */
  changed(pieces: boolean): void;
  /** Where the keyboard focus starts. */
  startSquare(): string;
  /** The word for what choosing does, in labels ("can move here"): "move" unless said. */
  verb?(): string;
  /** Tells screen readers about the focus square (boards without aria-activedescendant). */
  announce?(square: string): void;
}

type Drag = { from: string; ghost: SVGGElement | null; moved: boolean; startX: number; startY: number; wasSelected: boolean };

export class BoardInput {
  /** The square whose piece is picked up, if any. */
  selected: string | null = null;
  /** The keyboard's square. */
  focus: string | null = null;
  private keyboard = false;
  private drag: Drag | null = null;
  private listeners: [EventTarget, string, EventListener][] = [];

  constructor(private svg: SVGSVGElement, private dragLayer: SVGGElement, private board: InputBoard) {
    this.listen(svg, 'pointerdown', (e) => this.pointerDown(e as PointerEvent));
    this.listen(window, 'pointermove', (e) => this.pointerMove(e as PointerEvent));
    this.listen(window, 'pointerup', (e) => this.pointerUp(e as PointerEvent));
    this.listen(svg, 'keydown', (e) => this.keyDown(e as KeyboardEvent));
    this.listen(svg, 'focus', () => {
      this.keyboard = svg.matches(':focus-visible');
      this.ensureFocus();
      board.changed(false);
    });
    this.listen(svg, 'blur', () => board.changed(false));
  }

  /** The square whose piece is being dragged off its square, if any: the
   *  board leaves it out while the ghost follows the pointer. */
  get dragging(): string | null {
    return this.drag?.moved ? this.drag.from : null;
  }

  /** Whether to draw the focus square: only while the keyboard is in use. */
  showFocus(): boolean {
    return !!this.focus && this.keyboard && document.activeElement === this.svg;
  }

  /** Lets go of a selection that can no longer move (new legal moves, a new
   *  position); call after the board's targets changed. */
  refresh(): void {
    if (this.selected && (!this.board.active() || !this.board.targets(this.selected).length)) this.selected = null;
    if (this.drag && !this.board.active()) this.cancelDrag();
  }

  /** Forgets the selection and any drag (the board was hidden or reset). */
  clear(): void {
    this.selected = null;
    this.cancelDrag();
  }

  /** What a square's label adds: selected, a target, or a piece that can move. */
  label(square: string): string {
    if (!this.board.active()) return '';
    const verb = this.board.verb?.() ?? 'move';
    if (this.selected === square) return ', selected';
    if (this.selected && this.board.targets(this.selected).includes(square)) return `, can ${verb} here`;
    if (this.board.targets(square).length) return `, can ${verb}`;
    return '';
  }

  /** Draws the selection (under the pieces), its targets and the focus
   *  square (over them). `occupied` says whether a target holds a piece. */
  drawSelection(under: SVGGElement, over: SVGGElement, occupied: (square: string) => boolean): void {
    const rect = (layer: SVGGElement, square: string, cls: string, inset: number) => {
      const [c, l] = this.board.cellOf(square);
      layer.appendChild(svg('rect', { x: c * UNIT + inset, y: l * UNIT + inset, width: UNIT - 2 * inset, height: UNIT - 2 * inset, class: cls }));
    };
    if (this.selected) {
      rect(under, this.selected, 'mark-selected', 0);
      for (const t of this.board.targets(this.selected)) {
        const [c, l] = this.board.cellOf(t);
        const big = occupied(t);
        over.appendChild(svg('circle', { cx: c * UNIT + UNIT / 2, cy: l * UNIT + UNIT / 2, r: big ? UNIT / 2 - 6 : 14, class: big ? 'mark-target-capture' : 'mark-target' }));
      }
    }
    if (this.showFocus()) rect(over, this.focus!, 'mark-focus', 2);
  }

  destroy(): void {
    this.cancelDrag();
    for (const [t, type, fn] of this.listeners) t.removeEventListener(type, fn);
    this.listeners = [];
  }

  // ---- choosing ----

  private listen(t: EventTarget, type: string, fn: EventListener): void {
    t.addEventListener(type, fn);
    this.listeners.push([t, type, fn]);
  }

  private isTarget(from: string | null, to: string): boolean {
    return !!from && from !== to && this.board.targets(from).includes(to);
  }

  /** A click or Enter on a square: move the selected piece there, select
   *  the piece there, or let go. */
  private pick(square: string): void {
    if (this.isTarget(this.selected, square)) {
      this.finish(this.selected!, square);
      return;
    }
    this.selected = this.selected !== square && this.board.targets(square).length ? square : null;
    this.board.changed(false);
  }

  private finish(from: string, to: string): void {
    this.selected = null;
    this.board.changed(false);
    this.board.choose(from, to);
  }

  // ---- the pointer ----

  private point(e: { clientX: number; clientY: number }): [number, number] | null {
    const m = this.svg.getScreenCTM();
    if (!m) return null;
    const p = new DOMPoint(e.clientX, e.clientY).matrixTransform(m.inverse());
    return [p.x, p.y];
  }

  private squareFromEvent(e: { clientX: number; clientY: number }): string | null {
    const p = this.point(e);
    if (!p) return null;
    const [cols, lines] = this.board.gridSize();
    const col = Math.floor(p[0] / UNIT);
    const line = Math.floor(p[1] / UNIT);
    return col < 0 || line < 0 || col >= cols || line >= lines ? null : this.board.squareAt(col, line);
  }

  private pointerDown(e: PointerEvent): void {
    this.keyboard = false;
    if (e.button !== 0 || !this.board.active()) return;
    const square = this.squareFromEvent(e);
    if (!square) return;
    e.preventDefault(); // no page scrolling or text selection while dragging
    this.svg.focus({ preventScroll: true });
    this.keyboard = false;
    this.focus = square;
    if (this.isTarget(this.selected, square)) {
      this.finish(this.selected!, square);
      return;
    }
    if (!this.board.targets(square).length) {
      this.selected = null;
      this.board.changed(false);
      return;
    }
    const ghost = this.board.ghost(square);
    ghost?.classList.add('dragging');
    this.drag = { from: square, ghost, moved: false, startX: e.clientX, startY: e.clientY, wasSelected: this.selected === square };
    this.selected = square;
    this.board.changed(false);
  }

  private pointerMove(e: PointerEvent): void {
    const d = this.drag;
    if (!d) return;
    if (!d.moved && Math.hypot(e.clientX - d.startX, e.clientY - d.startY) < 6) return;
    if (!d.moved) {
      d.moved = true;
      if (d.ghost) this.dragLayer.appendChild(d.ghost);
      this.board.changed(true);
    }
    const p = this.point(e);
    if (p && d.ghost) d.ghost.setAttribute('transform', `translate(${p[0] - UNIT / 2} ${p[1] - UNIT / 2})`);
  }

  private pointerUp(e: PointerEvent): void {
    const d = this.drag;
    if (!d) return;
    this.drag = null;
    d.ghost?.remove();
    const to = this.squareFromEvent(e);
    if (d.moved) {
      this.board.changed(true); // the piece is back on its square until the move is made
      if (to && this.isTarget(d.from, to)) this.finish(d.from, to);
      return;
    }
    // a plain click: a second click on the selected piece lets go
    if (d.wasSelected && to === d.from) this.selected = null;
    this.board.changed(false);
  }

  private cancelDrag(): void {
    const d = this.drag;
    if (!d) return;
    this.drag = null;
    d.ghost?.remove();
    if (d.moved) this.board.changed(true);
  }

  // ---- the keyboard ----

  private ensureFocus(): void {
    if (!this.focus) this.focus = this.board.startSquare();
  }

  private keyDown(e: KeyboardEvent): void {
    const dirs: Record<string, [number, number]> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    this.keyboard = true;
    this.ensureFocus();
    const step = dirs[e.key];
    if (step) {
      e.preventDefault();
      const [cols, lines] = this.board.gridSize();
      let [c, l] = this.board.cellOf(this.focus!);
      // step over holes until a square or the edge
      for (;;) {
        c += step[0];
        l += step[1];
        if (c < 0 || l < 0 || c >= cols || l >= lines) break;
        const sq = this.board.squareAt(c, l);
        if (sq) {
          this.focus = sq;
          break;
        }
      }
      this.board.changed(false);
      this.board.announce?.(this.focus!);
    } else if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      if (this.board.active()) this.pick(this.focus!);
      else this.board.changed(false);
      this.board.announce?.(this.focus!);
    } else if (e.key === 'Escape' && this.selected) {
      this.selected = null;
      this.board.changed(false);
    }
  }
}

function svg<K extends keyof SVGElementTagNameMap>(name: K, attrs: Record<string, string | number>): SVGElementTagNameMap[K] {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}
