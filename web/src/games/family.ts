// games/family.ts -- what a page may ask of a game family: one object per
// family (games/<family>/index.ts) answers for its board, its game page,
// its replay, its analysis board and editor, its help and its words.
// Pages find the family in the registry (games/index.ts) and never
// compare a game's name themselves.
//
// Invariant: a family's facts about the rules (board shapes, areas, piece
// names and counts, start positions) come from the engine (engine/read.ts),
// never from constants here or in the family's files; what a family holds
// is how it looks and how it is said.

import type { Bot, Game, PositionsAnswer, Player, Seek, Variant } from '../api';
import type { TableRequest } from '../gen/api';
import type { Cleanup } from '../router';
import type { Replayer, ReviewGame } from '../review/replayer';
import type { EditModel } from '../analysis/editor';
import type { How } from '../engine/worker';
import type { Setting } from '../engine/engine';

/** A question and its answer on a game's Technical Support page. */
export type QA = { id: string; q: string; a: (Node | string | null)[] };

/** What a game's Technical Support page (community/techsupport.ts) says
 *  of that game beyond what every game's page says. */
export type SupportWording = {
  /** the answer to "what happens when a clock runs out", when the game's
   *  own rules change it; else `timeNote` is added to the common answer */
  time?: () => QA;
  timeNote?: () => Node | null;
  /** the answer to "how do ratings work", for a game that is never rated;
   *  else `ratingsNote` follows the common answer */
  ratings?: () => QA;
  ratingsNote?: () => Node;
  /** the questions only this game is asked, after the common ones */
  extra?: () => QA[];
};

/** A lobby entry that is a table: a seek with seats (games of more sides). */
export type TableSeek = Seek & { seats?: (Player | null)[]; options?: Record<string, number> };

/** The new-game form's part for a game played at a table of seats. */
export type TableForm = {
  /** the form's fields; settings() is the table request's part they choose */
  fields(bots: Bot[]): { el: HTMLElement; settings: () => Pick<TableRequest, 'options' | 'move_limit' | 'seats'> };
  list(tables: TableSeek[], sit: (table: number, seat: number) => void): HTMLElement;
};

/** A board as the analysis page drives it (every family's has this). */
export interface AnalysisBoard {
  onMove: ((move: string) => void) | null;
  setPosition(text: string): void;
  setLegal(moves: string[]): void;
  clearMarks(kind?: 'last' | 'captured' | 'threat' | 'hint'): void;
  mark(squares: string[], kind: 'last' | 'captured' | 'threat' | 'hint'): void;
  setFlipped(f: boolean): void;
  isFlipped(): boolean;
  destroy(): void;
}

/** One analysis page's board and position editor for a family. */
export interface AnalysisKit {
  board: AnalysisBoard;
  /** the editor's model of a position; show() draws the model last made */
  edit(text: string): EditModel;
  showEdit(): void;
  /** games of hidden pieces: the side whose view a string is (-1: a full
   *  position); whether a move's outcome is known on that view; the bot's
   *  belief (eng_belief's text, null for none) written on the board */
  views?: {
    viewer(text: string): number;
    known(text: string, move: string): boolean;
    setBelief(text: string | null): void;
  };
  /** a setting's value at the start, where the position string carries it */
  settingValue?(o: Setting, text: string): number | undefined;
}

export interface GameFamily {
  /** the engine's and the server's name of the family ("keeps-moats") */
  name: string;
  /** its word in addresses: its forum board, its help pages ("keeps") */
  slug: string;
  /** its name for people ("Keeps & Moats") */
  title: string;
  /** where its rules are taught: address and words */
  rules: [string, string];
  /** the start page's card */
  card: { title: string; about: string; learn: [string, string] };
  /** each side's name for people, in side order */
  sideNames: readonly string[];

  /** the new-game form: its groups of the family's variants (name, variants,
   *  note), the move limit's words and the limits offered (none: the
   *  variant's own), the side menu's two words, a link beside the
   *  variant's description, and the table form of a game with seats */
  menu(variants: Variant[]): [string, Variant[], string?][];
  form: { limitLabel: string; limits?: number[]; sides: [string, string]; link?: [string, string]; table?: TableForm };
  /** a move limit of n in words: for a review ("100 move limit") and a
   *  challenge's terms ("100 full moves, then decided by material") */
  limitWords(n: number): string;
  limitTerms(n: number): string;
  /** a line for someone about to play it for the first time, if any */
  learnHint?(): HTMLElement;
  support: SupportWording;

  /** /game/ID for a game of this family */
  renderGame(host: HTMLElement, id: number, first: Game | null): Cleanup | Promise<Cleanup>;
  /** the review: the board replaying the game; whether a position of it may
   *  go to the analysis board; the engine's review (the search, the sides'
   *  names, whether the server keeps one for this game), and whether the
   *  replay reads every position at once (its move list's words need them:
   *  it waits for the engine) or only the one shown and the one before (its
   *  first board is drawn from the server's reading) */
  replayer(host: HTMLElement, g: ReviewGame, data: PositionsAnswer): Replayer;
  analysable(g: Game): boolean;
  review: { how: How; sides: readonly string[]; stored: boolean; readsAll: boolean };

  /** the analysis board: its kit, its search (how and to what depth), the
   *  words for the move limit setting and the names of settings' values */
  analysis: {
    make(host: HTMLElement): AnalysisKit;
    how: How;
    depth: number;
    limitHelp: string;
    settingWords?(o: Setting): string[];
  };
}
