// games/keeps/editor.ts -- Keeps & Moats's model for the analysis board's
// position editor (analysis/editor.ts): the board field and the kingdom to
// move rewritten, the other seven fields kept.

import { EditModel, rowText } from '../../analysis/editor';
import { ALL_SQUARES, KIND_NAMES as KM_KINDS, KINGDOM_LETTERS, KINGDOMS, SIZE as KM_SIZE,
  Position, exists, parsePiece, parsePosition as parseKeeps, squareName as kmSquare } from './notation';

/** Keeps & Moats's: the board field (K7: rows 17 to 1, each west to east
 *  over the squares that exist, a number for a run of empty ones) and the
 *  kingdom to move; the other seven fields kept. */
export function editModel(text: string): EditModel<Position> {
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
      return { ...start, board: now, toMove: Math.max(0, KINGDOM_LETTERS.indexOf(mover as never)) };
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
