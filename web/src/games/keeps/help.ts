// games/keeps/help.ts -- /keeps/help and /keeps/help/<page>: Keeps & Moats Chess
// explained in the page's own words, in the six pages the original game's help
// had, and a seventh, Technical Support (community/techsupport.ts). Every diagram is a position written here (or the start plus moves) that
// the games' own engine reads and plays out in the page (engine/position.ts,
// the same C as the server's POST /api/position): the engine judges each
// position and each move a diagram claims is legal or illegal, and a diagram
// it refuses shows the refusal instead of a board.

import { localPosition } from '../../engine/position';
import { h, link } from '../../ui';
import { Cleanup, route } from '../../router';
import { KeepsBoard } from './board';
import { KINGDOMS, moveSquares, parsePosition } from './notation';
import { choiceWords, swatch } from './words';
import { techSupportBody } from '../../community/techsupport';
import { keepsHelpGame } from './support';

type Diagram = {
  id: string;
  caption: string;
  position?: string; // the start if none
  moves?: string[]; // played on it before it is shown
  legal?: string[]; // moves the text says are legal there (marked on the board)
  illegal?: string[]; // moves the text says are not
  listFrom?: string; // list every legal move from this square, in words
};

/** White's Pawn on Black's Moat (h14), a White Rook held by Black: K5 choices. */
const PAWN_IN_KEEP = 'bC/bNbKbB/bR1bQbNbR/bPbPwPbPbPbPbP/9/rP9uP/rRrP9uPuR/rBrNrP9uPuBuN/rCrKrQrP9uPuQuKuC/rNrBrP9uPuNuB/rRrP9uPuR/rP9uP/9/wPwP1wPwPwPwP/1wNwQwBwR/wBwKwN/wC w anarchy gained wrbu -,-,wR,- - 1 200';

const D: Record<string, Diagram> = {
  start: { id: 'start', caption: 'The start. White (south) moves first, then Red (west), Black (north) and Blue (east). Each kingdom\'s Moat holds its seven Pawns; its Keep holds the rest of its army, with the King on the Throne (outlined).' },
  opening: { id: 'opening', caption: 'A Pawn\'s opening move: from its own Moat a Pawn steps one or two squares forward. Here White\'s i-Pawn went two (i4–i6).', moves: ['i4i6'] },
  slider: { id: 'slider', caption: 'A slide stops on an enemy Moat. After k4–k5 opened its way, White\'s Bishop on j3 can run k4, l5, m6 and n7, the first square of Blue\'s Moat, and no further: it may not go on into Blue\'s Keep.', moves: ['k4k5', 'd9e9', 'i14i13', 'n7m7'], legal: ['j3n7', 'j3m6'], illegal: ['j3o8'] },
  castling: { id: 'castling', caption: 'Castling: while neither has moved, the King and the Castle Pawn behind it may swap places, written as the King\'s move (i2–i1). There is no check, so it is always allowed.', legal: ['i2i1'] },
  castled: { id: 'castled', caption: 'After castling: the Castle Pawn stands on the Throne, the King behind it.', moves: ['i2i1'] },
  keep: { id: 'keep', caption: 'White\'s Pawn on h14 stands on Black\'s Moat; Black holds a White Rook as a prisoner. Moving into Black\'s Keep (h15, or taking on g15 or i15), the Pawn leaves the board and White chooses: release the Rook onto the Pawn\'s square, or assassinate a major Black piece inside the Keep.', position: PAWN_IN_KEEP, listFrom: 'h14', legal: ['h14h15=r:wR', 'h14h15=a:i15'], illegal: ['h14h15'] },
};

type Page = { slug: string; title: string; body: () => (Node | string)[] };

const PAGES: Page[] = [
  { slug: 'overview', title: 'Overview', body: () => [
    h('p', {}, 'Keeps & Moats is chess for four kingdoms: White, Red, Black and Blue. Each starts in its own Keep, behind a Moat of Pawns, around a 9 × 9 Battlefield in the middle. There is no check and no checkmate: a King is captured like any other piece, and a kingdom whose King falls is out.'),
    h('p', {}, 'Play alone against three bots, with friends at one table, or anything in between: every kingdom is a person or a bot, and one person may play several. Kingdoms may be allies (two teams of two) or all against all.'),
    diagram(D.start),
    h('p', {}, 'You win when every King still on the board belongs to your side. If the move limit comes first, the game is a draw among the kingdoms still in.')] },
  { slug: 'interface', title: 'Game Interface', body: () => [
    h('h3', {}, 'Opening a table'),
    h('p', {}, 'On the start page choose Keeps & Moats. Choose the game type, what happens to a captured King\'s pieces, the move limit and the clock; then for each kingdom say who plays it: Me, Open (another person, who sits down from the lobby with "Sit here"), or a bot (Aggressive, Balanced or Defensive, at strength 2 or 5, or the simple Capture bot). Press "Open the table": the game starts as soon as every seat is taken.'),
    h('h3', {}, 'Playing'),
    h('ul', {},
      h('li', {}, 'Your kingdom is drawn at the bottom. The line above the board says whose turn it is, in that kingdom\'s colour.'),
      h('li', {}, 'Click one of your pieces: dots show where it may go, rings show what it may capture. Click a target, or drag the piece there. With the keyboard: Tab to the board, arrows to move, Enter or Space to choose, Escape to let go.'),
      h('li', {}, 'When a Pawn enters an enemy Keep, a box asks what it does there: release one of your pieces, or assassinate an enemy piece.'),
      h('li', {}, 'If you have no legal move, a Pass button appears.'),
      h('li', {}, 'The Kingdoms panel lists who plays each kingdom, its clock, the prisoners it holds, and which kingdoms are out. Below it: the game type, the Captured King Result, the round, and the moves.'),
      h('li', {}, 'Resign gives up one of your kingdoms: the one to move if it is yours, otherwise your first one still in (press it again to give up the next). That kingdom is out and the others play on.'),
      h('li', {}, 'Offer draw (every other person still in must accept; bots never do) and, after the game, Rematch and the game record are beside the board.'))] },
  { slug: 'rules', title: 'Game Rules', body: () => [
    h('h3', {}, 'Turns'),
    h('p', {}, 'White moves first, then Red, Black and Blue, round after round. A kingdom that is out is skipped; a kingdom with no legal move passes.'),
    h('h3', {}, 'Game types'),
    h('ul', {},
      h('li', {}, h('strong', {}, 'Allied Neighbors: '), 'White and Blue against Red and Black.'),
      h('li', {}, h('strong', {}, 'Crossroad Allies: '), 'White and Black against Red and Blue.'),
      h('li', {}, h('strong', {}, 'Anarchy: '), 'every kingdom for itself.')),
    h('p', {}, 'Allies never capture each other, and may walk through each other\'s lands as if they were their own.'),
    h('h3', {}, 'Captured Kings'),
    h('p', {}, 'A King is captured like any piece. Its kingdom is out, and its pieces on the board follow the table\'s Captured King Result:'),
    h('ul', {},
      h('li', {}, h('strong', {}, 'Kingdom Gained: '), 'they pass to the kingdom that took the King, which moves them from then on.'),
      h('li', {}, h('strong', {}, 'Kingdom Lost: '), 'they leave the board.'),
      h('li', {}, h('strong', {}, 'Kingdom Frozen: '), 'they stay where they are, never move, and can never be captured: walls in the way.')),
    h('h3', {}, 'Prisoners and Pawns in enemy Keeps'),
    h('p', {}, 'Every piece taken becomes its captor\'s prisoner. When one of your Pawns reaches an enemy Keep it leaves the board, and you may either release a prisoner that Keep\'s kingdom holds (one of your pieces or an ally\'s, not a Pawn or King) onto the Pawn\'s square, or assassinate a major enemy piece standing in that Keep (it becomes your prisoner).'),
    diagram(D.keep),
    h('h3', {}, 'The end'),
    h('p', {}, 'The game ends when every King left belongs to one side: that side wins, allies together. At the move limit (200 rounds unless the table said otherwise) it is a draw among the kingdoms still in.'),
    h('h3', {}, 'Resigning'),
    h('p', {}, 'A kingdom that resigns is out of the game, as if its King had been captured: its King leaves the board, and its other pieces follow the Captured King Result. With Kingdom Lost they leave the board; with Kingdom Frozen they stay, frozen; with Kingdom Gained they would pass to the King\'s captor, and a King given up has none, so they leave the board too. If it was that kingdom\'s turn, the next kingdom moves. Its allies play on, and the game ends only when every King left belongs to one side (or at the move limit), as always. If you play several kingdoms, each resignation gives up one of them.')] },
  { slug: 'board', title: 'The Board', body: () => [
    h('p', {}, 'The board has 145 squares: the 9 × 9 Battlefield in the middle (e5 to m13) and, on each side, a kingdom\'s land of 16 squares in steps: its Moat (the 7 squares touching the Battlefield) and its Keep (rows of 5, 3 and 1 behind it). Each land is tinted in its kingdom\'s colour; Moats are the darker band.'),
    h('ul', { class: 'km-legend' }, ...KINGDOMS.map((k, i) => h('li', {}, swatch(i), `${k}: `, ['south, Moat f4–l4, Throne i2', 'west, Moat d6–d12, Throne b9', 'north, Moat f14–l14, Throne i16', 'east, Moat n6–n12, Throne p9'][i]))),
    h('p', {}, 'Squares are named on a 17 × 17 grid: files a to q from west to east, rows 1 to 17 from south to north. The squares outside the diamond do not exist: nothing enters or crosses them (a Knight may leap over them).'),
    diagram(D.start),
    h('p', {}, 'The Throne is the King\'s square at the start; behind it, on the tip of the Keep, stands the Castle Pawn.')] },
  { slug: 'pieces', title: 'The Pieces', body: () => [
    h('p', {}, 'Each kingdom has a King, a Queen, two Rooks, two Bishops, two Knights, seven Pawns and a Castle Pawn (a Pawn with a "C" badge). Kings, Queens, Rooks, Bishops and Knights move as in chess.'),
    h('h3', {}, 'Pawns'),
    h('p', {}, 'In its own Moat a Pawn has only its opening moves: one or two squares forward, or a diagonal capture forward onto the Battlefield. On the Battlefield it steps one square in any straight direction (not diagonally) to an empty square, and captures one square diagonally, in any of the four directions. It never enters its own or an ally\'s land. On an enemy Moat it may only go on into that enemy\'s Keep.'),
    diagram(D.opening),
    h('h3', {}, 'Sliders and Moats'),
    h('p', {}, 'A Queen, Rook or Bishop that reaches an enemy Moat stops on its first square. It may enter that enemy\'s Keep only from its Moat (or from inside the Keep). Knights and Kings ignore Moats and Keeps.'),
    diagram(D.slider),
    h('h3', {}, 'The Castle Pawn and castling'),
    h('p', {}, 'The Castle Pawn moves like a Pawn, but may also walk within its own and its allies\' Moats and Keeps. While neither has moved, the King and the Castle Pawn may swap places: castling.'),
    diagram(D.castling),
    diagram(D.castled),
    h('h3', {}, 'A Pawn in an enemy Keep'),
    diagram(D.keep)] },
  { slug: 'tips', title: 'Tips & Hints', body: () => [
    h('ul', {},
      h('li', {}, 'There is no check: look at what attacks your King before every move. A King left hanging is simply taken.'),
      h('li', {}, 'In Anarchy, let the others fight. Taking a King with Kingdom Gained hands you a whole army.'),
      h('li', {}, 'Your Moat Pawns are your wall. Open only the files you mean to use.'),
      h('li', {}, 'An enemy slider stops on your Moat: a piece sitting there cannot yet reach your Keep, but next turn it can.'),
      h('li', {}, 'A Pawn reaching an enemy Keep is worth a Rook: it can bring back your best lost piece or remove their Queen.'),
      h('li', {}, 'With allies, guard your partner\'s King as your own: allies win together, even if one of them is out.'),
      h('li', {}, 'Castling early moves the King behind the Castle Pawn, off the Throne where enemy Knights look first.'))] },
  { slug: 'support', title: 'Technical Support', body: () => techSupportBody(keepsHelpGame) },
];

let pending: { box: HTMLElement; d: Diagram }[] = [];

/** A placeholder the page fills once the server has read the diagram. */
function diagram(d: Diagram): HTMLElement {
  const box = h('figure', { class: 'km-diagram', id: `diagram-${d.id}-${pending.length}`, 'data-diagram': d.id },
    h('div', { class: 'km-diagram-board' }, h('p', { class: 'hint' }, 'Loading the diagram…')), h('figcaption', {}, d.caption));
  pending.push({ box, d });
  return box;
}

async function fill(box: HTMLElement, d: Diagram, boards: KeepsBoard[]): Promise<void> {
  const host = box.querySelector<HTMLElement>('.km-diagram-board')!;
  try {
    const info = await localPosition('keeps-moats', d.position, d.moves);
    const legal = new Set(info.legal.map((m) => m.move));
    const wrong = [...(d.legal ?? []).filter((m) => !legal.has(m)), ...(d.illegal ?? []).filter((m) => legal.has(m))];
    if (wrong.length) throw new Error(`the engine disagrees about ${wrong.join(', ')}`);
    host.replaceChildren();
    const pos = parsePosition(info.position);
    const b = new KeepsBoard(host, { size: 'small', label: `Diagram: ${d.caption}` });
    b.setPosition(pos);
    const shown = d.legal?.[0] ?? d.moves?.[d.moves.length - 1];
    if (shown) b.setLast(moveSquares(shown));
    boards.push(b);
    box.classList.add('km-checked');
    const notes: (Node | string)[] = [];
    if (d.legal?.length) notes.push(`Legal here: ${d.legal.join(', ')}. `);
    if (d.illegal?.length) notes.push(`Not legal: ${d.illegal.join(', ')}. `);
    if (d.listFrom) {
      const from = info.legal.map((m) => m.move).filter((m) => m.startsWith(d.listFrom!));
      notes.push(h('ul', { class: 'km-choices-list' }, ...from.map((m) => h('li', {}, h('code', {}, m), ': ', choiceWords(m, pos)))));
    }
    host.append(h('div', { class: 'hint km-diagram-note' }, `${KINGDOMS[pos.toMove]} to move. `, ...notes));
  } catch (e) {
    host.replaceChildren(h('p', { class: 'error' }, `This diagram could not be shown: ${e instanceof Error ? e.message : String(e)}`));
  }
}

export function renderKeepsHelp(host: HTMLElement, slug = ''): Cleanup {
  const page = PAGES.find((p) => p.slug === slug) ?? PAGES[0];
  const boards: KeepsBoard[] = [];
  pending = [];
  const body = page.body();
  const filling = pending;
  pending = [];
  host.append(
    h('h1', {}, `Keeps & Moats: ${page.title}`),
    h('nav', { class: 'panel km-help-nav', 'aria-label': 'Help pages' }, h('ul', {},
      ...PAGES.map((p) => h('li', {}, p === page ? h('span', { 'aria-current': 'page' }, p.title) : link(`/keeps/help/${p.slug}`, p.title))))),
    h('section', { class: 'km-help' }, ...body),
    h('p', {}, link('/?variant=keeps-moats', 'Play Keeps & Moats'), ' · ', link('/', 'Back to the start page')));
  for (const { box, d } of filling) void fill(box, d, boards);
  return () => boards.forEach((b) => b.destroy());
}

route(/^\/keeps\/help(?:\/([a-z-]+))?\/?$/, renderKeepsHelp, 'Keeps & Moats: how to play');
