// An account's rate limits (token buckets read at given instants) and its prompt cache (prefixes
// written on first sight, read within their lifetime), and the input tally they work from.
import t from 'tap';
import type { MessagesRequest } from '../../../../../src/dialects/anthropic/wire.js';
import { AccountLimits, rfc3339 } from '../../../../../src/apps/simulator/accounts/rate-limits.js';
import { PromptCache } from '../../../../../src/apps/simulator/accounts/prompt-cache.js';
import { inputWithHit, tallyInput } from '../../../../../src/apps/simulator/reply/estimate.js';

const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);
const MIN = 60_000;

t.test('a request bucket refuses the request over the limit and refills continuously', async (t) => {
  const limits = new AccountLimits({ requestsPerMinute: 3 });
  for (let i = 0; i < 3; i++) t.equal(limits.admit({ input: 10, output: 10 }, T0), null, `request ${i + 1}`);
  t.same(limits.admit({ input: 10, output: 10 }, T0), { dimension: 'requests', limit: 3, retryAfterSeconds: 20 }, 'one request refills in 20 s');
  t.equal(limits.headers(T0)['anthropic-ratelimit-requests-remaining'], '0');
  t.equal(limits.headers(T0)['anthropic-ratelimit-requests-reset'], rfc3339(T0 + MIN), 'full again a minute after the last');
  t.same(limits.admit({ input: 10, output: 10 }, T0 + 19_000), { dimension: 'requests', limit: 3, retryAfterSeconds: 1 });
  t.equal(limits.admit({ input: 10, output: 10 }, T0 + 20_000), null, 'refilled by then');
  limits.reset();
  t.equal(limits.headers(T0 + 20_000)['anthropic-ratelimit-requests-remaining'], '3', 'reset fills it');
});

t.test('input tokens: a request costing more than the bucket waits for a full one; the longest wait is named', async (t) => {
  const limits = new AccountLimits({ inputTokensPerMinute: 6000, requestsPerMinute: 60 });
  t.equal(limits.admit({ input: 9000, output: 1 }, T0), null, 'a full bucket takes it (and goes into debt)');
  const refused = limits.admit({ input: 100, output: 1 }, T0);
  t.same(refused, { dimension: 'input_tokens', limit: 6000, retryAfterSeconds: 31 }, '3,000 in debt plus 100: 31 s at 100 a second');
  t.equal(limits.admit({ input: 100, output: 1 }, T0 + 31_000), null);
});

t.test('output tokens are reserved at max_tokens and the unused part comes back', async (t) => {
  const limits = new AccountLimits({ outputTokensPerMinute: 10_000 });
  t.equal(limits.admit({ input: 0, output: 4000 }, T0), null);
  t.equal(limits.headers(T0)['anthropic-ratelimit-output-tokens-remaining'], '6000');
  limits.settleOutput(4000, 1000, T0);
  t.equal(limits.headers(T0)['anthropic-ratelimit-output-tokens-remaining'], '9000');
});

t.test('the headers: the whole set, tokens as the sum rounded to thousands, unmetered dimensions at fixed values', async (t) => {
  const limits = new AccountLimits({ requestsPerMinute: 50, inputTokensPerMinute: 30_000 });
  t.equal(limits.admit({ input: 1_400, output: 100 }, T0), null);
  const h = limits.headers(T0);
  t.same(Object.keys(h).sort(), [
    'anthropic-ratelimit-input-tokens-limit',
    'anthropic-ratelimit-input-tokens-remaining',
    'anthropic-ratelimit-input-tokens-reset',
    'anthropic-ratelimit-output-tokens-limit',
    'anthropic-ratelimit-output-tokens-remaining',
    'anthropic-ratelimit-output-tokens-reset',
    'anthropic-ratelimit-requests-limit',
    'anthropic-ratelimit-requests-remaining',
    'anthropic-ratelimit-requests-reset',
    'anthropic-ratelimit-tokens-limit',
    'anthropic-ratelimit-tokens-remaining',
    'anthropic-ratelimit-tokens-reset',
  ]);
  t.match(h, {
    'anthropic-ratelimit-requests-limit': '50',
    'anthropic-ratelimit-requests-remaining': '49',
    'anthropic-ratelimit-input-tokens-limit': '30000',
    'anthropic-ratelimit-input-tokens-remaining': '29000',
    'anthropic-ratelimit-input-tokens-reset': rfc3339(T0 + 2_800),
    'anthropic-ratelimit-output-tokens-limit': '400000',
    'anthropic-ratelimit-output-tokens-remaining': '400000',
    'anthropic-ratelimit-tokens-limit': '430000',
    'anthropic-ratelimit-tokens-remaining': '429000',
  });
  t.match(h['anthropic-ratelimit-requests-reset'], /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  const none = new AccountLimits().headers(T0);
  t.match(none, { 'anthropic-ratelimit-requests-limit': '4000', 'anthropic-ratelimit-requests-remaining': '3999', 'anthropic-ratelimit-tokens-limit': '2000000', 'anthropic-ratelimit-tokens-remaining': '1999000' });
});

const system = (text: string, ttl?: '1h') => [{ type: 'text' as const, text, cache_control: ttl === undefined ? { type: 'ephemeral' as const } : { type: 'ephemeral' as const, ttl } }];
function req(extra: Partial<MessagesRequest>): MessagesRequest {
  return { model: 'claude-sonnet-4-6', max_tokens: 10, messages: [{ role: 'user', content: 'q'.repeat(40) }], ...extra };
}

t.test('the tally notes each breakpoint: its prefix size, identity and lifetime', async (t) => {
  const two = tallyInput(req({ system: [...system('a'.repeat(400)), ...system('b'.repeat(400), '1h')] }));
  t.equal(two.total, 210);
  t.same(two.prefixes.map((p) => [p.tokens, p.longTtl]), [[100, false], [200, true]]);
  t.same(inputWithHit(two, -1), { input: 10, cacheRead: 0, cacheWrite: 200, cacheWrite1h: 100 });
  t.same(inputWithHit(two, 0), { input: 10, cacheRead: 100, cacheWrite: 100, cacheWrite1h: 100 });
  t.same(inputWithHit(two, 1), { input: 10, cacheRead: 200, cacheWrite: 0, cacheWrite1h: 0 });
  const same = tallyInput(req({ system: system('a'.repeat(400)), messages: [{ role: 'user', content: 'other question' }] }));
  t.equal(same.prefixes[0]!.key, two.prefixes[0]!.key, 'what follows the breakpoint does not change the prefix');
  t.not(tallyInput(req({ model: 'claude-opus-4-7', system: system('a'.repeat(400)) })).prefixes[0]!.key, two.prefixes[0]!.key, 'another model, another prefix');
  t.not(tallyInput(req({ system: system('c'.repeat(400)) })).prefixes[0]!.key, two.prefixes[0]!.key);
  t.same(tallyInput(req({})).prefixes, [], 'no breakpoint, no prefix');
});

t.test('the cache: written on first sight, read within its lifetime (which a read renews), gone after it', async (t) => {
  const cache = new PromptCache();
  const tally = tallyInput(req({ system: system('a'.repeat(400)) }));
  const first = cache.plan(tally, T0);
  t.same(first.input, { input: 10, cacheRead: 0, cacheWrite: 100, cacheWrite1h: 0 });
  t.same(cache.plan(tally, T0).input, first.input, 'planning alone writes nothing (a refused request changes nothing)');
  cache.commit(first, T0);
  const second = cache.plan(tally, T0 + 4 * MIN);
  t.same(second.input, { input: 10, cacheRead: 100, cacheWrite: 0, cacheWrite1h: 0 });
  cache.commit(second, T0 + 4 * MIN);
  t.equal(cache.plan(tally, T0 + 8 * MIN).input.cacheRead, 100, 'the read at 4 minutes renewed the 5 minutes');
  t.equal(cache.plan(tally, T0 + 9 * MIN + 1).input.cacheRead, 0, 'expired 5 minutes after the last use');
  const long = tallyInput(req({ system: system('a'.repeat(400), '1h') }));
  cache.commit(cache.plan(long, T0), T0);
  t.equal(cache.plan(long, T0 + 59 * MIN).input.cacheRead, 100, 'the one-hour lifetime');
  cache.clear();
  t.equal(cache.plan(long, T0 + MIN).input.cacheRead, 0, 'cleared');
});

t.test('with several breakpoints the longest cached prefix is read and the later ones written', async (t) => {
  const cache = new PromptCache();
  const short = tallyInput(req({ system: system('a'.repeat(400)) }));
  cache.commit(cache.plan(short, T0), T0);
  const longer = tallyInput(req({ system: [...system('a'.repeat(400)), ...system('b'.repeat(800))] }));
  t.same(cache.plan(longer, T0).input, { input: 10, cacheRead: 100, cacheWrite: 200, cacheWrite1h: 0 });
});
