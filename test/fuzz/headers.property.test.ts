// Property: whatever headers a client sends, no credential of the client is forwarded upstream; the
// upstream credential is the gateway's own; the gateway's own x-gateway-* and hop-by-hop headers
// stay here. Credentials carry a marker that no other generated value contains.
import fc from 'fast-check';
import t from 'tap';
import type { IncomingHttpHeaders } from 'node:http';
import { builtRequestHeaders, forwardedRequestHeaders, proxiedRequestHeaders } from '../../src/providers/anthropic/headers.js';

const UPSTREAM_KEY = 'sk-upstream-fuzz-0123456789';
const MARK = '\u00a7cred';
const CREDENTIALS = ['authorization', 'x-api-key', 'cookie', 'proxy-authorization'];
const HOP = ['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'host'];
const OTHER = [...HOP, 'x-gateway-strict', 'x-gateway-anything', 'anthropic-beta', 'anthropic-version', 'vendor-version', 'content-length', 'constructor', 'toString', 'hasOwnProperty'];

const plainValue = fc.string({ maxLength: 40 }).filter((s) => !s.includes(MARK));
const other = fc.tuple(fc.oneof(fc.constantFrom(...OTHER), fc.stringMatching(/^[a-z0-9!#$%&'*+.^_`|~-]{1,20}$/)), plainValue);
const credential = fc.tuple(fc.constantFrom(...CREDENTIALS), fc.string({ maxLength: 20 }).map((s) => `Bearer ${MARK}${s}`));

/** Node's parsed headers: lowercase names; only set-cookie is ever an array. */
const incoming = fc.array(fc.oneof(other, credential), { maxLength: 20 }).map((pairs) => {
  const headers: Record<string, string> = {};
  for (const [name, value] of pairs) Object.defineProperty(headers, name, { value, enumerable: true, configurable: true, writable: true });
  return headers as IncomingHttpHeaders;
});

const leaks = (out: Record<string, string>) => Object.entries(out).some(([n, v]) => n.includes(MARK) || v.includes(MARK));

t.test('the messages surface forwards no client credential', async (t) => {
  fc.assert(
    fc.property(incoming, (h) => {
      const out = forwardedRequestHeaders(h, UPSTREAM_KEY);
      if (leaks(out) || out['x-api-key'] !== UPSTREAM_KEY) return false;
      if (['authorization', 'cookie', 'proxy-authorization', ...HOP].some((n) => Object.hasOwn(out, n))) return false;
      return !Object.keys(out).some((n) => n.startsWith('x-gateway-'));
    }),
    { numRuns: 3000 },
  );
  t.equal(({} as Record<string, unknown>).polluted, undefined);
});

t.test('the chat surface builds its headers: only version, beta and the gateway credential', async () => {
  const allowed = new Set(['content-type', 'accept', 'anthropic-version', 'anthropic-beta', 'x-api-key']);
  fc.assert(
    fc.property(incoming, (h) => {
      const out = builtRequestHeaders(h, UPSTREAM_KEY);
      return !leaks(out) && out['x-api-key'] === UPSTREAM_KEY && Object.keys(out).every((n) => allowed.has(n));
    }),
    { numRuns: 3000 },
  );
});

t.test('the local proxy replaces every client credential by the gateway key', async () => {
  fc.assert(
    fc.property(incoming, (h) => {
      const out = proxiedRequestHeaders(h, 'mgw_proxykey');
      return !leaks(out) && out.authorization === 'Bearer mgw_proxykey' && !['x-api-key', 'cookie', 'proxy-authorization'].some((n) => Object.hasOwn(out, n));
    }),
    { numRuns: 2000 },
  );
});
