// `model-gateway usage --format csv`: the invoicing export, one row per day, customer, model and provider, oldest
// day first, cost as an exact USD decimal string. RFC 4180: CRLF line ends, fields with a comma, quote
// or line break quoted; a name that a spreadsheet would read as a formula starts with a quote.
// No totals row, so a spreadsheet or billing import can sum the rows itself. What is priced apart is in
// columns of its own, so each row's cost can be checked against the price list: cache_write_1h_tokens
// (the part of cache_write_tokens written for 1 hour) and web_searches (server tool uses, per use).
import type { UsageRow } from '../../metering/usage-store.js';
import { formatUsd } from '../../metering/cost.js';

export const USAGE_CSV_HEADER = [
  'day',
  'customer_id',
  'customer',
  'model',
  'provider',
  'requests',
  'errors',
  'input_tokens',
  'output_tokens',
  'cache_read_tokens',
  'cache_write_tokens',
  'cache_write_1h_tokens',
  'web_searches',
  'cost_usd',
] as const;

export function usageCsv(rows: readonly UsageRow[]): string {
  // The store lists newest day first, customers and models sorted within a day; a stable sort on the
  // day alone keeps that order inside each day.
  const chronological = [...rows].sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0));
  const lines = [USAGE_CSV_HEADER.join(',')];
  for (const r of chronological) {
    lines.push(
      [
        r.day,
        r.customerId ?? '',
        r.customerName ?? '',
        r.model,
        r.provider ?? '',
        r.requests,
        r.errors,
        r.inputTokens,
        r.outputTokens,
        r.cacheReadTokens,
        r.cacheWriteTokens,
        r.cacheWrite1hTokens,
        r.webSearches,
        formatUsd(r.costNanoUsd),
      ]
        .map(csvField)
        .join(','),
    );
  }
  return lines.join('\r\n') + '\r\n';
}

/**
 * A text cell a spreadsheet could run as a formula (OWASP "CSV injection"): one that starts with a formula
 * character or a tab or carriage return, also after leading spaces, or that has a formula character after
 * any separator a spreadsheet may split on (comma, semicolon, tab, pipe, line break), spaces between
 * included (finding N8: only the first character was checked). Such a cell is prefixed with a quote and
 * always quoted, so it stays one text cell.
 */
const FORMULA = /(^\s*[=+\-@\t\r])|([,;\t|\r\n]\s*[=+\-@])/;

function csvField(value: string | number): string {
  if (typeof value === 'string' && FORMULA.test(value)) return `"'${value.replace(/"/g, '""')}"`;
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
