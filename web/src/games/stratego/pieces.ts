// games/stratego/pieces.ts -- how a Stratego piece looks: a tile in its army's
// colour (Red warm, Blue cool, with different corner shapes so the two
// armies differ without colour too) showing the rank in large figures and the
// name under it; Bombs and Flags have pictures instead of figures. An unknown
// piece is a blank back: no figure, no name, only the public marks (moved,
// known Scout). Drawn in a 100x100 box; the caller places it.

import { KINDS, Piece } from './notation';
import { svgEl } from '../../svg';

function text(x: number, y: number, cls: string, content: string): SVGTextElement {
  const t = svgEl('text', { x, y, class: cls, 'text-anchor': 'middle' });
  t.textContent = content;
  return t;
}

/** A bomb: a round body, a fuse and a spark. */
function bombIcon(): SVGGElement {
  const g = svgEl('g', { class: 'st-icon' });
  g.append(
    svgEl('circle', { cx: 46, cy: 50, r: 22 }),
    svgEl('path', { d: 'M60 32 Q66 22 74 24', class: 'st-fuse' }),
    svgEl('path', { d: 'M74 14 L76 22 L84 20 L78 26 L84 32 L76 30 L74 38 L72 30 L64 32 L70 26 L64 20 L72 22 Z', class: 'st-spark' }),
  );
  return g;
}

/** A flag on its pole. */
function flagIcon(): SVGGElement {
  const g = svgEl('g', { class: 'st-icon' });
  g.append(
    svgEl('rect', { x: 30, y: 16, width: 6, height: 58, rx: 2 }),
    svgEl('path', { d: 'M36 18 L74 28 L36 44 Z' }),
  );
  return g;
}

/** The piece drawn at (x, y), `size` units wide. */
export function pieceTile(p: Piece, x: number, y: number, size: number): SVGGElement {
  const side = p.side ? 'blue' : 'red';
  const g = svgEl('g', { class: `st-piece st-${side}${p.kind === 'X' ? ' st-unknown' : ''}`, transform: `translate(${x} ${y}) scale(${size / 100})` });
  // Red tiles have round corners, Blue tiles cut ones: a second cue beside colour.
  if (p.side === 0) g.appendChild(svgEl('rect', { x: 4, y: 4, width: 92, height: 92, rx: 16, class: 'st-tile' }));
  else g.appendChild(svgEl('path', { d: 'M18 4 H82 L96 18 V82 L82 96 H18 L4 82 V18 Z', class: 'st-tile' }));
  if (p.kind === 'X') {
    // the back of a piece: an inner frame, nothing that could hint at a rank
    g.appendChild(svgEl('rect', { x: 20, y: 20, width: 60, height: 60, rx: 8, class: 'st-back' }));
  } else {
    const k = KINDS[p.kind];
    if (p.kind === 'B') g.appendChild(bombIcon());
    else if (p.kind === 'F') g.appendChild(flagIcon());
    else g.appendChild(text(50, 60, 'st-rank', String(k.rank)));
    g.appendChild(text(50, 89, 'st-name', k.short));
  }
  if (p.revealed) {
    // a corner triangle: this piece's rank is known to the enemy
    g.appendChild(svgEl('path', { d: 'M70 4 H82 L96 18 V30 Z', class: 'st-revealed-mark' }));
  }
  if (p.scout && p.kind === 'X') {
    // a double chevron: it ran like a Scout
    g.appendChild(svgEl('path', { d: 'M30 38 L44 50 L30 62 M50 38 L64 50 L50 62', class: 'st-scout-mark' }));
  } else if (p.moved) {
    g.appendChild(svgEl('circle', { cx: 16, cy: 16, r: 6, class: 'st-moved-mark' }));
  }
  return g;
}

/** A small stand-alone picture of a piece (chart, tally, cover). */
export function pieceBadge(p: Piece, px = 28, label?: string): SVGSVGElement {
  const s = svgEl('svg', { width: px, height: px, viewBox: '0 0 100 100', class: 'st-badge', role: 'img', 'aria-label': label ?? '' });
  if (!label) s.setAttribute('aria-hidden', 'true');
  s.appendChild(pieceTile(p, 0, 0, 100));
  return s;
}
