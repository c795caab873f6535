import t from 'tap';
import type { ModelInfo } from '../../../../../src/dialects/anthropic/wire.js';
import { parseOptions } from '../../../../../src/apps/simulator/http/control.js';
import { FaultQueue, parseFault } from '../../../../../src/apps/simulator/http/faults.js';
import { buildModelIndex, defaultModelInfos, pageModels, parsePageQuery, takesOnlyDefaultSampling } from '../../../../../src/apps/simulator/models.js';

function model(id: string, day: number): ModelInfo {
  return { type: 'model', id, display_name: id, created_at: `2026-01-${String(day).padStart(2, '0')}T00:00:00Z` };
}

const index = buildModelIndex([model('a', 1), model('c', 3), model('b', 2), model('e', 5), model('d', 4)]);

t.test('models are listed newest first', async (t) => {
  t.same(index.ordered.map((m) => m.id), ['e', 'd', 'c', 'b', 'a']);
  t.same(buildModelIndex(defaultModelInfos()).ordered.map((m) => m.id), ['claude-opus-4-7', 'claude-sonnet-4-6', 'claude-haiku-4-5-20251001']);
});

// [query, ids, has_more, first_id, last_id]
const PAGES: Array<[string, string[], boolean, string | null, string | null]> = [
  ['', ['e', 'd', 'c', 'b', 'a'], false, 'e', 'a'],
  ['limit=2', ['e', 'd'], true, 'e', 'd'],
  ['limit=2&after_id=d', ['c', 'b'], true, 'c', 'b'],
  ['limit=2&after_id=b', ['a'], false, 'a', 'a'],
  ['limit=2&before_id=b', ['d', 'c'], true, 'd', 'c'],
  ['limit=2&before_id=d', ['e'], false, 'e', 'e'],
  ['after_id=a', [], false, null, null],
];

for (const [query, ids, hasMore, first, last] of PAGES) {
  t.test(`page "${query}"`, async (t) => {
    const q = parsePageQuery(new URLSearchParams(query));
    if ('status' in q) throw new Error(q.message);
    const page = pageModels(index.ordered, q);
    t.same(page.data.map((m) => m.id), ids);
    t.same([page.has_more, page.first_id, page.last_id], [hasMore, first, last]);
  });
}

t.test('limit outside 1-1000 is a 400', async (t) => {
  for (const [limit, message] of [
    ['0', 'limit: Input should be greater than or equal to 1'],
    ['1001', 'limit: Input should be less than or equal to 1000'],
    ['x', 'limit: Input should be a valid integer, unable to parse string as an integer'],
  ]) {
    t.match(parsePageQuery(new URLSearchParams({ limit })), { status: 400, type: 'invalid_request_error', message });
  }
});

t.test('aliases of the default models resolve', async (t) => {
  t.equal(buildModelIndex(defaultModelInfos()).find('claude-haiku-4-5')?.id, 'claude-haiku-4-5-20251001');
});

t.test('models released after Opus 4.6 take only default sampling', async (t) => {
  const table: Array<[string, boolean]> = [
    ['claude-opus-4-7', true],
    ['claude-opus-4-8', true],
    ['claude-sonnet-5-0', true],
    ['claude-opus-4-6', false],
    ['claude-sonnet-4-6', false],
    ['claude-haiku-4-5-20251001', false],
    ['claude-3-5-sonnet-20241022', false],
    ['custom-model', false],
  ];
  for (const [id, expected] of table) t.equal(takesOnlyDefaultSampling(id), expected, id);
});

t.test('fault queue hands each fault to `count` requests in order', async (t) => {
  const q = new FaultQueue();
  q.add({ kind: 'malformed-json' }, 2);
  q.add({ kind: 'reset-before-headers' });
  q.add({ kind: 'hang-before-headers' }, 0);
  t.same([q.take(), q.take(), q.take(), q.take()], [{ kind: 'malformed-json' }, { kind: 'malformed-json' }, { kind: 'reset-before-headers' }, null]);
  q.add({ kind: 'malformed-json' }, 5);
  q.clear();
  t.equal(q.take(), null);
});

t.test('faults sent as JSON are checked', async (t) => {
  const good: unknown[] = [
    { kind: 'status', status: 529 },
    { kind: 'status', status: 429, errorType: 'rate_limit_error', message: 'slow down', retryAfter: 3 },
    { kind: 'reset-before-headers' },
    { kind: 'hang-before-headers' },
    { kind: 'reset-mid-stream', afterEvents: 2 },
    { kind: 'stall-mid-stream', afterEvents: 0 },
    { kind: 'error-event', afterEvents: 3, errorType: 'overloaded_error' },
    { kind: 'malformed-json' },
    { kind: 'malformed-sse', afterEvents: 1 },
  ];
  for (const f of good) t.equal(typeof parseFault(f), 'object', JSON.stringify(f));
  const bad: Array<[unknown, string]> = [
    [null, 'fault must be an object'],
    [{ kind: 'explode' }, 'unknown fault kind: explode'],
    [{ kind: 'status', status: 200 }, 'status must be an HTTP error status (400-599)'],
    [{ kind: 'reset-mid-stream' }, 'afterEvents must be a non-negative integer'],
    [{ kind: 'error-event', afterEvents: 1, message: 5 }, 'errorType and message must be strings'],
  ];
  for (const [f, reason] of bad) t.equal(parseFault(f), reason);
});

t.test('options sent as JSON are checked', async (t) => {
  t.same(parseOptions({ ttftMs: 5, tokensPerSecond: 100, replyTokens: 3, apiKey: null, record: true }), {
    ttftMs: 5,
    tokensPerSecond: 100,
    replyTokens: 3,
    apiKey: undefined,
    record: true,
  });
  t.equal(parseOptions({ ttftMs: -1 }), 'ttftMs must be a non-negative number');
  t.equal(parseOptions({ colour: 'red' }), 'unknown option: colour');
  t.equal(parseOptions({ models: [{ id: 'x' }] }), 'models must be an array of ModelInfo objects');
});
