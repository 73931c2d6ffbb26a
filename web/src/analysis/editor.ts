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
// The models are the families' (games/<family>/editor.ts): this file holds
// the panel, the model's shape and the writing of a board field's row.

import { h } from '../ui';

/** One game's pieces and position string, as the editor changes them
 *  (each family's own, games/<family>/editor.ts); D is what its board
 *  draws, read or being made. */
export interface EditModel<D = unknown> {
  /** the pieces that can be placed: id and words; "empty" is added by the editor */
  tools: { id: string; label: string }[];
  /** who may be to move: the string's word and words for people */
  movers: { value: string; label: string }[];
  mover: string;
  /** places tool ("empty" to clear) on a square; false if there is no such square */
  put(square: string, tool: string): boolean;
  /** what the board draws now */
  drawn(): D;
  text(): string;
}

/** One row of a board field: the squares' tokens in order, a run of empty
 *  ones ('') written as its length. */
export function rowText(tokens: string[]): string {
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

/** The editor's panel: the tools, the side to move, and its two buttons.
 *  edit(text) makes the game's model of a position; onDraw() redraws the
 *  board from it; onDone(text) takes the position made. */
export class Editor {
  readonly el: HTMLElement;
  private model: EditModel | null = null;
  private tool = 'empty';
  private tools: HTMLElement;
  private mover: HTMLSelectElement;
  private note: HTMLElement;

  constructor(private edit: (text: string) => EditModel, private onDraw: () => void,
    onDone: (text: string) => void, onCancel: () => void) {
    this.tools = h('div', { class: 'controls an-tools', role: 'radiogroup', 'aria-label': 'Piece to place' });
    this.mover = h('select', { id: 'an-edit-side', 'aria-label': 'Side to move', onchange: () => {
      if (this.model) this.model.mover = this.mover.value;
    } }) as HTMLSelectElement;
    this.note = h('p', { class: 'status', id: 'an-edit-note', 'aria-live': 'polite' });
    const button = (id: string, text: string, label: string, onclick: () => void) =>
      h('button', { type: 'button', id, title: label, onclick }, text);  // named by its words
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
    this.model = this.edit(text);
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
      this.onDraw();
      this.say('');
    }
  }

  private pick(id: string): void {
    this.tool = id;
    for (const b of this.tools.querySelectorAll('button'))
      b.setAttribute('aria-checked', b.getAttribute('data-tool') === id ? 'true' : 'false');
  }
}
