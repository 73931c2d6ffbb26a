// games/stratego/help.ts -- /stratego/help: Stratego explained in the page's own
// words: the goal, moves, combat, a chart of every piece, combat examples on
// small boards (before and after each attack), setup and pass-the-device play;
// its Technical Support page is /stratego/help/support (community/techsupport.ts).
// The diagrams are positions written here by hand; nothing is computed.

import { h, link } from '../../ui';
import { Cleanup, route } from '../../router';
import { StrategoBoard } from './board';
import { Cell, KINDS, KIND_ORDER, LAKES, Piece, SIZE, View, squareIndex } from './notation';
import { pieceBadge } from './pieces';

/** A diagram's pieces: square -> letter (upper case Red, lower case Blue),
 *  with `*` for a piece combat has revealed. */
type Diagram = Record<string, string>;

function diagramView(d: Diagram): View {
  const cells: Cell[] = new Array(SIZE * SIZE).fill(null);
  for (const l of LAKES) cells[squareIndex(l)] = 'lake';
  for (const [sq, text] of Object.entries(d)) {
    const up = text[0].toUpperCase();
    const p: Piece = { side: text[0] === up ? 0 : 1, kind: up as Piece['kind'], revealed: text.includes('*'), moved: text.includes('+'), scout: false };
    cells[squareIndex(sq)] = p;
  }
  return { cells, toMove: 0, ply: 0 };
}

type Example = { id: string; title: string; before: Diagram; after: Diagram; move: [string, string]; corners: [string, string]; words: string };

const EXAMPLES: Example[] = [
  { id: 'higher', title: 'The higher rank wins', move: ['e4', 'e5'], corners: ['d3', 'f6'],
    before: { e4: 'A+', e5: 'l+', d3: 'N', f3: 'E' }, after: { e5: 'A*+', d3: 'N', f3: 'E' },
    words: 'Red\'s Captain (6) attacks Blue\'s Lieutenant (5). Both are shown; the Lieutenant is removed and the Captain takes its square.' },
  { id: 'lower', title: 'Attacking a stronger piece loses', move: ['b4', 'b5'], corners: ['a3', 'c6'],
    before: { b4: 'O+', b5: 'j+', a3: 'E' }, after: { b5: 'j*+', a3: 'E' },
    words: 'A Scout (2) attacks a Major (7). The Scout is removed; the Major stays where it was, and Red now knows what it is.' },
  { id: 'tie', title: 'Equal ranks: both go', move: ['f4', 'f5'], corners: ['e3', 'g6'],
    before: { f4: 'E+', f5: 'e+', e3: 'N' }, after: { e3: 'N' },
    words: 'Sergeant (4) against Sergeant (4): both are removed.' },
  { id: 'miner', title: 'A Miner defuses a Bomb', move: ['e6', 'e7'], corners: ['d5', 'f8'],
    before: { e6: 'N+', e7: 'b', d7: 'o', f7: 'a' }, after: { e7: 'N*+', d7: 'o', f7: 'a' },
    words: 'A Miner (3) attacks a Bomb: the Bomb is removed and the Miner moves in. Only a Miner can do this.' },
  { id: 'bomb', title: 'Any other attacker loses to a Bomb', move: ['e6', 'e7'], corners: ['d5', 'f8'],
    before: { e6: 'C+', e7: 'b', d7: 'o', f7: 'a' }, after: { e7: 'b*', d7: 'o', f7: 'a' },
    words: 'A Colonel (8) attacks the same Bomb: the Colonel is removed, the Bomb stays, and now both players know where it is.' },
  { id: 'spy', title: 'The Spy takes the Marshal, if it attacks first', move: ['g4', 'h4'], corners: ['f3', 'i5'],
    before: { g4: 'S+', h4: 'm*+', f3: 'E' }, after: { h4: 'S*+', f3: 'E' },
    words: 'The Spy (1) attacks the Marshal (10) and wins. Had the Marshal attacked the Spy, the Marshal would have won, as it beats every other piece.' },
  { id: 'flag', title: 'Capturing the Flag wins the game', move: ['a9', 'a10'], corners: ['a8', 'c10'],
    before: { a9: 'O+', a10: 'f', b10: 'b', b9: 'b' }, after: { a10: 'O*+', b10: 'b', b9: 'b' },
    words: 'Any piece that moves can capture the Flag, even a Scout (2). The game ends at once.' },
];

type Row = { kind: keyof typeof KINDS; beats: string; loses: string; special: string };

const CHART: Row[] = [
  { kind: 'M', beats: 'every rank below it, and the Spy when the Marshal attacks', loses: 'a Bomb it attacks; the Spy when the Spy attacks', special: 'The strongest piece; ties with the other Marshal' },
  { kind: 'G', beats: 'ranks 8 to 1', loses: 'the Marshal; a Bomb it attacks', special: '' },
  { kind: 'C', beats: 'ranks 7 to 1', loses: 'ranks 9 and 10; a Bomb it attacks', special: '' },
  { kind: 'J', beats: 'ranks 6 to 1', loses: 'ranks 8 to 10; a Bomb it attacks', special: '' },
  { kind: 'A', beats: 'ranks 5 to 1', loses: 'ranks 7 to 10; a Bomb it attacks', special: '' },
  { kind: 'L', beats: 'ranks 4 to 1', loses: 'ranks 6 to 10; a Bomb it attacks', special: '' },
  { kind: 'E', beats: 'ranks 3 to 1', loses: 'ranks 5 to 10; a Bomb it attacks', special: '' },
  { kind: 'N', beats: 'Scouts, the Spy, and Bombs it attacks', loses: 'ranks 4 to 10', special: 'The only piece that can remove a Bomb' },
  { kind: 'O', beats: 'the Spy', loses: 'ranks 3 to 10; a Bomb it attacks', special: 'Runs any distance in a straight line over empty squares, and may attack at the end of the run' },
  { kind: 'S', beats: 'the Marshal, only when the Spy attacks', loses: 'every other piece, and any piece that attacks it', special: 'Weakest piece; deadly to the Marshal' },
  { kind: 'B', beats: 'every attacker except a Miner', loses: 'a Miner', special: 'Never moves' },
  { kind: 'F', beats: 'nothing', loses: 'any piece that reaches it', special: 'Never moves; lose it and you lose the game' },
];

function chart(): HTMLElement {
  return h('table', { class: 'st-chart', id: 'st-chart' },
    h('caption', {}, 'Each army has 40 pieces. A higher rank beats a lower one.'),
    h('thead', {}, h('tr', {}, ...['Piece', 'Rank', 'Count', 'Beats', 'Loses to', 'Special'].map((t) => h('th', { scope: 'col' }, t)))),
    h('tbody', {}, ...CHART.map((r) => {
      const k = KINDS[r.kind];
      return h('tr', { 'data-kind': r.kind },
        h('th', { scope: 'row' }, h('span', { class: 'st-chart-name' },
          pieceBadge({ side: 0, kind: r.kind, revealed: false, moved: false, scout: false }, 32),
          pieceBadge({ side: 1, kind: r.kind, revealed: false, moved: false, scout: false }, 32), k.name)),
        h('td', { class: 'num' }, k.rank === null ? '–' : String(k.rank)),
        h('td', { class: 'num' }, String(k.count)),
        h('td', {}, r.beats), h('td', {}, r.loses), h('td', {}, r.special));
    })));
}

export function renderStrategoHelp(host: HTMLElement): Cleanup {
  const boards: StrategoBoard[] = [];
  const small = (d: Diagram, corners: [string, string], label: string, marks: string[]) => {
    const box = h('div', { class: 'st-diagram' });
    const b = new StrategoBoard(box, { size: 'small', label });
    b.setView(diagramView(d));
    b.crop(corners[0], corners[1]);
    b.mark(marks, 'last');
    boards.push(b);
    return box;
  };
  const examples = EXAMPLES.map((ex) => h('figure', { class: 'st-example', id: `example-${ex.id}` },
    h('figcaption', {}, h('strong', {}, ex.title), ' ', ex.words),
    h('div', { class: 'st-example-boards' },
      h('div', {}, h('p', { class: 'hint' }, `Before: ${ex.move[0]} attacks ${ex.move[1]}`), small(ex.before, ex.corners, `${ex.title}: before`, [ex.move[0], ex.move[1]])),
      h('div', { class: 'st-arrow', 'aria-hidden': 'true' }, '→'),
      h('div', {}, h('p', { class: 'hint' }, 'After'), small(ex.after, ex.corners, `${ex.title}: after`, [ex.move[1]])))));

  const army = KIND_ORDER.map((k) => `${KINDS[k].count} ${KINDS[k].name}${KINDS[k].count > 1 ? 's' : ''}`).join(', ');
  host.append(
    h('h1', {}, 'How to play Stratego'),
    h('p', {}, 'Two armies, Red and Blue, each hide their ranks from the other. Find and capture the enemy Flag while keeping yours safe. ',
      link('/?variant=stratego', 'Play a game'), ' when you are ready.'),
    h('nav', { class: 'panel st-toc', 'aria-label': 'On this page' }, h('ul', {},
      ...[['goal', 'Goal and board'], ['moves', 'Moves'], ['combat', 'Combat'], ['chart', 'The pieces'], ['examples', 'Combat examples'], ['rules', 'More rules'], ['setup', 'Setting up'], ['device', 'Two players, one device']]
        .map(([id, t]) => h('li', {}, h('a', { href: `#${id}` }, t))),
      h('li', {}, link('/stratego/help/support', 'Technical Support')))),
    h('section', { id: 'goal' }, h('h2', {}, 'Goal and board'),
      h('p', {}, 'The board has 10 × 10 squares. Red starts on rows 1 to 4, Blue on rows 7 to 10; the two middle rows are empty except for two lakes (c5, d5, c6, d6 and g5, h5, g6, h6) that no piece may enter. Red moves first; then the players take turns.'),
      h('p', {}, 'You see the ranks of your own pieces only. Enemy pieces are blank backs until combat shows them. A small dot on a blank back means it has moved (so it is not a Bomb or the Flag); a double arrow means it ran more than one square (so it is a Scout).'),
      h('p', {}, `Each army: ${army}.`)),
    h('section', { id: 'moves' }, h('h2', {}, 'Moves'),
      h('ul', {},
        h('li', {}, 'Move one piece a turn, one square up, down, left or right: never diagonally, never onto your own piece, never into a lake.'),
        h('li', {}, 'Moving onto an enemy piece is an attack.'),
        h('li', {}, 'A Scout may run any number of empty squares in a straight line, and may attack the first enemy piece at the end of its run, all in one turn.'),
        h('li', {}, 'Bombs and the Flag never move.'))),
    h('section', { id: 'combat' }, h('h2', {}, 'Combat'),
      h('p', {}, 'In an attack both pieces are turned face up for both players. The higher rank wins and the loser leaves the board; if the attacker wins it takes the square. Equal ranks remove both. A piece shown in combat stays known for the rest of the game (a small corner mark on its tile).'),
      h('p', {}, 'Three exceptions: a Miner attacking a Bomb removes it; any other piece attacking a Bomb is removed; the Spy attacking the Marshal wins (but the Marshal attacking the Spy wins).')),
    h('section', { id: 'chart' }, h('h2', {}, 'The pieces'), h('div', { class: 'st-chart-wrap' }, chart())),
    h('section', { id: 'examples' }, h('h2', {}, 'Combat examples'), ...examples),
    h('section', { id: 'rules' }, h('h2', {}, 'More rules'),
      h('ul', {},
        h('li', {}, 'Two squares: one piece may not go back and forth between the same two squares on more than three turns in a row. After a4→a5, a5→a4, a4→a5, the move back to a4 is not allowed; any other move is.'),
        h('li', {}, 'You win by capturing the enemy Flag, or when your opponent cannot make any move at the start of their turn (for example only Bombs and the Flag are left).'),
        h('li', {}, 'A game also ends by resigning, by running out of time on the clock (a loss), by an agreed draw, or as a draw at the move limit.'))),
    h('section', { id: 'setup' }, h('h2', {}, 'Setting up'),
      h('p', {}, 'Before the first move each player arranges their 40 pieces on their own four rows, in private. The setup screen starts from a random arrangement. Start from one of the library setups if you like, then click one piece and another to swap them (or drag one onto the other). Signed-in players can save a setup and load it in later games. Press Ready when done; the game starts when both armies are ready. Bots are ready at once.'),
      h('p', {}, 'Tips: put the Flag on the back row with Bombs around it, keep a few Scouts in front to find out what the enemy has, and do not put the Marshal where the enemy Spy can reach it early.')),
    h('section', { id: 'device' }, h('h2', {}, 'Two players, one device'),
      h('p', {}, 'Choose "Two players on this device" on the start page. Red arranges their pieces first; then the screen is covered and says "Pass the device to Blue". Blue presses "I am Blue" and arranges theirs. During the game the board is covered after every move: the cover tells the next player what the last move was and what any combat showed, and the board appears only when that player presses "I am Red" or "I am Blue". Look away while the other player is on their turn!')),
    h('section', { id: 'support' }, h('h2', {}, 'Technical Support'),
      h('p', {}, 'A problem with the site, a lost password, a question about ratings or the clock: see ', link('/stratego/help/support', 'Technical Support'),
        ', ask on the ', link('/forum/stratego', 'Stratego board'), ' or write to ', link('/support', 'Support'), '.')),
    h('p', {}, link('/', 'Back to the start page')));
  return () => boards.forEach((b) => b.destroy());
}

route(/^\/stratego\/help$/, renderStrategoHelp, 'Stratego: how to play');
