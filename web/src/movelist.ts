// movelist.ts -- the moves of a game numbered by full move (Bottom's move,
// then Top's), optionally clickable to jump to a position (review).

import { h } from './ui';

/** Fills `host` with the list. `current` is the number of moves shown on the
 *  board (0 = the start); with onPick, each move is a button. */
export function drawMoveList(host: HTMLElement, moves: string[], current: number, onPick?: (ply: number) => void): void {
  const ol = h('ol', {});
  for (let i = 0; i < moves.length; i += 2) {
    const li = h('li', {});
    for (const ply of [i, i + 1]) {
      if (ply >= moves.length) break;
      const cls = `mv${ply + 1 === current ? ' current' : ''}`;
      const label = `${ply % 2 ? 'Top' : 'Bottom'} ${moves[ply]}`;
      li.append(onPick
        ? h('button', { type: 'button', class: cls, 'aria-label': `Move ${i / 2 + 1}, ${label}`, 'aria-current': ply + 1 === current ? 'step' : null, onclick: () => onPick(ply + 1) }, moves[ply])
        : h('span', { class: cls }, moves[ply]));
    }
    ol.append(li);
  }
  host.replaceChildren(moves.length ? ol : h('p', { class: 'empty' }, 'No moves yet.'));
  // keep the current move in view inside the list, without scrolling the page
  const cur = host.querySelector<HTMLElement>('.current');
  if (cur) host.scrollTop = cur.offsetTop - host.clientHeight / 2;
  else if (current >= moves.length) host.scrollTop = host.scrollHeight;
}
