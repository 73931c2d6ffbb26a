// analysis/editor.ts -- the analysis board's position editor: a piece (or
// "Empty") chosen, then squares clicked, and the side to move. One model per
// game starts from the engine's reading of the position, says which pieces
// there are, gives what it holds for the board to draw (it may be no
// position while it is being made: no King yet), and writes the position
// string back from the squares; the rest of the string (settings, counters)
// is kept as it was. Whether what was made is a position at all is the
// engine's to say: the page analyses it only once the engine has read it
// (the caller checks).
//
// Rampart's whole string is written here; Keeps & Moats and Stratego
// rewrite only the board and the side to move. A Stratego position edited
// loses its two-square counters (S6) and its pieces' marks only where a
// square changed: a piece placed is unmoved and unrevealed.

import { KIND_NAMES, Kind, parsePosition, parseSquare, Position, Side } from '../games/rampart/notation';
import { ALL_SQUARES, KIND_NAMES as KM_KINDS, KINGDOM_LETTERS, KINGDOMS, SIZE as KM_SIZE,
  Position as KeepsPosition, exists, parsePiece, parsePosition as parseKeeps, squareName as kmSquare } from '../games/keeps/notation';
import { KIND_ORDER, KINDS, LAKES, SIDE_NAMES as ST_SIDES, SIZE as ST_SIZE, View, parseView, pieceOfToken,
  squareIndex, tokenOfPiece } from '../games/stratego/notation';
import { SIDE_TITLES, h } from '../ui';

/** One game's pieces and position string, as the editor changes them. */
export interface EditModel {
  /** the pieces that can be placed: id and words; "empty" is added by the editor */
  tools: { id: string; label: string }[];
  /** who may be to move: the string's word and words for people */
  movers: { value: string; label: string }[];
  mover: string;
  /** places tool ("empty" to clear) on a square; false if there is no such square */
  put(square: string, tool: string): boolean;
  /** what the board draws now */
  drawn(): Drawn;
  text(): string;
}

/** A position as each game's board draws it, read or being made. */
export type Drawn = { game: 'rampart'; pos: Position } | { game: 'keeps'; pos: KeepsPosition }
  | { game: 'stratego'; view: View };

/** One row of a board field: the squares' tokens in order, a run of empty
 *  ones ('') written as its length. */
function rowText(tokens: string[]): string {
  let row = '';
  let empty = 0;
  for (const t of tokens) {
    if (!t) {
      empty++;
      continue;
    }
    if (empty) row += String(empty);
    empty = 0;
    row += t;
  }
  return empty ? row + String(empty) : row;
}

/** Rampart's: the whole string (R9), from the engine's reading of it. */
function rampartModel(text: string): EditModel {
  const pos = parsePosition(text);
  return {
    tools: (['b', 't'] as Side[]).flatMap((sd) => (['Q', 'N', 'K', 'B'] as Kind[]).map((k) => ({
      id: `${sd}${k}`, label: `${SIDE_TITLES[sd === 'b' ? 0 : 1]} ${KIND_NAMES[k]}` }))),
    movers: [{ value: 'b', label: 'Bottom to move' }, { value: 't', label: 'Top to move' }],
    get mover() { return pos.toMove; },
    set mover(m: string) { pos.toMove = m as Side; },
    put(square, tool) {
      const at = parseSquare(square);
      if (!at || at.file >= pos.width || at.row >= pos.height) return false;
      pos.squares[at.row * pos.width + at.file] = tool === 'empty' ? null : { side: tool[0] as Side, kind: tool[1] as Kind };
      return true;
    },
    drawn: () => ({ game: 'rampart', pos }),
    text() {
      const rows: string[] = [];
      for (let row = pos.height - 1; row >= 0; row--)
        rows.push(rowText(pos.squares.slice(row * pos.width, (row + 1) * pos.width)
          .map((p) => (!p ? '' : p.side === 'b' ? p.kind : p.kind.toLowerCase()))));
      return `${rows.join('/')} ${pos.toMove} ${pos.fullmove}`;
    },
  };
}

/** Keeps & Moats's: the board field (K7: rows 17 to 1, each west to east
 *  over the squares that exist, a number for a run of empty ones) and the
 *  kingdom to move; the other seven fields kept. */
function keepsModel(text: string): EditModel {
  const fields = text.trim().split(/\s+/);
  const start = parseKeeps(text);
  const board = start.board;
  const pieces = new Map<string, string>();
  for (const [sq, p] of board) pieces.set(sq, `${KINGDOM_LETTERS[p.kingdom]}${p.kind}`);
  let mover = fields[1];
  return {
    tools: KINGDOM_LETTERS.flatMap((k, i) => (Object.keys(KM_KINDS) as (keyof typeof KM_KINDS)[]).map((kind) => ({
      id: `${k}${kind}`, label: `${KINGDOMS[i]} ${KM_KINDS[kind]}` }))),
    movers: KINGDOM_LETTERS.map((k, i) => ({ value: k, label: `${KINGDOMS[i]} to move` })),
    get mover() { return mover; },
    set mover(m: string) { mover = m; },
    put(square, tool) {
      if (!ALL_SQUARES.includes(square)) return false;
      if (tool === 'empty') pieces.delete(square);
      else pieces.set(square, tool);
      return true;
    },
    drawn() {
      const now = new Map<string, NonNullable<ReturnType<typeof parsePiece>>>();
      for (const [sq, t] of pieces) {
        const p = parsePiece(t);
        if (p) now.set(sq, p);
      }
      return { game: 'keeps', pos: { ...start, board: now, toMove: Math.max(0, KINGDOM_LETTERS.indexOf(mover as never)) } };
    },
    text() {
      const rows: string[] = [];
      for (let r = KM_SIZE - 1; r >= 0; r--) {
        const tokens: string[] = [];
        for (let f = 0; f < KM_SIZE; f++) if (exists(f, r)) tokens.push(pieces.get(kmSquare(f, r)) ?? '');
        rows.push(rowText(tokens));
      }
      return [rows.join('/'), mover, ...fields.slice(2)].join(' ');
    },
  };
}

/** Stratego's: the board field (rows 10 to 1, '~' a lake, a number for a
 *  run of empty squares, Red upper case, Blue lower, each piece's marks
 *  kept), the side to move and the ply; the two-square counters cleared. */
function strategoModel(text: string): EditModel {
  const fields = text.trim().split(/\s+/);
  // each square's text as the string writes it ('' for empty, '~' a lake),
  // marks included, from the engine's reading
  const start = parseView(text);
  const cells: string[] = new Array(ST_SIZE * ST_SIZE).fill('');
  start.cells.forEach((c, i) => {
    if (c === 'lake') cells[i] = '~';
    else if (c) cells[i] = tokenOfPiece(c);
  });
  let mover = fields[1];
  return {
    tools: [0, 1].flatMap((side) => KIND_ORDER.map((k) => ({
      id: side ? k.toLowerCase() : k, label: `${ST_SIDES[side]} ${KINDS[k].name}` }))),
    movers: [{ value: 'r', label: 'Red to move' }, { value: 'b', label: 'Blue to move' }],
    get mover() { return mover; },
    set mover(m: string) { mover = m; },
    put(square, tool) {
      const i = squareIndex(square);
      if (i < 0 || LAKES.includes(square)) return false;
      cells[i] = tool === 'empty' ? '' : tool;
      return true;
    },
    drawn() {
      const view: View = { cells: cells.map((c) => (c === '~' ? 'lake' : c ? pieceOfToken(c) : null)),
        toMove: mover === 'b' ? 1 : 0, ply: start.ply };
      return { game: 'stratego', view };
    },
    text() {
      const rows: string[] = [];
      for (let row = ST_SIZE - 1; row >= 0; row--) rows.push(rowText(cells.slice(row * ST_SIZE, row * ST_SIZE + ST_SIZE)));
      return [rows.join('/'), mover, fields[2] ?? '0', '-', '-'].join(' ');
    },
  };
}

/** The model for a game family, from the position it starts with. */
export function editModel(family: string, text: string): EditModel {
  if (family === 'keeps-moats') return keepsModel(text);
  if (family === 'stratego') return strategoModel(text);
  return rampartModel(text);
}

/** The editor's panel: the tools, the side to move, and its two buttons.
 *  onDraw(drawn) redraws the board; onDone(text) takes the position made. */
export class Editor {
  readonly el: HTMLElement;
  private model: EditModel | null = null;
  private tool = 'empty';
  private tools: HTMLElement;
  private mover: HTMLSelectElement;
  private note: HTMLElement;

  constructor(private family: string, private onDraw: (drawn: Drawn) => void,
    onDone: (text: string) => void, onCancel: () => void) {
    this.tools = h('div', { class: 'controls an-tools', role: 'radiogroup', 'aria-label': 'Piece to place' });
    this.mover = h('select', { id: 'an-edit-side', 'aria-label': 'Side to move', onchange: () => {
      if (this.model) this.model.mover = this.mover.value;
    } }) as HTMLSelectElement;
    this.note = h('p', { class: 'status', id: 'an-edit-note', 'aria-live': 'polite' });
    const button = (id: string, text: string, label: string, onclick: () => void) =>
      h('button', { type: 'button', id, title: label, 'aria-label': label, onclick }, text);
    this.el = h('div', { class: 'panel an-editor', id: 'an-editor', hidden: true },
      h('p', {}, 'Choose a piece, or Empty, then click squares.'), this.tools,
      h('div', { class: 'controls' }, this.mover,
        button('an-edit-done', 'Analyse it', 'Analyse the position made', () => {
          if (this.model) onDone(this.model.text());
        }),
        button('an-edit-cancel', 'Cancel', 'Leave the editor', onCancel)),
      this.note);
  }

  get editing(): boolean {
    return this.model !== null;
  }

  start(text: string): void {
    this.model = editModel(this.family, text);
    const m = this.model;
    this.tools.replaceChildren(...[{ id: 'empty', label: 'Empty' }, ...m.tools].map((t) =>
      h('button', { type: 'button', role: 'radio', 'data-tool': t.id, 'aria-checked': 'false',
        onclick: () => this.pick(t.id) }, t.label)));
    this.mover.replaceChildren(...m.movers.map((x) => h('option', { value: x.value }, x.label)));
    this.mover.value = m.mover;
    this.pick('empty');
    this.el.hidden = false;
    this.say('');
  }

  stop(): void {
    this.model = null;
    this.el.hidden = true;
  }

  say(text: string): void {
    this.note.textContent = text;
  }

  /** A click on a square while editing: the chosen piece placed there. */
  click(square: string): void {
    if (this.model?.put(square, this.tool)) {
      this.onDraw(this.model.drawn());
      this.say('');
    }
  }

  private pick(id: string): void {
    this.tool = id;
    for (const b of this.tools.querySelectorAll('button'))
      b.setAttribute('aria-checked', b.getAttribute('data-tool') === id ? 'true' : 'false');
  }
}
