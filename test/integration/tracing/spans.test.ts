// Traces as a collector receives them: a real gateway in front of the simulator exports to a real
// OTLP/HTTP receiver (protobuf and JSON). Span names, kinds, parents and every attribute on both
// surfaces, streamed and not; retries as separate attempt spans; the client's trace continued and the
// attempt's context sent upstream; and nothing secret or written by the client in any export.
import { randomBytes } from 'node:crypto';
import t from 'tap';
import type { Test } from 'tap';
import { ADMIN_TOKEN, startHarness, UPSTREAM_KEY } from '../../helpers/harness.js';
import type { Harness } from '../../helpers/harness.js';
import { bearer, call } from '../../helpers/http.js';
import { startOtlpReceiver } from '../../helpers/otlp-receiver.js';
import type { OtlpReceiver, ReceivedSpan } from '../../helpers/otlp-receiver.js';

const MODEL = 'claude-haiku-4-5-20251001';

interface Rig {
  h: Harness;
  receiver: OtlpReceiver;
  key: string;
  keyId: string;
}

async function rig(t: Test, protocol: 'http/protobuf' | 'http/json', env: Record<string, string> = {}): Promise<Rig> {
  const receiver = await startOtlpReceiver();
  const h = await startHarness({
    env: {
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: protocol,
      OTEL_BSP_SCHEDULE_DELAY: '10',
      OTEL_SERVICE_NAME: 'gateway-under-test',
      ...env,
    },
  });
  t.teardown(async () => {
    await h.close();
    await receiver.close();
  });
  const { id, key } = await h.createKey({ customer: 'acme' });
  return { h, receiver, key, keyId: id };
}

/** A client's own trace context: a fresh trace id, so each request's spans are found by it. */
function clientContext(): { traceId: string; spanId: string; traceparent: string } {
  const traceId = randomBytes(16).toString('hex');
  const spanId = randomBytes(8).toString('hex');
  return { traceId, spanId, traceparent: `00-${traceId}-${spanId}-01` };
}

/** The server span and its attempt spans of one trace, once the server span has arrived. */
async function spansOf(receiver: OtlpReceiver, traceId: string, attempts = 1): Promise<{ server: ReceivedSpan; clients: ReceivedSpan[] }> {
  const mine = (s: ReceivedSpan[]) => s.filter((x) => x.traceId === traceId);
  await receiver.waitForSpans((s) => mine(s).some((x) => x.kind === 'SERVER') && mine(s).filter((x) => x.kind === 'CLIENT').length >= attempts);
  const spans = mine(receiver.spans);
  const servers = spans.filter((x) => x.kind === 'SERVER');
  if (servers.length !== 1) throw new Error(`expected one server span, got ${servers.length}`);
  const clients = spans.filter((x) => x.kind === 'CLIENT').sort((a, b) => (a.startTimeUnixNano < b.startTimeUnixNano ? -1 : 1));
  return { server: servers[0], clients };
}

/** The usage a Messages answer reported, streamed (the last message_delta's output) or not. */
function usageOf(text: string, streamed: boolean): { input: number; output: number } {
  if (!streamed) {
    const u = JSON.parse(text).usage;
    return { input: u.input_tokens + (u.cache_read_input_tokens ?? 0) + (u.cache_creation_input_tokens ?? 0), output: u.output_tokens };
  }
  const start = JSON.parse(/event: message_start\ndata: (.*)\n/.exec(text)![1]).message.usage;
  const outputs = [...text.matchAll(/"output_tokens":(\d+)/g)].map((m) => Number(m[1]));
  return { input: start.input_tokens + (start.cache_read_input_tokens ?? 0) + (start.cache_creation_input_tokens ?? 0), output: outputs.at(-1)! };
}

function serverAttributes(r: Rig, o: { surface: string; responseId: string; finish: string; usage: { input: number; output: number }; maxTokens: number }) {
  return {
    'gen_ai.operation.name': 'chat',
    'gen_ai.provider.name': 'anthropic',
    'gen_ai.request.model': MODEL,
    'gen_ai.response.model': MODEL,
    'gen_ai.response.id': o.responseId,
    'gen_ai.response.finish_reasons': [o.finish],
    'gen_ai.request.max_tokens': o.maxTokens,
    'gen_ai.request.temperature': 0.5,
    'gen_ai.usage.input_tokens': o.usage.input,
    'gen_ai.usage.output_tokens': o.usage.output,
    'http.response.status_code': 200,
    'model_gateway.customer': 'acme',
    'model_gateway.key_id': r.keyId,
    'model_gateway.surface': o.surface,
    'model_gateway.route': 'anthropic',
  };
}

const ATTEMPT_OK = {
  'gen_ai.operation.name': 'chat',
  'gen_ai.provider.name': 'anthropic',
  'gen_ai.request.model': MODEL,
  'model_gateway.route': 'anthropic',
  'http.response.status_code': 200,
};

/** The attempt's context, as the provider received it. */
function upstreamTraceparent(h: Harness): string | undefined {
  const v = h.simulator.received.at(-1)?.headers.traceparent;
  return Array.isArray(v) ? v[0] : v;
}

for (const protocol of ['http/protobuf', 'http/json'] as const) {
  t.test(`${protocol}: the messages surface, whole and streamed`, async (t) => {
    const r = await rig(t, protocol);
    for (const stream of [false, true]) {
      const ctx = clientContext();
      const nonce = `prompt-nonce-${randomBytes(6).toString('hex')}`;
      const body = JSON.stringify({
        model: MODEL,
        max_tokens: 48,
        temperature: 0.5,
        stream,
        // Cached input counts as input: the conventions' input tokens include cache reads and writes.
        system: [{ type: 'text', text: `You are terse. ${'Context line. '.repeat(300)}`, cache_control: { type: 'ephemeral' } }],
        messages: [{ role: 'user', content: `say hello ${nonce}` }],
      });
      const res = await call(`${r.h.url}/gateway/v1/messages`, { body, headers: bearer(r.key, { traceparent: ctx.traceparent, tracestate: 'client=kept' }) });
      t.equal(res.status, 200, res.text);
      const { server, clients } = await spansOf(r.receiver, ctx.traceId);
      const responseId = stream ? JSON.parse(/event: message_start\ndata: (.*)\n/.exec(res.text)![1]).message.id : res.json().id;
      t.equal(server.name, `chat ${MODEL}`);
      t.equal(server.parentSpanId, ctx.spanId, "the client's span is the parent");
      t.equal(server.traceState, 'client=kept', "the client's tracestate is continued");
      t.same(server.attributes, serverAttributes(r, { surface: 'messages', responseId, finish: 'end_turn', usage: usageOf(res.text, stream), maxTokens: 48 }), `stream=${stream}: every server attribute`);
      // The first request writes the prompt cache and the second reads it: either way the answer reports cache tokens.
      t.match(res.text, /"cache_(creation|read)_input_tokens":[1-9]/, 'the answer reported cache tokens, counted above');
      t.equal(server.status.code, 'UNSET');
      t.same(server.resource['service.name'], 'gateway-under-test');
      if (stream) {
        t.same(server.events.map((e) => e.name), ['gen_ai.first_token'], 'time to first token is an event');
        t.ok(server.events[0].timeUnixNano > server.startTimeUnixNano && server.events[0].timeUnixNano <= server.endTimeUnixNano, 'within the span');
      } else {
        t.same(server.events, [], 'no first-token event without a stream');
      }
      t.equal(clients.length, 1, 'one attempt');
      const [attempt] = clients;
      t.equal(attempt.name, `chat ${MODEL}`);
      t.equal(attempt.parentSpanId, server.spanId, 'the attempt is a child of the server span');
      t.same(attempt.attributes, ATTEMPT_OK);
      t.equal(upstreamTraceparent(r.h), `00-${ctx.traceId}-${attempt.spanId}-01`, "the provider gets the attempt's context, not the client's");
      t.equal(r.h.simulator.received.at(-1)?.headers.tracestate, 'client=kept');
    }
    assertNothingSecret(t, r);
  });

  t.test(`${protocol}: the chat surface, whole and streamed`, async (t) => {
    const r = await rig(t, protocol);
    for (const stream of [false, true]) {
      const ctx = clientContext();
      const body = JSON.stringify({
        model: MODEL,
        max_completion_tokens: 40,
        temperature: 0.5,
        stream,
        ...(stream ? { stream_options: { include_usage: true } } : {}),
        messages: [
          { role: 'system', content: 'Context line: be brief.' },
          { role: 'user', content: `say hello prompt-nonce-${randomBytes(6).toString('hex')}` },
        ],
      });
      const res = await call(`${r.h.url}/gateway/openai/v1/chat/completions`, { body, headers: bearer(r.key, { traceparent: ctx.traceparent }) });
      t.equal(res.status, 200, res.text);
      const { server, clients } = await spansOf(r.receiver, ctx.traceId);
      const upstreamAnswer = r.h.simulator.received.at(-1)!;
      t.ok(upstreamAnswer, 'the provider was called');
      // The chat answer's id is chatcmpl-<the provider's id>; usage as the chat surface reported it.
      const id = stream ? JSON.parse(/^data: (\{.*\})$/m.exec(res.text)![1]).id : res.json().id;
      const reported = stream ? JSON.parse([...res.text.matchAll(/^data: (\{.*"usage":\{.*\})$/gm)].at(-1)![1]).usage : res.json().usage;
      const usage = { input: reported.prompt_tokens, output: reported.completion_tokens };
      t.same(server.attributes, serverAttributes(r, { surface: 'chat', responseId: String(id).replace(/^chatcmpl-/, ''), finish: 'end_turn', usage, maxTokens: 40 }), `stream=${stream}: every server attribute`);
      t.ok(usage.output > 0);
      t.equal(server.parentSpanId, ctx.spanId);
      t.same(server.events.map((e) => e.name), stream ? ['gen_ai.first_token'] : []);
      t.equal(clients.length, 1);
      t.equal(clients[0].parentSpanId, server.spanId);
      t.same(clients[0].attributes, ATTEMPT_OK);
      t.equal(upstreamTraceparent(r.h), `00-${ctx.traceId}-${clients[0].spanId}-01`, 'the built request carries the attempt context too');
    }
    assertNothingSecret(t, r);
  });
}

t.test('the Responses surface, whole and streamed: its surface and max_output_tokens on the server span', async (t) => {
  const r = await rig(t, 'http/protobuf');
  for (const stream of [false, true]) {
    const ctx = clientContext();
    const body = JSON.stringify({ model: MODEL, max_output_tokens: 36, temperature: 0.5, stream, input: `say hello prompt-nonce-${randomBytes(6).toString('hex')}` });
    const res = await call(`${r.h.url}/gateway/openai/v1/responses`, { body, headers: bearer(r.key, { traceparent: ctx.traceparent }) });
    t.equal(res.status, 200, res.text);
    const { server, clients } = await spansOf(r.receiver, ctx.traceId);
    t.equal(server.name, `chat ${MODEL}`);
    t.match(server.attributes, {
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'anthropic',
      'gen_ai.request.model': MODEL,
      'gen_ai.request.max_tokens': 36,
      'gen_ai.request.temperature': 0.5,
      'http.response.status_code': 200,
      'model_gateway.surface': 'responses',
      'model_gateway.route': 'anthropic',
      'model_gateway.key_id': r.keyId,
    }, `stream=${stream}: the server span's attributes`);
    t.ok(Number(server.attributes['gen_ai.usage.output_tokens']) > 0, `stream=${stream}: output tokens counted`);
    t.equal(server.parentSpanId, ctx.spanId, 'the client\'s trace continued');
    t.same(server.events.map((e) => e.name), stream ? ['gen_ai.first_token'] : []);
    t.equal(clients.length, 1);
    t.same(clients[0].attributes, ATTEMPT_OK);
    t.equal(upstreamTraceparent(r.h), `00-${ctx.traceId}-${clients[0].spanId}-01`, 'the provider received the attempt\'s context');
  }
  assertNothingSecret(t, r);
});

t.test('a 529 then a success: two attempt spans under one server span', async (t) => {
  const r = await rig(t, 'http/protobuf', { GATEWAY_RETRY_ATTEMPTS: '2', GATEWAY_RETRY_BASE_DELAY_MS: '0', GATEWAY_RETRY_MAX_DELAY_MS: '0' });
  r.h.simulator.injectFault({ kind: 'status', status: 529, errorType: 'overloaded_error' });
  const ctx = clientContext();
  const res = await call(`${r.h.url}/gateway/v1/messages`, {
    body: JSON.stringify({ model: MODEL, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }),
    headers: bearer(r.key, { traceparent: ctx.traceparent }),
  });
  t.equal(res.status, 200, res.text);
  const { server, clients } = await spansOf(r.receiver, ctx.traceId, 2);
  t.equal(clients.length, 2, 'one span per attempt');
  for (const c of clients) t.equal(c.parentSpanId, server.spanId, 'each under the server span');
  t.same(clients[0].attributes, { ...ATTEMPT_OK, 'http.response.status_code': 529, 'error.type': '529' }, 'the first attempt failed with 529');
  t.equal(clients[0].status.code, 'ERROR');
  t.same(clients[1].attributes, ATTEMPT_OK, 'the second succeeded');
  t.equal(clients[1].status.code, 'UNSET');
  t.ok(clients[0].endTimeUnixNano <= clients[1].startTimeUnixNano, 'one after the other');
  t.equal(server.attributes['http.response.status_code'], 200);
  t.notOk('error.type' in server.attributes, 'the request itself succeeded');
  // Each attempt sent its own context upstream.
  const sent = r.h.simulator.received.filter((q) => q.url === '/v1/messages').slice(-2).map((q) => q.headers.traceparent);
  t.same(sent, clients.map((c) => `00-${ctx.traceId}-${c.spanId}-01`));
});

t.test('failures: error.type on the server span and its attempt', async (t) => {
  const r = await rig(t, 'http/protobuf');
  const send = async (fault: Parameters<Harness['simulator']['injectFault']>[0], stream = false) => {
    r.h.simulator.injectFault(fault);
    const ctx = clientContext();
    const res = await call(`${r.h.url}/gateway/v1/messages`, {
      body: JSON.stringify({ model: MODEL, max_tokens: 64, stream, messages: [{ role: 'user', content: 'hi' }] }),
      headers: bearer(r.key, { traceparent: ctx.traceparent }),
    });
    return { res, ...(await spansOf(r.receiver, ctx.traceId)) };
  };
  const overloaded = await send({ kind: 'status', status: 529, errorType: 'overloaded_error' });
  t.equal(overloaded.res.status, 529);
  t.equal(overloaded.server.attributes['error.type'], '529', "the upstream's status");
  t.equal(overloaded.server.status.code, 'ERROR');
  t.equal(overloaded.clients[0].attributes['error.type'], '529');

  const reset = await send({ kind: 'reset-before-headers' });
  t.equal(reset.res.status, 502);
  t.equal(reset.server.attributes['error.type'], 'connection_error');
  t.equal(reset.clients[0].attributes['error.type'], 'connection_error');
  t.notOk('http.response.status_code' in reset.clients[0].attributes, 'no answer, no status');

  const broken = await send({ kind: 'reset-mid-stream', afterEvents: 3 }, true);
  t.equal(broken.res.status, 200, 'the stream had started');
  t.equal(broken.server.attributes['error.type'], 'stream_interrupted', 'the stream broke off');
  t.equal(broken.server.status.code, 'ERROR');
});

t.test('a client that leaves mid-stream: the span ends with the stream, as client_cancelled', async (t) => {
  const r = await rig(t, 'http/protobuf');
  r.h.simulator.setOptions({ tokensPerSecond: 200, replyTokens: 2000 });
  const ctx = clientContext();
  const controller = new AbortController();
  const { request } = await import('undici');
  const res = await request(`${r.h.url}/gateway/v1/messages`, {
    method: 'POST',
    headers: bearer(r.key, { traceparent: ctx.traceparent }),
    body: JSON.stringify({ model: MODEL, max_tokens: 4000, stream: true, messages: [{ role: 'user', content: 'a long story' }] }),
    signal: controller.signal,
  });
  for await (const chunk of res.body) {
    if ((chunk as Buffer).includes('content_block_delta')) break;
  }
  controller.abort();
  const { server } = await spansOf(r.receiver, ctx.traceId);
  t.equal(server.attributes['error.type'], 'client_cancelled');
  t.same(server.events.map((e) => e.name), ['gen_ai.first_token']);
});

t.test('no traceparent: a new trace, the gateway span its root', async (t) => {
  const r = await rig(t, 'http/protobuf');
  const res = await call(`${r.h.url}/gateway/v1/messages`, {
    body: JSON.stringify({ model: MODEL, max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] }),
    headers: bearer(r.key, { traceparent: 'not-a-traceparent' }),
  });
  t.equal(res.status, 200);
  await r.receiver.waitForSpans((s) => s.some((x) => x.kind === 'SERVER'));
  const server = r.receiver.spans.find((x) => x.kind === 'SERVER')!;
  t.equal(server.parentSpanId, '', 'a root span');
  await r.receiver.waitForSpans((s) => s.some((x) => x.kind === 'CLIENT'));
  const attempt = r.receiver.spans.find((x) => x.kind === 'CLIENT')!;
  t.equal(upstreamTraceparent(r.h), `00-${server.traceId}-${attempt.spanId}-01`, "a client's invalid traceparent is replaced, not forwarded");
});

t.test('exemplars: the trace id on the duration and TTFT buckets, in OpenMetrics only', async (t) => {
  const r = await rig(t, 'http/protobuf');
  const ctx = clientContext();
  const res = await call(`${r.h.url}/gateway/v1/messages`, {
    body: JSON.stringify({ model: MODEL, max_tokens: 16, stream: true, messages: [{ role: 'user', content: 'hi' }] }),
    headers: bearer(r.key, { traceparent: ctx.traceparent }),
  });
  t.equal(res.status, 200);
  await spansOf(r.receiver, ctx.traceId);
  const om = await call(`${r.h.url}/metrics`, { headers: { accept: 'application/openmetrics-text;version=1.0.0;q=0.5,text/plain;version=0.0.4;q=0.3,*/*;q=0.2' } });
  t.match(om.headers['content-type'], /^application\/openmetrics-text; version=1.0.0/);
  t.match(om.text, /\n# EOF\n$/, 'an OpenMetrics exposition');
  const exemplar = (metric: string) => new RegExp(`^${metric}_bucket\\{[^}]*surface="messages"[^}]*\\} \\d+ # \\{trace_id="${ctx.traceId}"\\} [0-9.e-]+ [0-9.]+$`, 'm');
  t.match(om.text, exemplar('model_gateway_request_duration_seconds'), 'duration bucket → trace');
  t.match(om.text, exemplar('model_gateway_time_to_first_token_seconds'), 'time to first token bucket → trace');
  t.match(om.text, /^model_gateway_requests_total\{/m, 'counters keep their _total samples');
  const prom = await call(`${r.h.url}/metrics`);
  t.match(prom.headers['content-type'], /^text\/plain; version=0.0.4/);
  t.notMatch(prom.text, /# \{trace_id=/, 'no exemplar in the Prometheus text');
  t.match(prom.text, /^model_gateway_requests_total\{/m, 'the Prometheus text is unchanged by an OpenMetrics scrape');
  t.match(prom.text, /^# TYPE model_gateway_requests_total counter$/m);
});

t.test('a graceful stop sends what is still queued', async (t) => {
  const receiver = await startOtlpReceiver();
  t.teardown(() => receiver.close());
  // Batches every minute: only the stop can send this request's spans in time.
  const h = await startHarness({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_BSP_SCHEDULE_DELAY: '60000' } });
  const { key } = await h.createKey();
  const res = await call(`${h.url}/gateway/v1/messages`, { body: JSON.stringify({ model: MODEL, max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] }), headers: bearer(key) });
  t.equal(res.status, 200);
  t.equal(receiver.spans.length, 0, 'nothing sent yet');
  await h.close();
  t.same(receiver.spans.map((s) => s.kind).sort(), ['CLIENT', 'SERVER'], 'flushed by the stop');
});

/** No key, credential, admin token or client text in any byte exported. */
function assertNothingSecret(t: Test, r: Rig): void {
  const bodies = Buffer.concat(r.receiver.exports.map((e) => e.body));
  t.ok(bodies.length > 0, 'something was exported');
  for (const secret of [r.key, r.key.split('_').at(-1)!, UPSTREAM_KEY, ADMIN_TOKEN, 'prompt-nonce-', 'say hello', 'Context line']) {
    t.notOk(bodies.includes(secret), `${secret.slice(0, 12)}… is not exported`);
  }
  for (const e of r.receiver.exports) {
    t.notOk(JSON.stringify(e.headers).includes(UPSTREAM_KEY), 'nor sent to the collector in headers');
  }
}
