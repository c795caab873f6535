// The start of an audit listing (`audit --since`, the API's `since`): a UTC day YYYY-MM-DD (from its
// midnight) or a moment in ISO 8601 with its zone (2026-03-01T10:00:00Z, ...+02:00).
import { isDay } from '../../metering/usage-store.js';

const MOMENT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

export const SINCE_FORMAT = 'a date YYYY-MM-DD (UTC) or an ISO 8601 time with its zone';

/** Epoch milliseconds, or null when the text is neither form. */
export function auditSinceMs(text: string): number | null {
  if (isDay(text)) return Date.parse(`${text}T00:00:00Z`);
  if (!MOMENT.test(text)) return null;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? null : ms;
}
