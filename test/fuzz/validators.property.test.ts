// Properties of the validators and parsers that see client or upstream input: they never throw, and
// they agree with a plain reference where there is one.
import fc from 'fast-check';
import t from 'tap';
import { DEFAULT_MODELS } from '../../src/catalog/model.js';
import { ConfigError } from '../../src/config/config-error.js';
import { loadConfig } from '../../src/config/config.js';
import { parseKey } from '../../src/keys/key-format.js';
import { addressGroup } from '../../src/policy/ratelimit/auth-throttle.js';
import { reservedTokens } from '../../src/policy/ratelimit/request-limits.js';
import { upstreamBodyFailure } from '../../src/policy/resilience/body-failure.js';
import { messagesToAnthropic } from '../../src/dialects/translators/messages-to-anthropic/translator.js';
import { retryAfterMs } from '../../src/policy/resilience/retry-policy.js';
import { translateUpstreamError } from '../../src/dialects/translators/openai-shared/error.js';
import { exceedsJsonDepth } from '../../src/lib/json/json-depth.js';

const sonnet = DEFAULT_MODELS.find((m) => m.id === 'claude-sonnet-4-6')!;

function depthOf(v: unknown): number {
  if (v === null || typeof v !== 'object') return 0;
  const children = Array.isArray(v) ? v : Object.values(v as Record<string, unknown>);
  return 1 + children.reduce<number>((m, c) => Math.max(m, depthOf(c)), 0);
}

t.test('exceedsJsonDepth agrees with a recursive reference', async () => {
  fc.assert(
    fc.property(fc.jsonValue({ maxDepth: 12 }), fc.integer({ min: 1, max: 14 }), (v, max) => exceedsJsonDepth(v, max) === depthOf(v) > max),
    { numRuns: 3000 },
  );
});

t.test('retry-after parsing never throws and never gives a negative or infinite wait', async () => {
  const header = fc.option(fc.oneof(fc.string(), fc.double().map(String), fc.date({ noInvalidDate: true }).map((d) => d.toUTCString())), { nil: undefined });
  fc.assert(
    fc.property(header, header, (retryAfter, retryAfterMsValue) => {
      const ms = retryAfterMs({ 'retry-after': retryAfter, 'retry-after-ms': retryAfterMsValue });
      return ms === null || (Number.isFinite(ms) && ms >= 0);
    }),
    { numRuns: 3000 },
  );
});

t.test('re-translating any messages body for a fallback never throws and keeps its other fields', async (t) => {
  const passThrough = messagesToAnthropic;
  fc.assert(
    fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (json) => {
      const client = { body: Buffer.from(JSON.stringify(json)), json, query: '', strict: false, headers: {} };
      const out = passThrough.request(client, sonnet, true);
      if (!out.ok) return false;
      const after = JSON.parse(String(out.body)) as Record<string, unknown>;
      return after.model === sonnet.id && Object.keys(json).every((k) => k === 'model' || Object.hasOwn(after, k));
    }),
    { numRuns: 2000 },
  );
  t.equal(({} as Record<string, unknown>).polluted, undefined);
});

t.test('reservedTokens is a finite non-negative integer for any body', async () => {
  fc.assert(
    fc.property(fc.dictionary(fc.constantFrom('max_tokens', 'max_completion_tokens', 'model', 'x'), fc.jsonValue()), fc.constantFrom('messages', 'chat'), (body, surface) => {
      const n = reservedTokens(body, surface as 'messages' | 'chat', sonnet);
      return Number.isFinite(n) && Number.isInteger(n) && n >= 0;
    }),
    { numRuns: 2000 },
  );
});

t.test('an upstream error body of any bytes translates to the chat shape with the same status class', async () => {
  fc.assert(
    fc.property(fc.integer({ min: 300, max: 599 }), fc.oneof(fc.string(), fc.json(), fc.uint8Array().map((a) => Buffer.from(a).toString('latin1'))), (status, text) => {
      const out = translateUpstreamError(status, Buffer.from(text));
      const e = out.body.error;
      return out.status >= 300 && out.status <= 599 && typeof e.message === 'string' && typeof e.type === 'string' && (e.code === null || typeof e.code === 'string');
    }),
    { numRuns: 2000 },
  );
});

t.test('parsers of untrusted text never throw', async () => {
  fc.assert(
    fc.property(fc.string({ maxLength: 120 }), (s) => {
      parseKey(s);
      addressGroup(s);
      upstreamBodyFailure(Object.assign(new Error(s), { code: s }));
      return true;
    }),
    { numRuns: 3000 },
  );
});

t.test('GATEWAY_CUSTOMER_LIMITS: any text gives a config or a ConfigError, nothing else', async (t) => {
  fc.assert(
    fc.property(fc.oneof(fc.string(), fc.json()), (raw) => {
      try {
        const limits = loadConfig({ GATEWAY_CUSTOMER_LIMITS: raw }).rateLimits.customers;
        return Object.values(limits).every((l) => [l.rpm, l.tpm].every((n) => n === null || (Number.isInteger(n) && n >= 1)));
      } catch (err) {
        return err instanceof ConfigError;
      }
    }),
    { numRuns: 2000 },
  );
  t.equal(({} as Record<string, unknown>).polluted, undefined);
});
