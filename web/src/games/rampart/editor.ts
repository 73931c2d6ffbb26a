// games/rampart/editor.ts -- Rampart's model for the analysis board's
// position editor (analysis/editor.ts): the whole string (R9) written from
// the squares, as the engine read them.

import { EditModel, rowText } from '../../analysis/editor';
import { SIDE_TITLES } from '../../ui';
import { KIND_NAMES, Kind, Position, Side, parsePosition, parseSquare } from './notation';

/** Rampart's: the whole string (R9), from the engine's reading of it. */
export function editModel(text: string): EditModel<Position> {
  const pos = parsePosition(text);
  return {
    tools: (['b', 't'] as Side[]).flatMap((sd) => (Object.keys(KIND_NAMES) as Kind[]).map((k) => ({
      id: `${sd}${k}`, label: `${SIDE_TITLES[sd === 'b' ? 0 : 1]} ${KIND_NAMES[k]}` }))),
    movers: [{ value: 'b', label: 'Bottom to move' }, { value: 't', label: 'Top to move' }],
    get mover() { return pos.toMove; },
    set mover(m: string) { pos.toMove = m as Side; },
    put(square, tool) {
      const at = parseSquare(square);
      if (!at || at.file >= pos.width || at.row >= pos.height) return false;
      pos.squares[at.row * pos.width + at.file] = tool === 'empty' ? null : { side: tool[0] as Side, kind: tool[1] as Kind };
      return true;
    },
    drawn: () => pos,
    text() {
      const rows: string[] = [];
      for (let row = pos.height - 1; row >= 0; row--)
        rows.push(rowText(pos.squares.slice(row * pos.width, (row + 1) * pos.width)
          .map((p) => (!p ? '' : p.side === 'b' ? p.kind : p.kind.toLowerCase()))));
      return `${rows.join('/')} ${pos.toMove} ${pos.fullmove}`;
    },
  };
}
