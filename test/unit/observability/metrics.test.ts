import fc from 'fast-check';
import { AggregatorRegistry } from 'prom-client';
import t from 'tap';
import { createMetrics, METRIC_NAMES, type GatewayMetrics } from '../../../src/observability/metrics.js';
import type { RequestObservation } from '../../../src/observability/request-observation.js';
import { labelValues, parseExposition, valueOf, type ParsedSample } from './exposition.js';

const MODELS = new Set(['claude-opus-4-7', 'claude-sonnet-4-6']);
const N = METRIC_NAMES;

function newMetrics(extra: { customers?: string[] } = {}): GatewayMetrics {
  const customers = extra.customers === undefined ? undefined : new Set(extra.customers);
  return createMetrics({
    knownModels: () => MODELS,
    knownCustomers: customers === undefined ? undefined : () => customers,
    collectProcessMetrics: false,
  });
}

function observation(over: Partial<RequestObservation> = {}): RequestObservation {
  return {
    surface: 'messages',
    model: 'claude-sonnet-4-6',
    customer: 'acme',
    status: 200,
    outcome: 'ok',
    durationSec: 2,
    upstreamHeadersSec: 0.4,
    ttftSec: null,
    usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    streamed: false,
    generationSec: null,
    traceId: null,
    ...over,
  };
}

async function scrape(m: GatewayMetrics): Promise<ParsedSample[]> {
  return parseExposition((await m.render()).body);
}

t.test('requests are counted by surface, model, customer, status class and outcome', async (t) => {
  const m = newMetrics();
  m.requestFinished(observation());
  m.requestFinished(observation());
  m.requestFinished(observation({ surface: 'chat', status: 429, outcome: 'client_error' }));
  m.requestFinished(observation({ status: 502, outcome: 'upstream_error', customer: 'none' }));
  const s = await scrape(m);
  const base = { model: 'claude-sonnet-4-6' };
  t.equal(valueOf(s, N.requests, { ...base, surface: 'messages', customer: 'acme', status_class: '2xx', outcome: 'ok' }), 2);
  t.equal(valueOf(s, N.requests, { ...base, surface: 'chat', status_class: '4xx', outcome: 'client_error' }), 1);
  t.equal(valueOf(s, N.requests, { ...base, customer: 'none', status_class: '5xx', outcome: 'upstream_error' }), 1);
});

t.test('durations land in the right cumulative buckets with sum and count', async (t) => {
  const m = newMetrics();
  for (const d of [0.3, 0.3, 7, 700]) m.requestFinished(observation({ durationSec: d }));
  const s = await scrape(m);
  const l = { surface: 'messages', model: 'claude-sonnet-4-6', outcome: 'ok' };
  const bucket = (le: string) => valueOf(s, `${N.requestDuration}_bucket`, { ...l, le });
  t.equal(bucket('0.25'), 0);
  t.equal(bucket('0.5'), 2);
  t.equal(bucket('5'), 2);
  t.equal(bucket('10'), 3);
  t.equal(bucket('600'), 3, '700 s is above the last bound');
  t.equal(bucket('+Inf'), 4);
  t.equal(valueOf(s, `${N.requestDuration}_count`, l), 4);
  t.equal(valueOf(s, `${N.requestDuration}_sum`, l), 707.6);
  t.equal(valueOf(s, `${N.upstreamTimeToHeaders}_count`, { surface: 'messages' }), 4);
});

t.test('time to first token is recorded for streams only; time per output token for successful ones', async (t) => {
  const m = newMetrics();
  const usage = { input: 10, output: 11, cacheRead: 0, cacheWrite: 0 };
  m.requestFinished(observation({ streamed: true, ttftSec: 0.8, generationSec: 0.5, usage }));
  m.requestFinished(observation({ streamed: false, ttftSec: 0.9, generationSec: null, usage }));
  m.requestFinished(observation({ streamed: true, ttftSec: 1.2, generationSec: 3, usage, outcome: 'client_cancelled', status: 200 }));
  m.requestFinished(observation({ streamed: true, ttftSec: 0.1, generationSec: 0, usage: { ...usage, output: 1 } }));
  const s = await scrape(m);
  t.equal(valueOf(s, `${N.timeToFirstToken}_count`), 3);
  t.equal(valueOf(s, `${N.timeToFirstToken}_sum`), 2.1);
  // Only the first: the cancelled one is not a success and the last has no token after the first.
  t.equal(valueOf(s, `${N.timePerOutputToken}_count`), 1);
  t.equal(valueOf(s, `${N.timePerOutputToken}_sum`), 0.05, '0.5 s over the 10 tokens after the first');
  t.equal(valueOf(s, `${N.timePerOutputToken}_bucket`, { le: '0.05' }), 1);
  t.equal(valueOf(s, `${N.timePerOutputToken}_bucket`, { le: '0.04' }), 0);
});

t.test('tokens are counted by type, model and customer', async (t) => {
  const m = newMetrics();
  m.requestFinished(observation({ usage: { input: 100, output: 20, cacheRead: 500, cacheWrite: 0 } }));
  m.requestFinished(observation({ surface: 'chat', usage: { input: 1, output: 2, cacheRead: 0, cacheWrite: 40 } }));
  m.requestFinished(observation({ customer: 'globex', model: 'claude-opus-4-7', usage: { input: 7, output: 0, cacheRead: 0, cacheWrite: 0 } }));
  const s = await scrape(m);
  const acme = { model: 'claude-sonnet-4-6', customer: 'acme' };
  t.equal(valueOf(s, N.tokens, { ...acme, type: 'input' }), 101);
  t.equal(valueOf(s, N.tokens, { ...acme, type: 'output' }), 22);
  t.equal(valueOf(s, N.tokens, { ...acme, type: 'cache_read' }), 500);
  t.equal(valueOf(s, N.tokens, { ...acme, type: 'cache_write' }), 40);
  t.equal(valueOf(s, N.tokens, { model: 'claude-opus-4-7', customer: 'globex', type: 'input' }), 7);
});

t.test('in-flight requests and open streams go up and back down', async (t) => {
  const m = newMetrics();
  m.requestStarted('chat');
  m.requestStarted('chat');
  m.streamOpened('chat');
  let s = await scrape(m);
  t.equal(valueOf(s, N.inFlight, { surface: 'chat' }), 2);
  t.equal(valueOf(s, N.openStreams, { surface: 'chat' }), 1);
  t.equal(valueOf(s, N.inFlight, { surface: 'messages' }), 0, 'every surface is exported from the start');
  m.streamClosed('chat');
  m.requestFinished(observation({ surface: 'chat' }));
  m.requestFinished(observation({ surface: 'chat' }));
  s = await scrape(m);
  t.equal(valueOf(s, N.inFlight, { surface: 'chat' }), 0);
  t.equal(valueOf(s, N.openStreams, { surface: 'chat' }), 0);
});

t.test('event counters start at zero for known labels and move per event', async (t) => {
  const m = newMetrics();
  let s = await scrape(m);
  t.equal(valueOf(s, N.upstreamErrors, { kind: 'timeout' }), 0);
  t.ok(s.some((x) => x.name === N.upstreamErrors && x.labels.kind === 'timeout'), 'zero series exported');
  t.ok(s.some((x) => x.name === N.rateLimited && x.labels.surface === 'chat' && x.labels.scope === 'key'));
  m.upstreamError('timeout');
  m.upstreamError('connect');
  m.authFailure('revoked');
  m.authFailure('Bearer mgw_abc_def');
  m.rateLimited('chat', 'key');
  m.loadShed('messages');
  m.translationWarning('temperature_clamped');
  m.translationWarning('temperature_clamped');
  m.keyCache(true);
  m.keyCache(true);
  m.keyCache(false);
  m.retry('connect_refused');
  m.circuitState('claude-sonnet-4-6', 'open');
  s = await scrape(m);
  t.equal(valueOf(s, N.upstreamErrors, { kind: 'timeout' }), 1);
  t.equal(valueOf(s, N.upstreamErrors, { kind: 'connect' }), 1);
  t.equal(valueOf(s, N.authFailures, { reason: 'revoked' }), 1);
  t.equal(valueOf(s, N.authFailures, { reason: 'other' }), 1, 'an unknown reason is not a label value');
  t.equal(valueOf(s, N.rateLimited, { surface: 'chat', scope: 'key' }), 1);
  t.equal(valueOf(s, N.loadShed, { surface: 'messages' }), 1);
  t.equal(valueOf(s, N.translationWarnings, { kind: 'temperature_clamped' }), 2);
  t.equal(valueOf(s, N.keyCacheLookups, { result: 'hit' }), 2);
  t.equal(valueOf(s, N.keyCacheLookups, { result: 'miss' }), 1);
  t.equal(valueOf(s, N.upstreamRetries, { reason: 'connect_refused' }), 1);
  t.equal(valueOf(s, N.circuitBreakerState, { route: 'claude-sonnet-4-6', state: 'open' }), 1);
  t.equal(valueOf(s, N.circuitBreakerState, { route: 'claude-sonnet-4-6', state: 'closed' }), 0);
  m.circuitState('claude-sonnet-4-6', 'half_open');
  s = await scrape(m);
  t.equal(valueOf(s, N.circuitBreakerState, { route: 'claude-sonnet-4-6', state: 'open' }), 0);
  t.equal(valueOf(s, N.circuitBreakerState, { route: 'claude-sonnet-4-6', state: 'half_open' }), 1);
});

t.test('label sets stay bounded whatever model, customer or kind strings arrive', async (t) => {
  const m = newMetrics({ customers: ['acme'] });
  const text = fc.string({ maxLength: 40 });
  fc.assert(
    fc.property(text, text, text, fc.integer({ min: -5, max: 1000 }), (model, customer, kind, status) => {
      m.requestFinished(observation({ model, customer, status, usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 } }));
      m.translationWarning(kind);
      m.retry(kind);
      m.circuitState(kind, 'open');
    }),
    { numRuns: 500 },
  );
  const s = await scrape(m);
  const models = labelValues(s, N.requests, 'model');
  t.ok([...models].every((v) => MODELS.has(v) || v === 'other'), `models: ${[...models].join(',')}`);
  const customers = labelValues(s, N.requests, 'customer');
  t.ok([...customers].every((c) => c === 'acme' || c === 'other' || c === 'none'), `customers: ${[...customers].join(',')}`);
  t.ok([...labelValues(s, N.requests, 'status_class')].every((v) => /^[1-5]xx$|^other$/.test(v)));
  t.ok(labelValues(s, N.translationWarnings, 'kind').size <= 33, 'warning kinds capped');
  t.ok(labelValues(s, N.upstreamRetries, 'reason').size <= 17, 'retry reasons capped');
  t.ok(labelValues(s, N.circuitBreakerState, 'route').size <= 257, 'route names capped');
  for (const v of labelValues(s, N.translationWarnings, 'kind')) t.match(v, /^[A-Za-z0-9_.:-]{1,64}$/);
});

t.test('without a customer list, customer names are kept up to a cap and escaped in the exposition', async (t) => {
  const m = newMetrics();
  m.requestFinished(observation({ customer: 'Quote "and" back\\slash\nnewline' }));
  const s = await scrape(m);
  t.ok(labelValues(s, N.requests, 'customer').has('Quote "and" back\\slash\nnewline'));
  const many = newMetrics();
  for (let i = 0; i < 1100; i++) many.requestFinished(observation({ customer: `c${i}` }));
  const customers = labelValues(await scrape(many), N.requests, 'customer');
  t.equal(customers.size, 1001, '1000 names, then other');
  t.ok(customers.has('other'));
});

t.test('a catalogue that changes at run time is followed', async (t) => {
  const known = new Set(['a-model']);
  const m = createMetrics({ knownModels: () => known, collectProcessMetrics: false });
  m.requestFinished(observation({ model: 'b-model' }));
  known.add('b-model');
  m.requestFinished(observation({ model: 'b-model' }));
  const s = await scrape(m);
  t.equal(valueOf(s, N.requests, { model: 'other' }), 1);
  t.equal(valueOf(s, N.requests, { model: 'b-model' }), 1);
});

t.test('render answers the Prometheus text format', async (t) => {
  const { contentType, body } = await newMetrics().render();
  t.match(contentType, /^text\/plain; version=0\.0\.4/);
  t.match(body, /^# HELP model_gateway_/m);
});

t.test('exemplars: a traced observation marks its bucket, shown in OpenMetrics only', async (t) => {
  const m = createMetrics({ knownModels: () => MODELS });
  const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
  m.requestFinished(observation({ durationSec: 0.3, streamed: true, ttftSec: 0.07, traceId: null }));
  const before = (await m.render()).body;
  m.requestFinished(observation({ durationSec: 2, streamed: true, ttftSec: 0.4, traceId }));
  const om = await m.render(true);
  t.match(om.contentType, /^application\/openmetrics-text; version=1\.0\.0/);
  const lines = om.body.split('\n');
  const withExemplar = lines.filter((l) => l.includes('# {'));
  t.same(
    withExemplar.map((l) => l.replace(/ [0-9.]+$/, ' <time>')),
    [
      `${N.requestDuration}_bucket{surface="messages",model="claude-sonnet-4-6",outcome="ok",le="2.5"} 2 # {trace_id="${traceId}"} 2 <time>`,
      `${N.timeToFirstToken}_bucket{surface="messages",model="claude-sonnet-4-6",le="0.5"} 2 # {trace_id="${traceId}"} 0.4 <time>`,
    ],
    'the bucket each value fell in, and no other',
  );
  t.ok(lines.includes(`# TYPE model_gateway_requests counter`) && lines.some((l) => l.startsWith('model_gateway_requests_total{')), 'OpenMetrics counter naming');
  t.equal(lines.at(-2), '# EOF');
  // The Prometheus text is what it was: no exemplar, counters still named with _total.
  const after = (await m.render()).body;
  t.notMatch(after, /# \{trace_id=/);
  t.match(after, /^# TYPE model_gateway_requests_total counter$/m);
  const types = (body: string) => body.split('\n').filter((l) => l.startsWith('# TYPE'));
  t.same(types(after), types(before), 'rendering OpenMetrics renamed nothing');
});

t.test('every gateway metric name follows the conventions', async (t) => {
  for (const name of Object.values(N)) {
    t.match(name, /^model_gateway_[a-z_]+$/);
    if (name.endsWith('_total')) continue;
    // `_up` as in Prometheus's own `up`: 1 while a dependency answers. Counts of things in use or waiting
    // name the thing (connections, calls, rows). `_ratio` for a share (Prometheus' own convention for 0..1).
    // `_remaining`: what a provider reports left of a limit, in the unit its `kind` label names.
    t.ok(/_(seconds|requests|streams|state|up|connections|calls|rows|ratio|remaining)$/.test(name), `${name}: unit or noun suffix`);
  }
});

t.test('process metrics are exported under the gateway prefix when asked for', async (t) => {
  const m = createMetrics({ knownModels: () => MODELS });
  const s = await scrape(m);
  const names = new Set(s.map((x) => x.name));
  for (const n of [
    'model_gateway_nodejs_eventloop_lag_seconds',
    'model_gateway_nodejs_heap_size_used_bytes',
    'model_gateway_nodejs_active_handles_total',
    'model_gateway_process_cpu_seconds_total',
  ]) {
    t.ok(names.has(n), n);
  }
  t.ok([...names].every((n) => n.startsWith('model_gateway_')), 'nothing outside the prefix');
});

t.test('the registry serves JSON for a cluster aggregator with the same values', async (t) => {
  const m = newMetrics();
  m.requestFinished(observation({ durationSec: 1 }));
  const json = await m.registry.getMetricsAsJSON();
  const requests = json.find((x) => x.name === N.requests);
  t.equal(requests?.values[0]?.value, 1);
  const duration = json.find((x) => x.name === N.requestDuration);
  t.equal(duration?.type as unknown, 'histogram');
  t.ok(duration?.values.some((v) => v.labels.le === '+Inf' && v.value === 1));
});

t.test('registries of several processes aggregate the way a cluster primary would', async (t) => {
  const workers = [newMetrics(), newMetrics()];
  for (const m of workers) {
    m.requestStarted('chat');
    m.requestFinished(observation({ surface: 'chat', durationSec: 1, usage: { input: 10, output: 5, cacheRead: 0, cacheWrite: 0 } }));
  }
  workers[0].requestStarted('chat');
  workers[0].circuitState('claude-sonnet-4-6', 'open');
  workers[1].circuitState('claude-sonnet-4-6', 'closed');
  const merged = AggregatorRegistry.aggregate(await Promise.all(workers.map((m) => m.registry.getMetricsAsJSON())));
  const s = parseExposition(await merged.metrics());
  t.equal(valueOf(s, N.requests, { surface: 'chat' }), 2, 'counters add up');
  t.equal(valueOf(s, N.tokens, { type: 'input' }), 20);
  t.equal(valueOf(s, `${N.requestDuration}_bucket`, { le: '1' }), 2, 'histogram buckets add up');
  t.equal(valueOf(s, `${N.requestDuration}_count`), 2);
  t.equal(valueOf(s, N.inFlight, { surface: 'chat' }), 1, 'in-flight gauges add up');
  t.equal(valueOf(s, N.circuitBreakerState, { state: 'open' }), 1, 'the worst breaker state wins');
  t.equal(valueOf(s, N.circuitBreakerState, { state: 'closed' }), 1);
});
