// games/stratego/editor.ts -- Stratego's model for the analysis board's
// position editor (analysis/editor.ts). A position edited loses its
// two-square counters (S6), and its pieces' marks only where a square
// changed: a piece placed is unmoved and unrevealed.

import { EditModel, rowText } from '../../analysis/editor';
import { KIND_ORDER, KINDS, LAKES, SIDE_NAMES as ST_SIDES, SIZE as ST_SIZE, View, parseView, pieceOfToken,
  squareIndex, tokenOfPiece } from './notation';

/** Stratego's: the board field (rows 10 to 1, '~' a lake, a number for a
 *  run of empty squares, Red upper case, Blue lower, each piece's marks
 *  kept), the side to move and the ply; the two-square counters cleared. */
export function editModel(text: string): EditModel<View> {
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
      return view;
    },
    text() {
      const rows: string[] = [];
      for (let row = ST_SIZE - 1; row >= 0; row--) rows.push(rowText(cells.slice(row * ST_SIZE, row * ST_SIZE + ST_SIZE)));
      return [rows.join('/'), mover, fields[2] ?? '0', '-', '-'].join(' ');
    },
  };
}
