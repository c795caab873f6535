// Plain-text output for the `keys` and `usage` commands: aligned columns and compact times.
import { escapeControlChars } from '../../lib/control-chars.js';

/** Left-aligned columns separated by two spaces; numbers are right-aligned; control characters shown escaped. */
export function formatTable(headers: string[], rows: Array<Array<string | number>>): string {
  const cells = [headers, ...rows.map((row) => row.map((cell) => escapeControlChars(String(cell))))];
  const widths = headers.map((_, i) => Math.max(...cells.map((row) => row[i].length)));
  const numeric = headers.map((_, i) => rows.length > 0 && rows.every((row) => typeof row[i] === 'number'));
  const line = (row: string[]) =>
    row
      .map((cell, i) => (numeric[i] ? cell.padStart(widths[i]) : cell.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  return cells.map(line).join('\n') + '\n';
}

/** `2030-01-02T03:04:05.678Z` → `2030-01-02 03:04:05Z`; null → `-`. */
export function shortTime(iso: string | null): string {
  return iso === null ? '-' : iso.replace('T', ' ').replace(/\.\d+Z$/, 'Z');
}

export function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
