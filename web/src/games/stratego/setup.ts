// games/stratego/setup.ts -- the setup screen (S3): one side arranges its 40
// pieces in private before the first move. It starts from the server's random
// setup; a library or saved setup can replace it; two pieces swap by clicking
// one then the other (or dragging one onto the other); signed-in players can
// save the arrangement. "Ready" hands the setup string to onReady.

import { h, link, toast, errorText } from '../../ui';
import { me } from '../../session';
import { StrategoBoard } from './board';
import { api, NamedSetup } from '../../api';
import { KINDS, KIND_ORDER, SIDE_NAMES, Setup, formatSetup, parseSetup, setupSlot, setupSquare, setupView, pieceName } from './notation';

/** The army in a random order: only used when the server cannot be asked. */
function shuffledArmy(): Setup {
  const army: Setup = [];
  for (const k of KIND_ORDER) for (let i = 0; i < KINDS[k].count; i++) army.push(k);
  for (let i = army.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [army[i], army[j]] = [army[j], army[i]];
  }
  return army;
}

export class SetupEditor {
  onReady: ((setup: string) => void) | null = null;
  readonly el: HTMLElement;
  private setup: Setup = shuffledArmy();
  private library: NamedSetup[] = [];
  private saved: NamedSetup[] = [];
  private librarySelect = h('select', { id: 'setup-library', 'aria-label': 'Start from a library setup' });
  private savedSelect = h('select', { id: 'setup-saved', 'aria-label': 'Load one of your saved setups' });
  private savedRow = h('div', { class: 'row' });
  private note = h('p', { class: 'hint', 'aria-live': 'polite', id: 'setup-note' });
  private readyBtn: HTMLButtonElement;

  constructor(private board: StrategoBoard, private side: number, private variant: string) {
    const name = SIDE_NAMES[side];
    this.readyBtn = h('button', { type: 'button', class: 'primary big', id: 'setup-ready', onclick: () => this.ready() }, 'Ready');
    this.el = h('section', { class: 'panel st-setup', 'aria-labelledby': 'setup-h' },
      h('h2', { id: 'setup-h' }, `Arrange your army (${name})`),
      h('p', { class: 'hint' }, `Your pieces stand on ${side ? 'rows 7 to 10' : 'rows 1 to 4'}. Click a piece, then another, to swap them (or drag one onto the other). Your opponent never sees this arrangement: only what combat reveals. `,
        link('/stratego/help#setup', 'Setup tips')),
      h('div', { class: 'controls' },
        h('button', { type: 'button', id: 'setup-random', onclick: () => void this.random() }, 'Random setup'),
        this.librarySelect),
      this.savedRow,
      this.note,
      this.readyBtn);
    this.librarySelect.addEventListener('change', () => this.pick(this.library, this.librarySelect));
    this.savedSelect.addEventListener('change', () => this.pick(this.saved, this.savedSelect));
    board.onSwap = (a, b) => this.swap(a, b);
    this.draw();
    void this.load();
  }

  destroy(): void {
    this.board.onSwap = null;
    this.board.setSwappable([]);
    this.el.remove();
  }

  private squares(): string[] {
    return this.setup.map((_, i) => setupSquare(this.side, i));
  }

  private draw(): void {
    this.board.setView(setupView(this.side, this.setup));
    this.board.setSwappable(this.squares());
  }

  private swap(a: string, b: string): void {
    const i = setupSlot(this.side, a);
    const j = setupSlot(this.side, b);
    if (i < 0 || j < 0) return;
    [this.setup[i], this.setup[j]] = [this.setup[j], this.setup[i]];
    const pa = { side: this.side, kind: this.setup[j], revealed: false, moved: false, scout: false };
    const pb = { side: this.side, kind: this.setup[i], revealed: false, moved: false, scout: false };
    this.note.textContent = `Swapped: ${pieceName(pa)} to ${b}, ${pieceName(pb)} to ${a}.`;
    this.draw();
  }

  private use(text: string, what: string): void {
    try {
      this.setup = parseSetup(text);
      this.note.textContent = what;
      this.draw();
    } catch (e) {
      toast(`That setup cannot be read: ${errorText(e)}`, 'error');
    }
  }

  private pick(list: NamedSetup[], select: HTMLSelectElement): void {
    const s = list.find((x) => x.name === select.value);
    if (s) this.use(s.setup, `Loaded "${s.name}".`);
    select.value = '';
  }

  private async load(): Promise<void> {
    try {
      const c = await api.setups(this.variant);
      this.library = c.library;
      this.saved = c.saved;
      this.use(c.random, 'A random setup. Swap pieces, or start from another one.');
    } catch {
      this.note.textContent = 'A random setup. Swap pieces to change it.';
    }
    this.drawLists();
  }

  private async random(): Promise<void> {
    try {
      const c = await api.setups(this.variant);
      this.use(c.random, 'A new random setup.');
    } catch {
      this.setup = shuffledArmy();
      this.note.textContent = 'A new random setup.';
      this.draw();
    }
  }

  private drawLists(): void {
    const nice = (n: string) => n.replace(/-/g, ' ');
    this.librarySelect.replaceChildren(h('option', { value: '' }, 'Start from a library setup…'),
      ...this.library.map((s) => h('option', { value: s.name }, nice(s.name))));
    this.librarySelect.hidden = !this.library.length;
    const p = me();
    if (!p || p.guest) {
      this.savedRow.replaceChildren(h('p', { class: 'hint' }, link('/signup', 'Sign up'), ' to save your setups and use them again.'));
      return;
    }
    const nameInput = h('input', { id: 'setup-name', maxlength: 40, placeholder: 'Name this setup', 'aria-label': 'Name for this setup' });
    const save = async () => {
      const name = nameInput.value.trim();
      if (!name) {
        nameInput.focus();
        toast('Give the setup a name first', 'error');
        return;
      }
      try {
        await api.saveSetup(this.variant, name, formatSetup(this.setup));
        this.saved = [...this.saved.filter((s) => s.name !== name), { name, setup: formatSetup(this.setup) }];
        toast(`Saved "${name}"`);
        this.drawLists();
      } catch (e) {
        toast(errorText(e), 'error');
      }
    };
    this.savedSelect.replaceChildren(h('option', { value: '' }, this.saved.length ? 'Load a saved setup…' : 'No saved setups yet'),
      ...this.saved.map((s) => h('option', { value: s.name }, s.name)));
    this.savedSelect.disabled = !this.saved.length;
    this.savedRow.replaceChildren(h('div', { class: 'controls' }, this.savedSelect, nameInput,
      h('button', { type: 'button', id: 'setup-save', onclick: () => void save() }, 'Save setup')));
  }

  private ready(): void {
    this.readyBtn.disabled = true;
    this.board.setSwappable([]);
    this.onReady?.(formatSetup(this.setup));
  }

  /** The server refused the setup: let the person change it and try again. */
  refused(): void {
    this.readyBtn.disabled = false;
    this.board.setSwappable(this.squares());
  }
}
