// The access line's upstream timings at debug level, against a provider that takes a known time to
// answer: the gateway's own work before the call (upstreamSentMs) is small, the wait for the answer's
// headers (upstreamMs) holds the provider's delay, and both fall inside the request's duration.
import t from 'tap';
import { startHarness } from '../../helpers/harness.js';
import { bearer, call } from '../../helpers/http.js';

const MODEL = 'claude-sonnet-4-6';
// Long against the gateway's own work before the call, even a cold first request on a loaded runner
// (51 ms was seen against a 40 ms delay), so the two timings cannot be confused.
const PROVIDER_DELAY_MS = 300;

interface AccessLine {
  reqId: string;
  surface: string;
  status: number;
  durationMs: number;
  upstreamSentMs?: number;
  upstreamMs?: number;
}

t.test('at debug, each access line says when the call went upstream and when its answer came', async (t) => {
  const h = await startHarness({ env: { LOG_LEVEL: 'debug' }, simulator: { ttftMs: PROVIDER_DELAY_MS } });
  t.teardown(() => h.close());
  const { key } = await h.createKey();
  const body = (extra: object) => JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'hi' }], max_tokens: 8, ...extra });
  const cases = [
    { name: 'chat', path: '/gateway/openai/v1/chat/completions', headers: bearer(key), body: body({}) },
    { name: 'chat stream', path: '/gateway/openai/v1/chat/completions', headers: bearer(key), body: body({ stream: true }) },
    { name: 'messages', path: '/gateway/v1/messages', headers: bearer(key, { 'anthropic-version': '2023-06-01' }), body: body({}) },
    { name: 'messages stream', path: '/gateway/v1/messages', headers: bearer(key, { 'anthropic-version': '2023-06-01' }), body: body({ stream: true }) },
  ];
  const lineOf = (reqId: string): AccessLine | undefined =>
    h
      .logText()
      .split('\n')
      .filter((l) => l.includes('"msg":"request"'))
      .map((l) => JSON.parse(l) as AccessLine)
      .find((l) => l.reqId === reqId);

  for (const c of cases) {
    const res = await call(`${h.url}${c.path}`, { method: 'POST', headers: c.headers, body: c.body });
    t.equal(res.status, 200, `${c.name}: answered`);
    const line = lineOf(res.headers['x-request-id'] as string);
    if (line === undefined || line.upstreamSentMs === undefined || line.upstreamMs === undefined) {
      t.fail(`${c.name}: an access line with both upstream timings`, { line });
      continue;
    }
    t.ok(line.upstreamSentMs >= 0 && line.upstreamSentMs < PROVIDER_DELAY_MS, `${c.name}: dispatched before the provider's delay (${line.upstreamSentMs} ms)`);
    t.ok(line.upstreamMs - line.upstreamSentMs >= PROVIDER_DELAY_MS - 1, `${c.name}: the answer's headers came after the provider's delay (${line.upstreamSentMs} → ${line.upstreamMs} ms)`);
    t.ok(line.upstreamMs <= line.durationMs + 0.01, `${c.name}: within the request (${line.upstreamMs} ≤ ${line.durationMs} ms)`);
  }

  const refused = await call(`${h.url}/gateway/openai/v1/chat/completions`, { method: 'POST', headers: bearer('mgw_not_a_real_key_0000000000000000000000000000'), body: body({}) });
  t.equal(refused.status, 401);
  const line = lineOf(refused.headers['x-request-id'] as string);
  t.ok(line !== undefined && !('upstreamSentMs' in line) && !('upstreamMs' in line), 'a request refused before any call has no upstream timings');
});
