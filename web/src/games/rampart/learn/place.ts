// games/rampart/learn/place.ts -- writes a position string (R9) from a list of pieces on squares,
// so that the lessons' positions read as pieces ("Qc4 nc6") rather than as
// notation. It only arranges pieces; it knows nothing of the rules.

/** place('Qc3 nc6 Bb2', 'b') -> '5/5/5/2n2/5/5/2Q2/1B3/5 b 1' on the Classic
 *  5x9 board. Capital letters are Bottom's pieces, small ones Top's. */
export function place(pieces: string, toMove: 'b' | 't' = 'b', width = 5, height = 9): string {
  const grid: string[][] = Array.from({ length: height }, () => Array<string>(width).fill(''));
  for (const token of pieces.trim().split(/\s+/)) {
    const m = /^([QNKBqnkb])([a-z])(\d)$/.exec(token);
    if (!m) throw new Error(`place: cannot read '${token}'`);
    const file = m[2].charCodeAt(0) - 97;
    const row = Number(m[3]) - 1;
    if (file >= width || row < 0 || row >= height) throw new Error(`place: ${token} is off the board`);
    if (grid[row][file]) throw new Error(`place: two pieces on ${m[2]}${m[3]}`);
    grid[row][file] = m[1];
  }
  const rows: string[] = [];
  for (let row = height - 1; row >= 0; row--) {
    let text = '';
    let empty = 0;
    for (const piece of grid[row]) {
      if (!piece) {
        empty++;
        continue;
      }
      if (empty) text += String(empty);
      empty = 0;
      text += piece;
    }
    rows.push(empty ? text + String(empty) : text);
  }
  return `${rows.join('/')} ${toMove} 1`;
}
