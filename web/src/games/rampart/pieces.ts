// games/rampart/pieces.ts -- the piece drawings: one silhouette per kind, drawn in a
// 100x100 box, so that a newcomer tells them apart at a glance (a spiked
// crown, a horse's head, a crown with a cross, a wall with battlements), in
// two clearly different colours for Bottom (ivory) and Top (crimson), each
// with its letter as well for anyone who cannot tell the shapes or colours;
// or, as the settings may choose (prefs.ts), the letter alone on a disc.

import { Kind, Side } from './notation';
import { lettersOnly } from '../../prefs';

const SVG = 'http://www.w3.org/2000/svg';

const SHAPES: Record<Kind, string[]> = {
  // Queen: a five-pointed crown on a band
  Q: [
    'M22 74 L12 30 L33 50 L40 18 L50 46 L60 18 L67 50 L88 30 L78 74 Z',
    'M22 76 H78 V88 H22 Z',
  ],
  // Knight: a horse's head
  N: [
    'M28 88 L30 70 C31 60 40 54 45 46 C37 50 28 52 21 48 C15 44 18 36 25 32 L42 18 L44 8 L52 17 C70 19 82 35 80 56 L78 88 Z',
  ],
  // King: a rounded crown under a cross
  K: [
    'M45 6 H55 V16 H65 V25 H55 V34 H45 V25 H35 V16 H45 Z',
    'M22 76 C14 52 30 36 50 36 C70 36 86 52 78 76 Z',
    'M20 76 H80 V88 H20 Z',
  ],
  // Blocker: a piece of rampart wall with two battlements
  B: ['M16 88 V34 H28 V20 H44 V34 H56 V20 H72 V34 H84 V88 Z'],
};

// Where the letter sits inside each silhouette.
const LETTER_AT: Record<Kind, [number, number]> = {
  Q: [50, 68],
  N: [60, 72],
  K: [50, 68],
  B: [50, 70],
};

const COLOURS: Record<Side, { fill: string; stroke: string; letter: string }> = {
  b: { fill: '#fbf3df', stroke: '#2b2118', letter: '#2b2118' },
  t: { fill: '#9f1239', stroke: '#2a0610', letter: '#fff1f2' },
};

/** An SVG group drawing one piece in the square whose top-left corner is (x, y)
 *  and side is `size` units. */
export function pieceGroup(kind: Kind, side: Side, x: number, y: number, size: number): SVGGElement {
  const g = document.createElementNS(SVG, 'g');
  g.setAttribute('transform', `translate(${x} ${y}) scale(${size / 100})`);
  g.setAttribute('class', `piece piece-${side}`);
  const c = COLOURS[side];
  if (lettersOnly()) {
    // the settings' "letters only": a disc in the side's colours, the letter large
    const disc = document.createElementNS(SVG, 'circle');
    disc.setAttribute('cx', '50');
    disc.setAttribute('cy', '50');
    disc.setAttribute('r', '40');
    disc.setAttribute('fill', c.fill);
    disc.setAttribute('stroke', c.stroke);
    disc.setAttribute('stroke-width', '4');
    const big = document.createElementNS(SVG, 'text');
    big.setAttribute('x', '50');
    big.setAttribute('y', '66');
    big.setAttribute('text-anchor', 'middle');
    big.setAttribute('font-size', '46');
    big.setAttribute('font-weight', '700');
    big.setAttribute('font-family', 'system-ui, sans-serif');
    big.setAttribute('fill', c.letter);
    big.setAttribute('aria-hidden', 'true');
    big.setAttribute('class', 'piece-letter');
    big.textContent = kind;
    g.append(disc, big);
    return g;
  }
  for (const d of SHAPES[kind]) {
    const p = document.createElementNS(SVG, 'path');
    p.setAttribute('d', d);
    p.setAttribute('fill', c.fill);
    p.setAttribute('stroke', c.stroke);
    p.setAttribute('stroke-width', '4');
    p.setAttribute('stroke-linejoin', 'round');
    g.appendChild(p);
  }
  if (kind === 'N') {
    const eye = document.createElementNS(SVG, 'circle');
    eye.setAttribute('cx', '50');
    eye.setAttribute('cy', '30');
    eye.setAttribute('r', '4');
    eye.setAttribute('fill', c.stroke);
    g.appendChild(eye);
  }
  const t = document.createElementNS(SVG, 'text');
  const [lx, ly] = LETTER_AT[kind];
  t.setAttribute('x', String(lx));
  t.setAttribute('y', String(ly));
  t.setAttribute('text-anchor', 'middle');
  t.setAttribute('font-size', '24');
  t.setAttribute('font-weight', '700');
  t.setAttribute('font-family', 'system-ui, sans-serif');
  t.setAttribute('fill', c.letter);
  t.setAttribute('aria-hidden', 'true');
  t.textContent = kind;
  g.appendChild(t);
  return g;
}

/** A small standalone SVG of one piece, for legends and text. */
export function pieceIcon(kind: Kind, side: Side, px = 28): SVGSVGElement {
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', '0 0 100 100');
  svg.setAttribute('width', String(px));
  svg.setAttribute('height', String(px));
  svg.setAttribute('class', 'piece-icon');
  svg.setAttribute('aria-hidden', 'true');
  svg.appendChild(pieceGroup(kind, side, 0, 0, 100));
  return svg;
}
