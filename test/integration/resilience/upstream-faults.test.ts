// Upstream faults, each on both surfaces, streamed and not: the documented status or final stream
// event (docs/contract.md), no crash, no socket or timer left behind, and usage recorded for what arrived.
import t from 'tap';
import type { Test } from 'tap';
import { Agent, request } from 'undici';
import type { Fault } from '../../../src/apps/simulator/index.js';
import type { Harness } from '../../helpers/harness.js';
import { startHarness } from '../../helpers/harness.js';
import { bearer } from '../../helpers/http.js';
import { waitFor } from '../../helpers/wait.js';
import type { Resources } from './fixtures/resources.js';
import { above, quietBaseline, resources, settled } from './fixtures/resources.js';
import { closedPort } from './fixtures/closed-port.js';

const MODEL = 'claude-sonnet-4-6';
const PATHS = { messages: '/gateway/v1/messages', chat: '/gateway/openai/v1/chat/completions' } as const;
type Surface = keyof typeof PATHS;

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

async function send(h: Harness, key: string, surface: Surface, stream: boolean, dispatcher: Agent): Promise<Answer> {
  const body = JSON.stringify({ model: MODEL, max_tokens: 64, stream, messages: [{ role: 'user', content: 'tell me something' }] });
  const res = await request(`${h.url}${PATHS[surface]}`, { method: 'POST', headers: bearer(key), body, dispatcher });
  let text = '';
  try {
    for await (const chunk of res.body) text += (chunk as Buffer).toString('utf8');
  } catch {
    text += '<<cut>>';
  }
  return { status: res.statusCode, headers: res.headers, text };
}

/** The final event of a stream in the surface's format: [type, code-or-null]. */
function finalError(surface: Surface, text: string): [string, string | null] | null {
  const frames = text.trim().split('\n\n');
  if (surface === 'messages') {
    const last = frames.at(-1) ?? '';
    if (!last.startsWith('event: error')) return null;
    const data = JSON.parse(last.slice(last.indexOf('data: ') + 6));
    return [data.error.type, null];
  }
  if (frames.at(-1) !== 'data: [DONE]') return null;
  const err = JSON.parse((frames.at(-2) ?? 'data: {}').slice(6)).error;
  return err ? [err.type, err.code] : null;
}

/** The stream ends as a whole answer does: message_stop last (messages), one [DONE] last (chat); no error frame. */
function endsComplete(surface: Surface, text: string): boolean {
  const frames = text.trim().split('\n\n');
  if (frames.some((f) => f.startsWith('event: error') || f.includes('"error":'))) return false;
  if (surface === 'messages') return (frames.at(-1) ?? '').startsWith('event: message_stop');
  return frames.at(-1) === 'data: [DONE]' && frames.filter((f) => f === 'data: [DONE]').length === 1 && /"finish_reason":"stop"/.test(frames.at(-2) ?? '');
}

function errorOf(surface: Surface, a: Answer): [string, string | null] {
  const body = JSON.parse(a.text);
  return surface === 'messages' ? [body.error.type, null] : [body.error.type, body.error.code];
}

interface Case {
  name: string;
  fault: Fault;
  stream: boolean;
  /** Expected per surface: a status with [type, code], or a 200 stream ending with [type, code]. */
  expect: Record<Surface, { status: number; error: [string, string | null] | null; final?: [string, string | null] }>;
  /** message_start arrived before the fault: its input tokens must be recorded. */
  usage?: boolean;
  /** The stream reached message_stop before the fault: it must end as a complete answer, with no error after it. */
  complete?: boolean;
}

const CASES: Case[] = [
  {
    name: 'reset before headers',
    fault: { kind: 'reset-before-headers' },
    stream: false,
    expect: { messages: { status: 502, error: ['api_error', null] }, chat: { status: 502, error: ['api_error', 'upstream_error'] } },
  },
  {
    name: 'hang before headers',
    fault: { kind: 'hang-before-headers' },
    stream: true,
    expect: { messages: { status: 504, error: ['api_error', null] }, chat: { status: 504, error: ['api_error', 'upstream_error'] } },
  },
  {
    name: 'reset mid-stream',
    usage: true,
    fault: { kind: 'reset-mid-stream', afterEvents: 3 },
    stream: true,
    expect: {
      messages: { status: 200, error: null, final: ['api_error', null] },
      chat: { status: 200, error: null, final: ['api_error', 'upstream_stream_interrupted'] },
    },
  },
  {
    name: 'reset after the last event, before the stream\'s end',
    usage: true,
    complete: true,
    fault: { kind: 'reset-mid-stream', afterEvents: 10_000 },
    stream: true,
    expect: { messages: { status: 200, error: null }, chat: { status: 200, error: null } },
  },
  {
    name: 'stall mid-stream',
    usage: true,
    fault: { kind: 'stall-mid-stream', afterEvents: 3 },
    stream: true,
    expect: {
      messages: { status: 200, error: null, final: ['timeout_error', null] },
      chat: { status: 200, error: null, final: ['timeout_error', 'upstream_timeout'] },
    },
  },
  {
    name: 'malformed SSE',
    usage: true,
    fault: { kind: 'malformed-sse', afterEvents: 3 },
    stream: true,
    expect: {
      messages: { status: 200, error: null, final: ['api_error', null] },
      // The chat surface names the broken event itself.
      chat: { status: 200, error: null, final: ['api_error', 'upstream_protocol_error'] },
    },
  },
  {
    name: 'malformed JSON in a non-streamed answer',
    fault: { kind: 'malformed-json' },
    stream: false,
    // The messages surface passes the provider's bytes through as they came; the chat surface must parse them.
    expect: { messages: { status: 200, error: null }, chat: { status: 502, error: ['api_error', 'upstream_error'] } },
  },
  {
    name: 'reset in the middle of a non-streamed body',
    fault: { kind: 'reset-mid-stream', afterEvents: 0 },
    stream: false,
    expect: { messages: { status: 502, error: ['api_error', null] }, chat: { status: 502, error: ['api_error', 'upstream_error'] } },
  },
  {
    name: 'stall in the middle of a non-streamed body',
    fault: { kind: 'stall-mid-stream', afterEvents: 0 },
    stream: false,
    expect: { messages: { status: 504, error: ['api_error', null] }, chat: { status: 504, error: ['api_error', 'upstream_error'] } },
  },
];

t.test('upstream faults', async (t) => {
  const h = await startHarness({ env: { GATEWAY_UPSTREAM_HEADERS_TIMEOUT_MS: '300', GATEWAY_STREAM_IDLE_TIMEOUT_MS: '300' } });
  t.teardown(() => h.close());
  const { key } = await h.createKey();
  const warm = new Agent();
  for (const surface of ['messages', 'chat'] as const) for (const stream of [false, true]) await send(h, key, surface, stream, warm);
  await warm.close();
  const baseline = await quietBaseline(h);

  for (const c of CASES) {
    for (const surface of ['messages', 'chat'] as const) {
      t.test(`${c.name} (${surface})`, async (t) => {
        const client = new Agent();
        // Rows of the requests before this one are written first, so the count below moves by this one alone.
        await h.runtime.usage.flush();
        const before = await h.built.stores.usage.totals();
        h.simulator.injectFault(c.fault);
        const answer = await send(h, key, surface, c.stream, client);
        const want = c.expect[surface];
        t.equal(answer.status, want.status, answer.text.slice(0, 300));
        if (want.error !== null) t.same(errorOf(surface, answer), want.error);
        if (want.final !== undefined) t.same(finalError(surface, answer.text), want.final, answer.text.slice(-300));
        if (c.complete) t.ok(endsComplete(surface, answer.text), `a complete answer and nothing after it: ${answer.text.slice(-300)}`);
        t.ok(answer.headers['request-id'], 'request id');
        await client.close();
        await leakCheck(t, h, baseline);
        await waitFor(async () => (await h.built.stores.usage.totals()).requests === before.requests + 1, 30_000);
        if (c.usage) t.ok((await h.built.stores.usage.totals()).inputTokens > before.inputTokens, 'the input tokens received are recorded');
      });
    }
  }
});

async function leakCheck(t: Test, h: Harness, baseline: Resources): Promise<void> {
  await waitFor(() => h.runtime.lifecycle.inFlight === 0, 3000);
  const after = await settled(h, baseline);
  t.same(above(after, baseline), [], `no socket, connection or timer left behind (${JSON.stringify(baseline)} → ${JSON.stringify(after)})`);
}

t.test('upstream refuses connections: 502 on both surfaces, retried without leaks', async (t) => {
  const port = await closedPort();
  const h = await startHarness({ env: { ANTHROPIC_BASE_URL: `http://127.0.0.1:${port}`, GATEWAY_RETRY_ATTEMPTS: '3', GATEWAY_RETRY_BASE_DELAY_MS: '1', GATEWAY_BREAKER_MIN_CALLS: '0' } });
  t.teardown(() => h.close());
  const { key } = await h.createKey();
  const baseline = await resources(h);
  for (const surface of ['messages', 'chat'] as const) {
    for (const stream of [false, true]) {
      const client = new Agent();
      const answer = await send(h, key, surface, stream, client);
      t.equal(answer.status, 502, `${surface} stream=${stream}`);
      t.same(errorOf(surface, answer), surface === 'messages' ? ['api_error', null] : ['api_error', 'upstream_error']);
      await client.close();
    }
  }
  await leakCheck(t, h, baseline);
  t.match(await (await request(`${h.url}/metrics`)).body.text(), /model_gateway_upstream_retries_total\{reason="connect"\} 8/);
});

t.test('a burst of 5xx: every answer in shape, the circuit opens, then recovers', async (t) => {
  const h = await startHarness({ env: { GATEWAY_BREAKER_MIN_CALLS: '5', GATEWAY_BREAKER_COOLDOWN_MS: '200' } });
  t.teardown(() => h.close());
  const { key } = await h.createKey();
  const warm = new Agent();
  await send(h, key, 'messages', false, warm);
  await warm.close();
  const baseline = await quietBaseline(h);
  h.simulator.injectFault({ kind: 'status', status: 500 }, 40);
  const client = new Agent({ connections: 64 });
  const answers = await Promise.all(
    Array.from({ length: 40 }, (_, i) => send(h, key, i % 2 ? 'chat' : 'messages', i % 4 < 2, client)),
  );
  const statuses = answers.map((a) => a.status);
  t.ok(statuses.every((s) => s === 500 || s === 503), `only 500s and fail-fast 503s: ${statuses.join(',')}`);
  for (const [i, a] of answers.entries()) {
    const surface = i % 2 ? 'chat' : 'messages';
    const [type] = errorOf(surface, a);
    t.ok(type, `answer ${i} is in the ${surface} shape`);
  }
  // The burst was in flight before its first answer came back, so the answers alone may not show it.
  const ready = (await (await request(`${h.url}/readyz`, { dispatcher: client })).body.json()) as { circuits: Record<string, string> };
  t.equal(ready.circuits[MODEL], 'open', 'the circuit opened during the burst');
  h.simulator.clearFaults();
  await new Promise((r) => setTimeout(r, 250));
  t.equal((await send(h, key, 'messages', false, client)).status, 200, 'after the cool-down the upstream is used again');
  await client.close();
  await leakCheck(t, h, baseline);
});
