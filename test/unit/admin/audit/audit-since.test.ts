// The start of an audit listing: a UTC day or an ISO 8601 time with its zone; anything else is refused.
import t from 'tap';
import { auditSinceMs } from '../../../../src/admin/audit/audit-since.js';

const CASES: Array<[string, number | null]> = [
  ['2026-03-01', Date.parse('2026-03-01T00:00:00Z')],
  ['2026-03-01T10:00:00Z', Date.parse('2026-03-01T10:00:00Z')],
  ['2026-03-01T10:00Z', Date.parse('2026-03-01T10:00:00Z')],
  ['2026-03-01T10:00:00.123+02:00', Date.parse('2026-03-01T08:00:00.123Z')],
  ['2026-02-30', null],
  ['2026-03-01T10:00:00', null],
  ['yesterday', null],
  ['', null],
  ['1700000000000', null],
];

for (const [text, expected] of CASES) {
  t.test(JSON.stringify(text), async (t) => {
    t.equal(auditSinceMs(text), expected);
  });
}
