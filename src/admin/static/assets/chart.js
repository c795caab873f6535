// @ts-check
// A stacked bar chart as inline SVG: one bar per day, one segment per series (a model). No library, no
// network; the table beside it carries the same numbers for screen readers.

const SVG = 'http://www.w3.org/2000/svg';
export const PALETTE = ['#1f4e8c', '#d9822b', '#2e8b57', '#8e44ad', '#c0392b', '#16a085', '#7f8c8d', '#b7950b'];

/**
 * @param {string} tag
 * @param {Record<string, string | number>} attrs
 * @param {string} [text]
 */
function el(tag, attrs, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}

/** The smallest of 1, 2 or 5 times a power of ten that is at least `x`. @param {number} x */
function roundUp(x) {
  const power = 10 ** Math.floor(Math.log10(x));
  return [1, 2, 5, 10].map((m) => m * power).find((v) => v >= x) ?? 10 * power;
}

/**
 * Axis ticks: a round step (at least `minStep`: 1 for counts, a fraction for dollars), and about four of
 * them up to at least `max`.
 * @param {number} max
 * @param {number} [minStep]
 */
export function axisTicks(max, minStep = 1) {
  const step = Math.max(minStep, roundUp(max / 4));
  const top = Math.max(step, Math.ceil(max / step) * step);
  // toPrecision: 3 × 0.1 is 0.30000000000000004 in binary; the tick reads 0.3.
  return Array.from({ length: Math.round(top / step) + 1 }, (_, i) => +(i * step).toPrecision(12));
}

/** @param {number} n */
function short(n) {
  if (n >= 1e9) return `${+(n / 1e9).toFixed(1)}G`;
  if (n >= 1e6) return `${+(n / 1e6).toFixed(1)}M`;
  if (n >= 1e3) return `${+(n / 1e3).toFixed(1)}k`;
  return String(n);
}

/**
 * @param {{ title: string, days: string[], series: Array<{ name: string, values: number[] }>, minStep?: number }} data
 * @returns {SVGSVGElement}
 */
export function stackedBarChart({ title, days, series, minStep }) {
  const width = 720;
  const height = 260;
  const pad = { top: 12, right: 8, bottom: 36, left: 48 };
  const plotW = width - pad.left - pad.right;
  const plotH = height - pad.top - pad.bottom;
  const totals = days.map((_, i) => series.reduce((sum, s) => sum + s.values[i], 0));
  const ticks = axisTicks(Math.max(0, ...totals), minStep);
  const top = ticks[ticks.length - 1];
  const slot = plotW / Math.max(1, days.length);
  const barW = Math.max(1, Math.min(32, slot * 0.7));
  const y = (/** @type {number} */ v) => pad.top + plotH - (v / top) * plotH;

  const svg = /** @type {SVGSVGElement} */ (el('svg', { viewBox: `0 0 ${width} ${height}`, role: 'img', class: 'chart' }));
  svg.append(el('title', {}, title));
  for (const v of ticks) {
    svg.append(el('line', { x1: pad.left, x2: width - pad.right, y1: y(v), y2: y(v), class: 'grid' }));
    svg.append(el('text', { x: pad.left - 6, y: y(v) + 4, 'text-anchor': 'end', class: 'axis' }, short(v)));
  }
  const labelEvery = Math.ceil(days.length / 8);
  days.forEach((day, i) => {
    const x = pad.left + slot * i + (slot - barW) / 2;
    let base = 0;
    series.forEach((s, k) => {
      const v = s.values[i];
      if (v <= 0) return;
      const rect = el('rect', { x, y: y(base + v), width: barW, height: y(base) - y(base + v), fill: PALETTE[k % PALETTE.length] });
      rect.append(el('title', {}, `${day} · ${s.name}: ${v}`));
      svg.append(rect);
      base += v;
    });
    if (i % labelEvery === 0) svg.append(el('text', { x: x + barW / 2, y: height - pad.bottom + 16, 'text-anchor': 'middle', class: 'axis' }, day.slice(5)));
  });
  return svg;
}
