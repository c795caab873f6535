import t from 'tap';
import { DEFAULT_MODELS } from '../../../../src/catalog/model.js';
import { customerLimitsLookup, reservedTokens, usedTokens } from '../../../../src/policy/ratelimit/request-limits.js';

const model = { ...DEFAULT_MODELS[1]!, defaultMaxTokens: 777 };

t.test('reservedTokens', async (t) => {
  const cases: Array<[string, Record<string, unknown>, 'messages' | 'chat', number]> = [
    ['messages max_tokens', { max_tokens: 100 }, 'messages', 100],
    ['messages without max_tokens (count_tokens)', {}, 'messages', 0],
    ['messages max_tokens of a wrong type', { max_tokens: '5' }, 'messages', 0],
    ['messages negative', { max_tokens: -3 }, 'messages', 0],
    ['messages fractional', { max_tokens: 9.7 }, 'messages', 9],
    ['chat max_tokens', { max_tokens: 50 }, 'chat', 50],
    ['chat max_completion_tokens wins', { max_tokens: 50, max_completion_tokens: 70 }, 'chat', 70],
    ['chat default from the catalogue', {}, 'chat', 777],
    ['chat infinite', { max_tokens: Infinity }, 'chat', 777],
    ['chat above the model cap: what is sent upstream', { max_tokens: 1_000_000 }, 'chat', model.maxOutputTokens!],
    ['messages above the model cap', { max_tokens: 1_000_000 }, 'messages', model.maxOutputTokens!],
  ];
  for (const [name, body, surface, expected] of cases) t.equal(reservedTokens(body, surface, model), expected, name);
});

t.test('usedTokens counts every input token and the output', async (t) => {
  t.equal(usedTokens({ input: 1, output: 2, cacheRead: 4, cacheWrite: 8 }), 15);
});

t.test('customerLimitsLookup: by name, `*` for the rest, null without either', async (t) => {
  const lookup = customerLimitsLookup({ acme: { rpm: 5, tpm: null }, '*': { rpm: 100, tpm: 1000 } });
  t.same(lookup('acme'), { rpm: 5, tpm: null });
  t.same(lookup('globex'), { rpm: 100, tpm: 1000 });
  t.equal(customerLimitsLookup({})('acme'), null);
  t.equal(customerLimitsLookup({ acme: { rpm: 1, tpm: null } })('globex'), null);
  t.equal(customerLimitsLookup({ acme: { rpm: 1, tpm: null } })('__proto__'), null, 'no prototype lookups');
});
