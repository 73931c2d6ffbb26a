// games/rampart/learn/lessons.ts -- the Learn section's content: one lesson per idea, in order.
// Each has a few paragraphs, an example position with its key move ("Show
// me"), and a puzzle. The rules come from the Rampart text and the project's
// rulings (R1-R10); every position was written by hand, and every claim (the
// `goal` of a key move) is proved against the engine by
// tests/browser/learn-positions.mjs, so a change of rules cannot leave a
// wrong lesson behind.

import type { Goal } from './check';
import { place } from './place';

export type Scene = {
  /** the position (R9) */
  position: string;
  /** the key move(s); "Show me" plays the first */
  answers: string[];
  /** what the key move does, proved against the engine */
  goal: Goal;
};

export type Example = Scene & {
  /** what to look at before the move */
  caption: string;
  /** what the key move did */
  shown: string;
};

export type Puzzle = Scene & {
  prompt: string;
  hint: string;
  solved: string;
};

export type Lesson = {
  id: string;
  title: string;
  part: string;
  text: string[];
  example: Example;
  puzzle: Puzzle;
};

const START = '1qqq1/1nnn1/1kkk1/1bbb1/5/1BBB1/1KKK1/1NNN1/1QQQ1 b 1';

export const PARTS = ['The basics', 'How a game ends', 'Tactics'];

export const LESSONS: Lesson[] = [
  {
    id: 'board',
    title: 'The board and the pieces',
    part: PARTS[0],
    text: [
      'Rampart is played on a board five squares wide and nine deep (this is Classic; XL is seven wide). Files are lettered a to e from the left, rows numbered 1 to 9 from Bottom\'s side.',
      'Each side has twelve pieces: three Queens, three Knights, three Kings and three Blockers, in four rows on the middle files. Blockers stand in front, then Kings, then Knights, with the Queens at the back. Row 5 starts empty. Bottom\'s pieces are ivory, Top\'s are crimson.',
      'Bottom moves first, then the two sides take turns. There is no passing. In the end you win by having more Queens, Knights and Kings than your opponent: the next pages show how pieces move, how they take, and when a game ends.',
    ],
    example: {
      position: START,
      answers: ['c4c5'],
      goal: { piece: 'B', to: 'c5', removes: [] },
      caption: 'The starting position. Click any of Bottom\'s front pieces to see where it may go.',
      shown: 'A common first move: the middle Blocker steps forward to claim the centre.',
    },
    puzzle: {
      position: START,
      answers: ['c4c5'],
      goal: { piece: 'B', to: 'c5' },
      prompt: 'You play Bottom. Put a Blocker on the centre square, c5.',
      hint: 'The Blocker on c4 is right in front of it.',
      solved: 'Well done. Blockers are good at holding the middle: as you will see, nothing can take them directly.',
    },
  },
  {
    id: 'queen',
    title: 'The Queen',
    part: PARTS[0],
    text: [
      'The Queen moves one, two or three squares in a straight line: along a row, along a file or diagonally, in any of the eight directions.',
      'She cannot jump. Her path ends at the first piece in the way: she stops in front of it, or, if it is an enemy Knight, she takes it by moving onto its square.',
    ],
    example: {
      position: place('Qc4 Bc6 ne2 ka6 Kb1 qe8'),
      answers: ['c4e2'],
      goal: { piece: 'Q', removes: ['e2'] },
      caption: 'Click the Queen on c4. Her own Blocker on c6 stops her going up the file, and the Top King on a6 blocks a diagonal: a Queen cannot take a King.',
      shown: 'The Queen takes the Knight on e2, two squares down the diagonal.',
    },
    puzzle: {
      position: place('Qa1 Bb1 nd4 nd1 na5 ke9 Ke2'),
      answers: ['a1d4'],
      goal: { piece: 'Q', removes: ['d4'] },
      prompt: 'Take a Knight with your Queen.',
      hint: 'There are three Knights, but only one is within three squares on an open line.',
      solved: 'Right: d4 is three squares up the diagonal. The Knight on a5 is four squares away, and your own Blocker closes the way to d1.',
    },
  },
  {
    id: 'knight',
    title: 'The Knight',
    part: PARTS[0],
    text: [
      'The Knight moves exactly one or two squares along a row or a file. It never moves diagonally.',
      'It jumps: when it moves two squares, the square in between may hold any piece, yours or the enemy\'s.',
      'A Knight takes an enemy King by landing on it, and nothing else.',
    ],
    example: {
      position: place('Nc3 Bc4 kc5 qe3 Ka1 ne9'),
      answers: ['c3c5'],
      goal: { piece: 'N', removes: ['c5'] },
      caption: 'Click the Knight on c3. The Top Queen on e3 is two squares away, but a Knight cannot take a Queen.',
      shown: 'The Knight jumps over its own Blocker and takes the King on c5.',
    },
    puzzle: {
      position: place('Nb2 Bb3 kb4 kc3 ke2 Ka9 qe9'),
      answers: ['b2b4'],
      goal: { piece: 'N', removes: ['b4'] },
      prompt: 'Take a King with your Knight.',
      hint: 'Knights go straight, never diagonally, and jump over whatever is between.',
      solved: 'Yes: b4 is two squares up, over your Blocker. The King on c3 is diagonal and the one on e2 three squares away, both out of reach.',
    },
  },
  {
    id: 'king',
    title: 'The King',
    part: PARTS[0],
    text: [
      'The King steps one square in any of the eight directions.',
      'It takes an enemy Queen by stepping onto it, and nothing else.',
      'This is not chess: a King is an ordinary piece. Losing one does not end the game, and it counts one point, like a Queen or a Knight.',
    ],
    example: {
      position: place('Kc3 Qa1 Ne1 qd4 nc4 qb3 ke9'),
      answers: ['c3d4'],
      goal: { piece: 'K', removes: ['d4'] },
      caption: 'Click the King on c3: it may step onto either Top Queen, but not onto the Knight on c4.',
      shown: 'The King takes the Queen on d4.',
    },
    puzzle: {
      position: place('Kc4 qe4 nb5 qd3 kc5 Qa1 Na9'),
      answers: ['c4d3'],
      goal: { piece: 'K', removes: ['d3'] },
      prompt: 'Take a Queen with your King.',
      hint: 'A King only reaches the eight squares around it.',
      solved: 'Right. The Queen on e4 is two squares away, and your King may not take the Knight or the King beside it.',
    },
  },
  {
    id: 'blocker',
    title: 'The Blocker',
    part: PARTS[0],
    text: [
      'The Blocker steps one square along a row or a file.',
      'It never takes anything, and nothing can take it by moving onto it. The only way to remove a Blocker is to surround it, as a later page shows.',
      'Blockers count for nothing when material is counted at the end, but they are walls: they close lines, claim squares and help surround enemy pieces.',
    ],
    example: {
      position: place('Bb5 Nc4 qc7 Ka1 ke9'),
      answers: ['b5c5'],
      goal: { piece: 'B', removes: [], safe: ['c4'] },
      caption: 'The Top Queen on c7 attacks your Knight on c4, three squares down the file.',
      shown: 'The Blocker steps into the Queen\'s path, and the Knight is safe.',
    },
    puzzle: {
      position: place('Bc2 Nb2 qe5 Ka9 ka1'),
      answers: ['c2c3'],
      goal: { piece: 'B', safe: ['b2'] },
      prompt: 'Top\'s Queen on e5 attacks your Knight on b2 along the diagonal. Shield the Knight with your Blocker.',
      hint: 'Put the wall on a square of the diagonal between e5 and b2.',
      solved: 'The Blocker on c3 closes the diagonal, and the Queen cannot take a Blocker.',
    },
  },
  {
    id: 'capture',
    title: 'Who takes whom',
    part: PARTS[0],
    text: [
      'Each piece takes exactly one kind of enemy piece, in a circle: the Queen takes Knights, the Knight takes Kings, the King takes Queens.',
      'A piece takes by moving onto its prey with its normal move. Nothing else is a direct capture: a Queen cannot take a Queen, and no piece ever takes a Blocker.',
      'So every piece is both hunter and prey. Your Queen chases Knights but must keep away from Kings.',
    ],
    example: {
      position: place('Qb4 Nc4 Kd4 nb5 kc5 qd5 Ba1 ba9'),
      answers: ['b4b5'],
      goal: { piece: 'Q', removes: ['b5'] },
      caption: 'Your Queen, Knight and King face Top\'s Knight, King and Queen. Click each of your pieces: each can take only its own prey.',
      shown: 'The Queen takes the Knight. The Knight could have taken the King on c5, and the King the Queen on d5.',
    },
    puzzle: {
      position: place('Qa4 Nc4 Kd2 ka5 qb5 qc5 nd3 qe3 ke9'),
      answers: ['d2e3'],
      goal: { removes: ['e3'] },
      prompt: 'Several of your pieces touch Top pieces, but only one capture is possible. Find it.',
      hint: 'Queen takes Knight, Knight takes King, King takes Queen.',
      solved: 'Yes: the King takes the Queen on e3. Your Queen may not take a King or a Queen, your Knight may not take a Queen, and the King may not take the Knight on d3.',
    },
  },
  {
    id: 'surround',
    title: 'Surrounding',
    part: PARTS[0],
    text: [
      'The second way to take is to surround. After your move, every enemy piece whose four neighbours (above, below, left and right) all hold your pieces is removed.',
      'All your pieces count, Blockers included, and every enemy piece can be surrounded, Blockers too. Diagonal neighbours do not matter.',
      'The edge of the board is not a wall. A piece on the edge has fewer than four neighbours, so it can never be surrounded.',
      'One move may take a piece directly and surround others at the same time; everything it takes leaves the board together.',
    ],
    example: {
      position: place('Nb5 Kd5 Qc6 Bc3 nc5 ke9 qa9 Ka1'),
      answers: ['c3c4'],
      goal: { piece: 'B', removes: ['c5'] },
      caption: 'Top\'s Knight on c5 has your pieces on three sides. The fourth side, c4, is empty.',
      shown: 'The Blocker closes the fourth side: the Knight is surrounded and leaves the board.',
    },
    puzzle: {
      position: place('Ba4 Na6 Bb5 na5 Kc6 Be6 Bd7 kd6 Bd4 Ka1 Qe1 qe9'),
      answers: ['d4d5'],
      goal: { removes: ['d6'] },
      prompt: 'Remove a Top piece by surrounding it.',
      hint: 'The Knight on a5 stands on the edge, so it can never be surrounded. Look at the King.',
      solved: 'The King on d6 had your pieces on three sides, and d5 was the last one.',
    },
  },
  {
    id: 'cage',
    title: 'Stepping into a cage',
    part: PARTS[0],
    text: [
      'Surrounding is checked only for the side that did not move. So a piece may step onto a square where it is surrounded, and it survives that move.',
      'It does not survive the next one: after the opponent\'s reply, whatever that reply is, a piece still surrounded is removed.',
      'Stepping into a cage can still be worth it, for example to take a valuable piece, but count on losing the piece that went in.',
    ],
    example: {
      position: place('bb5 bd5 bc4 kc6 Qc5 Ka1 Ne1 qe9 nb9', 't'),
      answers: ['e9e8'],
      goal: { removes: ['c5'] },
      caption: 'Top to move. Bottom\'s Queen has just stepped onto c5, between four Top pieces, and was not removed on its own move.',
      shown: 'Top makes any move (here the Queen steps from e9 to e8) and the surrounded Queen is removed.',
    },
    puzzle: {
      position: place('Bb5 Bd5 Bc4 Qc6 nc5 Qe1 ne3 ke9 qa9 Ka1'),
      answers: ['e1e3'],
      goal: { removes: ['c5', 'e3'] },
      prompt: 'Top\'s Knight has stepped into your cage on c5. It will be removed whatever you play, so make your move count twice.',
      hint: 'Do not spend your move on the Knight on c5. Is another Knight within reach?',
      solved: 'Two Knights in one move: your Queen took the one on e3, and the one on c5, still surrounded, was removed.',
    },
  },
  {
    id: 'material',
    title: 'Material and no captures left',
    part: PARTS[1],
    text: [
      'Queens, Knights and Kings are game material: each counts one point. Blockers count nothing.',
      'When neither side has a piece that could ever take something of the other\'s, the game ends at once and material decides: more wins, equal is a draw. This is judged by the kinds of pieces left, not by where they stand.',
      'Two Queens against one Queen, for instance: Queens cannot take Queens, so the side with two wins.',
    ],
    example: {
      position: place('Qa1 Qe2 nc3 qc8'),
      answers: ['a1c3'],
      goal: { removes: ['c3'], result: { winner: 0, reason: 'no-captures' } },
      caption: 'Two against two. Bottom\'s Queens can still take the Knight; Top\'s pieces have nothing they could ever take.',
      shown: 'With the Knight gone only Queens are left: no capture is possible any more, and Bottom wins 2 to 1.',
    },
    puzzle: {
      position: place('Qb2 Qe2 Bb3 nb5 qd8'),
      answers: ['e2b5'],
      goal: { removes: ['b5'], result: { winner: 0, reason: 'no-captures' } },
      prompt: 'Win the game with one move.',
      hint: 'Take the last Knight. Which of your Queens has an open line to it?',
      solved: 'Only Queens remain, nobody can take anything, and Bottom wins 2 to 1.',
    },
  },
  {
    id: 'catch-up',
    title: 'Too far behind to catch up',
    part: PARTS[1],
    text: [
      'The game also ends when the side that is behind can no longer draw level. Count what it could still take: every enemy piece of a kind it has a hunter for. If even taking all of those would leave it behind, the side ahead wins at once.',
      'Only direct captures count in this sum. A side cannot keep the game alive by hoping to surround something.',
    ],
    example: {
      position: place('Qa1 Qb1 Qe3 Kc4 nb7 nd8 qc5'),
      answers: ['c4c5'],
      goal: { removes: ['c5'], result: { winner: 0, reason: 'insufficient' } },
      caption: 'Bottom has three Queens and a King (4), Top two Knights and a Queen (3).',
      shown: 'The King takes the Queen. Now Top\'s Knights could at best take Bottom\'s one King, leaving 3 against 2: Bottom wins at once.',
    },
    puzzle: {
      position: place('Qa1 Qb1 Qc1 Kd5 qe6 nb8 na6 Bc2 Bb2'),
      answers: ['d5e6'],
      goal: { removes: ['e6'], result: { winner: 0, reason: 'insufficient' } },
      prompt: 'End the game at once.',
      hint: 'Which Top piece can your King reach, and what could Top still take without it?',
      solved: 'Top\'s Knights could at most take your King: 3 against 2 at best. The game is over.',
    },
  },
  {
    id: 'limits',
    title: 'Move limit, no moves, and the clock',
    part: PARTS[1],
    text: [
      'Every game has a move limit: 100 moves each unless you choose 50, 150 or 200. When it is reached, material decides.',
      'If the side to move has no legal move at all, material decides too.',
      'Games may have a clock: a time for each side, sometimes with a few seconds added after each move. If your time runs out you lose, whatever the material, unless no Queen, Knight or King has been taken yet: then it is a draw.',
      'A draw in which neither side lost a Queen, Knight or King is a sterile draw, and changes nobody\'s rating. Every other rated result counts, draws included.',
    ],
    example: {
      position: place('ka9 Ba8 Bb8 Bc9 Qe1 Ne3'),
      answers: ['c9b9'],
      goal: { removes: [], result: { winner: 0, reason: 'no-moves' } },
      caption: 'Top\'s King in the corner has one free square left, b9. It cannot step onto a Blocker.',
      shown: 'The Blocker takes b9: Top has no legal move, so material decides, 2 to 1 for Bottom.',
    },
    puzzle: {
      position: place('ke9 Bd9 Be8 Bc8 Qa1 Na3'),
      answers: ['c8d8'],
      goal: { result: { winner: 0, reason: 'no-moves' } },
      prompt: 'Leave Top without a legal move.',
      hint: 'The King on e9 can still go to d8. Cover it without opening another square.',
      solved: 'Nothing can take a Blocker, so the King is stuck: no legal move, and Bottom wins on material.',
    },
  },
  {
    id: 'defend',
    title: 'Defended pieces',
    part: PARTS[2],
    text: [
      'Before you take, and before you run away, count. A piece is defended when one of your pieces could take whatever takes it: a Knight next to your King is safe from a Queen, because the King would take the Queen back.',
      'A defended piece often need not retreat: holding an advanced square can be worth more than the space you would give up. And an undefended enemy piece, hanging, is a gift.',
      'Every Queen, Knight and King counts one point, but they are not equally useful. A trade of your King for an enemy Queen or Knight is usually good for you.',
    ],
    example: {
      position: place('Nc4 Kc3 qc7 ke9 Qa1 nb9', 't'),
      answers: ['c7c4'],
      goal: { piece: 'Q', removes: ['c4'], exposes: ['c4'] },
      caption: 'Top to move. Top\'s Queen on c7 attacks your Knight on c4, but your King on c3 stands guard.',
      shown: 'If the Queen takes the Knight, your King takes her back on c4: one for one, and Top has lost its most mobile piece.',
    },
    puzzle: {
      position: place('Qa1 nc3 kd4 na4 Ke9 qe7'),
      answers: ['a1a4'],
      goal: { piece: 'Q', removes: ['a4'], safe: ['a4'] },
      prompt: 'Your Queen can take either of two Knights. Take the one that is not defended.',
      hint: 'A King takes Queens. Which Knight has a Top King beside it?',
      solved: 'Right: the Knight on a4 was hanging. On c3 the King on d4 would have taken your Queen back.',
    },
  },
  {
    id: 'trap',
    title: 'Take and surround at once',
    part: PARTS[2],
    text: [
      'A piece with enemies on three sides is a trap waiting to be sprung. Watch for these three-sided pockets, around your pieces and around your opponent\'s.',
      'Often the fourth side is held by another enemy piece. Take that piece, and your piece closes the cage as it lands: two pieces for one move.',
      'Blockers make the best cage walls, because nothing can take them.',
    ],
    example: {
      position: place('Bb5 Bd5 Bc4 kc5 nc6 Qe8 Ka1 Na3 qe1 ke9'),
      answers: ['e8c6'],
      goal: { removes: ['c5', 'c6'] },
      caption: 'Top\'s King on c5 has your Blockers on three sides. Its fourth side, c6, is held by a Top Knight.',
      shown: 'The Queen takes the Knight on c6 and, standing there, closes the cage: the King goes too.',
    },
    puzzle: {
      position: place('Bb6 Bc7 Bc5 qc6 kd6 Nd4 Ka1 Qe1 ne9 ka4'),
      answers: ['d4d6'],
      goal: { removes: ['c6', 'd6'] },
      prompt: 'Win two pieces with one move.',
      hint: 'Top\'s Queen on c6 is walled in on three sides. What stands on the fourth?',
      solved: 'The Knight takes the King on d6 and completes the cage around the Queen.',
    },
  },
  {
    id: 'fork',
    title: 'Forks',
    part: PARTS[2],
    text: [
      'A fork is a move that attacks two enemy pieces at once. The opponent can usually save only one of them.',
      'Queens fork Knights, Knights fork Kings and Kings fork Queens. A fork is at its best when the attacker cannot be taken back.',
    ],
    example: {
      position: place('Qa1 nc6 ne5 Ka9 ke9'),
      answers: ['a1c3'],
      goal: { piece: 'Q', removes: [], threatens: ['c6', 'e5'] },
      caption: 'Two Top Knights, both out of the Queen\'s reach for now.',
      shown: 'From c3 the Queen attacks both Knights (the dashed squares). Top can save only one.',
    },
    puzzle: {
      position: place('Nb2 kb6 kd4 Qe1 qa9 Ke8'),
      answers: ['b2b4'],
      goal: { threatens: ['b6', 'd4'], safe: ['b4'] },
      prompt: 'Attack both Top Kings with one move.',
      hint: 'A Knight reaches two squares along a row or a file. Find a square two away from both Kings.',
      solved: 'From b4 the Knight attacks b6 and d4, and a King can never take a Knight.',
    },
  },
  {
    id: 'x-ray',
    title: 'X-rays and opening lines',
    part: PARTS[2],
    text: [
      'A piece can aim at a target through other pieces. A line that is closed now may open later, and strong players line up such threats in advance.',
      'When the piece in the way is your own, moving it opens the line at once. If that piece makes a threat of its own as it moves, the opponent faces two threats at once.',
    ],
    example: {
      position: place('Qc1 Bc2 nc4 ke9 Ka9 Na7'),
      answers: ['c2b2'],
      goal: { piece: 'B', removes: [], threatens: ['c4'] },
      caption: 'Your Queen on c1 aims up the file at the Knight on c4, but your own Blocker on c2 is in the way.',
      shown: 'The Blocker steps aside, the line opens, and the Queen now attacks the Knight.',
    },
    puzzle: {
      position: place('Qa1 Nb2 nd4 kb6 Ke9 qa9'),
      answers: ['b2b4'],
      goal: { piece: 'N', threatens: ['b6', 'd4'] },
      prompt: 'Your Knight stands between your Queen and a Top Knight. Move it so that both your pieces attack something.',
      hint: 'The Knight should leave the diagonal and attack a King as it goes.',
      solved: 'The Queen now sees the Knight on d4 and your Knight attacks the King on b6: Top cannot save both.',
    },
  },
  {
    id: 'trading',
    title: 'Trading down',
    part: PARTS[2],
    text: [
      'Every capture changes which hunters are left on the board. Before you trade, look past the count: which kinds of pieces will remain, and who will still be able to take anything?',
      'Two Knights against two Kings: only the Knights can take, and they reach far along rows and files. Two Kings against two Queens: only the Kings can take, but on an open board the Queens may run away until the move limit.',
      'Guard your last Queen, your last Knight and your last King: without it you can no longer take one kind of enemy piece.',
    ],
    example: {
      position: place('Nb3 Nd2 kb5 kd6'),
      answers: ['b3b5'],
      goal: { removes: ['b5'], result: { winner: 0, reason: 'insufficient' } },
      caption: 'Two Knights against two Kings: material is level, but only the Knights can take.',
      shown: 'One catch decides it: Kings can never take a Knight, so Top can never catch up.',
    },
    puzzle: {
      position: place('Qa1 Kc5 Ke2 qd6 na4'),
      answers: ['a1a4'],
      goal: { removes: ['a4'], result: { winner: 0, reason: 'insufficient' } },
      prompt: 'Two captures are possible. Choose the one that wins at once.',
      hint: 'After each capture, which Top piece is left, and could it take anything of yours?',
      solved: 'With the Knight gone, Top\'s Queen has no Knight to hunt and can never catch up. Taking the Queen instead would leave a Knight that can still take your Kings.',
    },
  },
];
