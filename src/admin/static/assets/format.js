// @ts-check
// How values read on the pages: times in UTC, counts with thousands separators.
import { h } from './dom.js';

const numbers = new Intl.NumberFormat('en-US');

/** @param {number} n */
export function count(n) {
  return numbers.format(n);
}

/**
 * A time as "2025-03-04 13:05" (UTC: column headers say so) in a <time> element, or the fallback text.
 * @param {string | null} iso
 * @param {string} [fallback]
 * @returns {Node | string}
 */
export function when(iso, fallback = '—') {
  if (iso === null) return fallback;
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return h('time', { datetime: d.toISOString() }, d.toISOString().slice(0, 16).replace('T', ' '));
}

/** YYYY-MM-DD of a Date in UTC. @param {Date} d */
export function day(d) {
  return d.toISOString().slice(0, 10);
}

/** The day `n` days before today (UTC). @param {number} n */
export function daysAgo(n) {
  return day(new Date(Date.now() - n * 86_400_000));
}
