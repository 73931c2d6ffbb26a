// games/rampart/learn/scene.ts -- the two live boards of a lesson page. The example lets the
// learner click pieces and try any legal move, and "Show me" plays the key
// move and marks what it took. The puzzle waits for the key move and says
// whether it was found. Legal moves and their effects always come from the
// games' own engine, in the page (engine/position.ts; check.ts asks it);
// these boards only show them.

import { localPosition } from '../../../engine/position';
import { Board } from '../board';
import { KIND_NAMES, SIDE_NAMES, moveSquares, parsePosition, pieceAt } from '../notation';
import { afterPaint, errorText, h, reasonText } from '../../../ui';
import { Outcome, outcome, wants } from './check';
import type { Example, Puzzle } from './lessons';

// the boards are painted first (from the server's reading); the engine they ask comes after
const ask = async (position: string) => {
  await afterPaint();
  return localPosition('rampart', position);
};

/** "Bottom's Queen c4 to e2. Taken: Knight on e2." and, if it ended the game, how. */
export function describe(before: string, move: string, out: Outcome): string {
  const pos = parsePosition(before);
  const [from, to] = moveSquares(move);
  const piece = pieceAt(pos, from);
  const who = piece ? `${SIDE_NAMES[piece.side]}'s ${KIND_NAMES[piece.kind]}` : 'A piece';
  let text = `${who} ${from} to ${to}.`;
  const taken = out.removed.map((sq) => {
    const p = pieceAt(pos, sq);
    return p ? `${KIND_NAMES[p.kind]} on ${sq}` : sq;
  });
  text += taken.length ? ` Taken: ${taken.join(', ')}.` : ' Nothing is taken.';
  const r = out.result;
  if (r.over) {
    const winner = r.winner < 0 ? 'a draw' : `${SIDE_NAMES[r.winner === 0 ? 'b' : 't']} wins`;
    text += ` The game is over, ${winner}: ${reasonText(r.reason).toLowerCase()}.`;
  }
  return text;
}

/** A small board with a caption, a status line and buttons, in a figure. */
function frame(title: string, id: string) {
  const heading = h('h2', { id: `${id}-title` }, title);
  const boardHost = h('div', { class: 'learn-board' });
  const status = h('p', { class: 'learn-status', role: 'status', 'aria-live': 'polite' });
  const buttons = h('div', { class: 'controls' });
  const box = h('section', { class: 'learn-scene panel', 'aria-labelledby': `${id}-title` }, heading);
  return { box, boardHost, status, buttons };
}

/** Shows what a move did: the new position, the move and the pieces it took. */
function showOutcome(board: Board, move: string, out: Outcome, threats: boolean): void {
  board.setPosition(out.after);
  board.setLegal([]);
  board.clearMarks();
  const [from, to] = moveSquares(move);
  board.mark([from, to], 'last');
  // The square of a direct capture now holds the taker: the move mark shows
  // it, and a cross there would seem to say the taker was lost.
  const gone = out.removed.filter((sq) => sq !== to);
  if (gone.length) board.mark(gone, 'captured');
  if (threats && out.threats.length) board.mark(out.threats, 'threat');
}

/** The example: explore freely, or press "Show me". Returns a cleanup. */
export function mountExample(host: HTMLElement, ex: Example, id: string): () => void {
  const f = frame('Try it', id);
  const caption = h('p', { class: 'learn-caption' }, ex.caption);
  const show = h('button', { type: 'button', class: 'primary', 'data-action': 'show' }, 'Show me');
  const reset = h('button', { type: 'button', 'data-action': 'reset' }, 'Reset');
  f.buttons.append(show, reset);
  f.box.append(caption, f.boardHost, f.status, f.buttons);
  host.append(f.box);
  const board = new Board(f.boardHost, { size: 'small' });
  let turn = 0; // each action's number: answers to an older one are dropped

  const load = async () => {
    const mine = ++turn;
    board.setPosition(ex.position);
    board.clearMarks();
    board.setLegal([]);
    try {
      const info = await ask(ex.position);
      if (mine !== turn) return;
      board.setLegal(info.legal.map((l) => l.move));
      f.status.textContent = `${SIDE_NAMES[info.to_move === 0 ? 'b' : 't']} to move. Click a piece to see where it can go, then click a square to move it.`;
    } catch (err) {
      if (mine === turn) f.status.textContent = errorText(err);
    }
  };

  const play = async (move: string, key: boolean) => {
    const mine = ++turn;
    try {
      const out = await outcome(ask, ex.position, move, key ? wants(ex.goal) : {});
      if (mine !== turn) return;
      showOutcome(board, move, out, key);
      f.status.textContent = describe(ex.position, move, out) + (key ? ` ${ex.shown}` : ' Press Reset to try another move, or Show me.');
    } catch (err) {
      if (mine === turn) f.status.textContent = errorText(err);
    }
  };

  board.onMove = (move) => void play(move, ex.answers.includes(move));
  show.addEventListener('click', () => void play(ex.answers[0], true));
  reset.addEventListener('click', () => void load());
  void load();
  return () => {
    turn++;
    board.destroy();
  };
}

/** The puzzle: find the key move. onSolved runs when the learner finds it. */
export function mountPuzzle(host: HTMLElement, pz: Puzzle, id: string, solvedBefore: boolean, onSolved: () => void): () => void {
  const f = frame('Puzzle', id);
  const prompt = h('p', { class: 'learn-prompt' }, pz.prompt);
  const badge = solvedBefore ? h('p', { class: 'learn-badge' }, '✓ You have solved this one before.') : null;
  const hint = h('button', { type: 'button', 'data-action': 'hint' }, 'Hint');
  const again = h('button', { type: 'button', 'data-action': 'again' }, 'Start again');
  const answer = h('button', { type: 'button', 'data-action': 'answer' }, 'Show the answer');
  f.buttons.append(hint, again, answer);
  f.box.classList.add('learn-puzzle');
  f.box.append(prompt, f.boardHost, f.status, f.buttons);
  if (badge) f.box.insertBefore(badge, prompt);
  host.append(f.box);
  const board = new Board(f.boardHost, { size: 'small' });
  let turn = 0;
  let retry: number | undefined;

  const feedback = (text: string, kind: 'info' | 'good' | 'bad') => {
    f.status.textContent = text;
    f.status.className = `learn-status learn-${kind}`;
  };

  const load = async (message = 'Your move. Click a piece, then the square to move it to.') => {
    const mine = ++turn;
    window.clearTimeout(retry);
    board.setPosition(pz.position);
    board.clearMarks();
    board.setLegal([]);
    try {
      const info = await ask(pz.position);
      if (mine !== turn) return;
      board.setLegal(info.legal.map((l) => l.move));
      feedback(message, 'info');
    } catch (err) {
      if (mine === turn) feedback(errorText(err), 'bad');
    }
  };

  const play = async (move: string, byLearner: boolean) => {
    const mine = ++turn;
    window.clearTimeout(retry);
    try {
      const right = pz.answers.includes(move);
      const out = await outcome(ask, pz.position, move, right ? wants(pz.goal) : {});
      if (mine !== turn) return;
      showOutcome(board, move, out, right);
      const what = describe(pz.position, move, out);
      if (right && byLearner) {
        feedback(`Solved! ${what} ${pz.solved}`, 'good');
        onSolved();
      } else if (right) {
        feedback(`The answer: ${what} ${pz.solved}`, 'info');
      } else {
        feedback(`Not this one. ${what} Try again.`, 'bad');
        // Let the learner see what the move did, then put the puzzle back.
        retry = window.setTimeout(() => void load(`Not this one: ${what} Try again.`), 2500);
      }
    } catch (err) {
      if (mine === turn) feedback(errorText(err), 'bad');
    }
  };

  board.onMove = (move) => void play(move, true);
  hint.addEventListener('click', () => {
    void load().then(() => {
      board.mark([moveSquares(pz.answers[0])[0]], 'hint');
      feedback(`Hint: ${pz.hint} The piece to move is outlined in green.`, 'info');
    });
  });
  again.addEventListener('click', () => void load());
  answer.addEventListener('click', () => void play(pz.answers[0], false));
  void load();
  return () => {
    turn++;
    window.clearTimeout(retry);
    board.destroy();
  };
}
