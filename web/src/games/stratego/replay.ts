// games/stratego/replay.ts -- replaying a finished Stratego game. Once a game is
// over the whole of it is public, so every position shows both armies' ranks;
// the move list carries what each combat showed (the game's `events`).
// "Show the bot's belief" writes on each piece the side to move could not
// see what Citadel's strongest bot would have believed it to be, from that
// side's view of the position (engine.h eng_belief, in the browser): the
// truth on the board, the guess beside it.

import { engine } from '../../engine/load';
import type { Engine } from '../../engine/engine';
import { StrategoBoard } from './board';
import { beliefNotes, Notes } from './belief';
import { SIDE_NAMES, View, moveSquares, parseView } from './notation';
import { h, reasonText, resultHeadline } from '../../ui';
import { Replayer, ReviewGame, drawPlyList } from '../../review/replayer';

/** Why a Stratego game ended, in its own words (the Flag, not material). */
export function strategoReason(reason: string): string {
  if (reason === 'flag') return 'The Flag was captured';
  if (reason === 'no-moves') return 'No legal move left';
  if (reason === 'move-limit') return 'Move limit reached: a draw';
  return reasonText(reason);
}

export function strategoReplayer(host: HTMLElement, g: ReviewGame, positions: string[]): Replayer {
  const board = new StrategoBoard(host, { label: 'Stratego board, replay' });
  const total = positions.length - 1;
  const events = g.events ?? [];
  const views: (View | null)[] = positions.map((p) => {
    try {
      return parseView(p);
    } catch (e) {
      console.error('stratego: cannot read the position', p, e);
      return null;
    }
  });

  // the bot's belief, on request (the engine is loaded then)
  let beliefOn = false;
  let eng: Engine | null = null;
  let shown = 0;
  const beliefNote = h('p', { class: 'hint', id: 'st-belief-note', 'aria-live': 'polite' });
  const beliefBtn = h('button', { type: 'button', id: 'st-belief', 'aria-pressed': 'false', onclick: async () => {
    beliefOn = !beliefOn;
    beliefBtn.setAttribute('aria-pressed', String(beliefOn));
    beliefBtn.textContent = beliefOn ? 'Hide the bot\'s belief' : 'Show the bot\'s belief';
    if (beliefOn && !eng) {
      beliefNote.textContent = 'Loading the engine…';
      try {
        eng = await engine();
      } catch (e) {
        beliefNote.textContent = `The engine could not be loaded: ${String(e)}`;
        return;
      }
    }
    drawBelief(shown);
  } }, 'Show the bot\'s belief');
  host.append(h('div', { class: 'controls' }, beliefBtn), beliefNote);

  /** The belief of the side to move at `ply` about the other side's pieces. */
  function beliefAt(ply: number): { side: number; notes: Notes } | null {
    if (!eng) return null;
    const pos = eng.position(g.variant, positions[ply]);
    try {
      if (pos.result().over) return null;
      const side = pos.sideToMove();
      const view = pos.view(side);
      const r = eng.raw('eng_belief', [view.slot]);
      view.free();
      return { side, notes: r.rc >= 0 ? beliefNotes(r.text) : new Map() };
    } finally {
      pos.free();
    }
  }

  function drawBelief(ply: number): void {
    const b = beliefOn ? beliefAt(ply) : null;
    board.setNotes(b ? b.notes : new Map());
    beliefNote.textContent = !beliefOn ? ''
      : b ? `What ${SIDE_NAMES[b.side]}'s bot would believe of ${SIDE_NAMES[b.side ^ 1]}'s ${b.notes.size} hidden pieces here, from ${SIDE_NAMES[b.side]}'s view; the board shows what they were.`
        : 'The game is over here: nothing is hidden.';
  }

  return {
    show(ply) {
      shown = ply;
      const v = views[ply];
      if (v) board.setView(v);
      else board.hide();
      board.clearMarks();
      if (ply > 0) {
        const squares = moveSquares(g.moves[ply - 1]);
        board.mark(squares, 'last');
        if (events[ply - 1]) board.mark([squares[1]], 'combat');
      }
      if (beliefOn) drawBelief(ply);
    },
    describe(ply) {
      if (ply === 0) return 'Start position: both armies as they were set up';
      const ev = events[ply - 1];
      return `Move ${Math.floor((ply + 1) / 2)}, ${SIDE_NAMES[(ply - 1) % 2]}: ${g.moves[ply - 1]} (${ply} of ${total})${ev ? `. ${ev}` : ''}`;
    },
    drawList(list, ply, onPick) {
      drawPlyList(list, g.moves.slice(0, total).map((mv, i) => ({
        who: h('span', { class: `st-side st-side-${i % 2 ? 'blue' : 'red'}` }, SIDE_NAMES[i % 2]),
        move: mv,
        label: `Move ${Math.floor(i / 2) + 1}, ${SIDE_NAMES[i % 2]} ${mv}${events[i] ? `: ${events[i]}` : ''}`,
        words: events[i],
        cls: events[i] ? 'st-combat' : '',
      })), ply, onPick);
    },
    turnLabel: 'Flip board',
    turn() {
      board.setFlipped(!board.isFlipped());
    },
    resultWords(r) {
      return [resultHeadline(r, g.players, SIDE_NAMES), strategoReason(r.reason)];
    },
    destroy() {
      board.destroy();
    },
  };
}
