// Reading the provider's rate-limit headers: the remaining counts, and until when a route has none.
import t from 'tap';
import { readHeadroom } from '../../../../src/policy/routing/headroom.js';
import { rawAnswerHead } from '../../../helpers/raw-answer-head.js';

const NOW = Date.parse('2026-11-28T10:00:00Z');


t.test('readings, table-driven', async (t) => {
  const cases: Array<[string, Record<string, string | string[]>, ReturnType<typeof readHeadroom>]> = [
    ['no rate-limit headers', { 'content-type': 'application/json' }, null],
    [
      'every kind has some left',
      { 'anthropic-ratelimit-requests-remaining': '49', 'anthropic-ratelimit-requests-reset': '2026-11-28T10:00:30Z', 'anthropic-ratelimit-tokens-remaining': '78000' },
      { remaining: { requests: 49, tokens: 78000 }, exhaustedUntil: null },
    ],
    [
      'requests at 0 until their reset',
      { 'anthropic-ratelimit-requests-remaining': '0', 'anthropic-ratelimit-requests-reset': '2026-11-28T10:00:12Z', 'anthropic-ratelimit-tokens-remaining': '5000' },
      { remaining: { requests: 0, tokens: 5000 }, exhaustedUntil: NOW + 12000 },
    ],
    [
      'two kinds at 0: the later reset',
      {
        'anthropic-ratelimit-input-tokens-remaining': '0',
        'anthropic-ratelimit-input-tokens-reset': '2026-11-28T10:00:20Z',
        'anthropic-ratelimit-output-tokens-remaining': '0',
        'anthropic-ratelimit-output-tokens-reset': '2026-11-28T10:00:05Z',
      },
      { remaining: { 'input-tokens': 0, 'output-tokens': 0 }, exhaustedUntil: NOW + 20000 },
    ],
    ['at 0 without a reset: a second', { 'anthropic-ratelimit-requests-remaining': '0' }, { remaining: { requests: 0 }, exhaustedUntil: NOW + 1000 }],
    ['at 0 with a reset already past: usable', { 'anthropic-ratelimit-requests-remaining': '0', 'anthropic-ratelimit-requests-reset': '2026-11-28T09:59:59Z' }, { remaining: { requests: 0 }, exhaustedUntil: null }],
    ['garbage counts are ignored', { 'anthropic-ratelimit-requests-remaining': 'lots', 'anthropic-ratelimit-tokens-remaining': '-1' }, null],
    ['a repeated header: the first', { 'anthropic-ratelimit-requests-remaining': ['3', '0'] }, { remaining: { requests: 3 }, exhaustedUntil: null }],
  ];
  for (const [name, headers, want] of cases) t.same(readHeadroom(rawAnswerHead(headers), NOW), want, name);
});
