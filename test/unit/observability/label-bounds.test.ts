import t from 'tap';
import { cappedLabel, fixedLabel, runtimeSetLabel, statusClass } from '../../../src/observability/label-bounds.js';

t.test('status classes', async (t) => {
  const table: [number, string][] = [
    [100, '1xx'],
    [200, '2xx'],
    [204, '2xx'],
    [301, '3xx'],
    [404, '4xx'],
    [499, '4xx'],
    [529, '5xx'],
    [599, '5xx'],
    [0, 'other'],
    [99, 'other'],
    [600, 'other'],
    [-1, 'other'],
    [Number.NaN, 'other'],
  ];
  for (const [status, want] of table) t.equal(statusClass(status), want, String(status));
});

t.test('a fixed list keeps its values and maps the rest to other', async (t) => {
  const f = fixedLabel(['a', 'b']);
  t.same(['a', 'b', 'c', '', 'A'].map(f), ['a', 'b', 'other', 'other', 'other']);
});

t.test('a capped set keeps identifiers up to the cap', async (t) => {
  const f = cappedLabel(2);
  const table: [string, string][] = [
    ['ignored_field', 'ignored_field'],
    ['has space', 'other'],
    ['', 'other'],
    ['x'.repeat(65), 'other'],
    ['temperature_clamped', 'temperature_clamped'],
    ['third', 'other'],
    ['ignored_field', 'ignored_field'],
  ];
  for (const [input, want] of table) t.equal(f(input), want, input);
});

t.test('a run-time set is read on every call and keeps its pass-through values', async (t) => {
  const known = new Set(['m1']);
  const f = runtimeSetLabel(() => known, ['none'], 0);
  t.same(['m1', 'm2', 'none'].map(f), ['m1', 'other', 'none']);
  known.add('m2');
  t.equal(f('m2'), 'm2');
});

t.test('without a source, a run-time set keeps any short text up to its cap', async (t) => {
  const f = runtimeSetLabel(undefined, ['none'], 2);
  const table: [string, string][] = [
    ['Acme Inc.', 'Acme Inc.'],
    ['', 'other'],
    ['y'.repeat(129), 'other'],
    ['Globex', 'Globex'],
    ['Initech', 'other'],
    ['none', 'none'],
    ['Acme Inc.', 'Acme Inc.'],
  ];
  for (const [input, want] of table) t.equal(f(input), want, input);
});
