// chart.ts -- a rating history drawn as an SVG line, no library, dated:
// the first and last games' dates under the ends of the line, and each
// point's date in its tooltip.

import { formatDate } from './ui';

const SVG = 'http://www.w3.org/2000/svg';

function el(name: string, attrs: Record<string, string | number>): SVGElement {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

/** A line through the ratings after each game, the first point being the
 *  rating before the first game; `time` is when each game was played. */
export function ratingChart(points: { before: number; after: number; time?: number }[], label: string): SVGSVGElement {
  const W = 600, H = 220, L = 48, R = 12, T = 12, B = 28;
  const values = points.length ? [points[0].before, ...points.map((p) => p.after)] : [1500];
  let lo = Math.min(...values), hi = Math.max(...values);
  if (hi - lo < 40) { lo -= 20; hi += 20; }
  const pad = (hi - lo) * 0.08;
  lo = Math.floor((lo - pad) / 10) * 10;
  hi = Math.ceil((hi + pad) / 10) * 10;
  const x = (i: number) => L + (values.length === 1 ? 0 : (i * (W - L - R)) / (values.length - 1));
  const y = (v: number) => T + ((hi - v) * (H - T - B)) / (hi - lo);

  const svg = el('svg', { viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': label }) as SVGSVGElement;
  const title = el('title', {});
  title.textContent = label;
  svg.appendChild(title);
  // four horizontal grid lines with their ratings
  for (let k = 0; k <= 3; k++) {
    const v = lo + ((hi - lo) * k) / 3;
    svg.appendChild(el('line', { x1: L, x2: W - R, y1: y(v), y2: y(v), class: 'grid' }));
    const t = el('text', { x: L - 6, y: y(v) + 4, 'text-anchor': 'end' });
    t.textContent = String(Math.round(v));
    svg.appendChild(t);
  }
  svg.appendChild(el('line', { x1: L, x2: L, y1: T, y2: H - B, class: 'axis' }));
  svg.appendChild(el('line', { x1: L, x2: W - R, y1: H - B, y2: H - B, class: 'axis' }));
  const games = `${values.length - 1} ${values.length - 1 === 1 ? 'game' : 'games'}`;
  const from = formatDate(points[0]?.time), to = formatDate(points[points.length - 1]?.time);
  const first = el('text', { x: L, y: H - 8 });
  first.textContent = from || 'start';
  const last = el('text', { x: W - R, y: H - 8, 'text-anchor': 'end' });
  last.textContent = to && to !== from ? `${to} · ${games}` : games;
  svg.append(first, last);
  svg.appendChild(el('polyline', { points: values.map((v, i) => `${x(i)},${y(v)}`).join(' '), class: 'line' }));
  values.forEach((v, i) => {
    const c = el('circle', { cx: x(i), cy: y(v), r: values.length > 60 ? 1.5 : 3, fill: '#1d4ed8' });
    const tt = el('title', {});
    const when = i === 0 ? '' : formatDate(points[i - 1].time);
    tt.textContent = i === 0 ? `start: ${Math.round(v)}` : `after game ${i}${when ? ` (${when})` : ''}: ${Math.round(v)}`;
    c.appendChild(tt);
    svg.appendChild(c);
  });
  return svg;
}
