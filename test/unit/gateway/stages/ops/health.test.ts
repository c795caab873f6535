// The ops stages alone, on a real server. healthz answers 200 whatever happens. readyz reads the
// database's answer, whether it is shared, whether the process drains, the upstream kind, the
// catalogue's source and every route's state; writes when readiness was last asked; answers 200 ready
// or 503 not_ready (a shared database being down is reported, not a reason to leave the load balancer).
// metrics reads the Accept header and whether tracing is on, and answers the real exposition.
import t from 'tap';
import type { Test } from 'tap';
import { healthzStage, metricsStage, readyzStage } from '../../../../../src/gateway/stages/ops/health.js';
import { createAnthropicProvider } from '../../../../../src/providers/anthropic/anthropic-provider.js';
import { RouteTable } from '../../../../../src/policy/routing/route-table.js';
import { DEFAULT_MODELS } from '../../../../../src/catalog/model.js';
import type { Lifecycle } from '../../../../../src/gateway/runtime.js';
import type { Stores } from '../../../../../src/stores/stores.js';
import type { Catalogue } from '../../../../../src/catalog/catalogue.js';
import type { Tracing } from '../../../../../src/observability/tracing/request-trace.js';
import { createMetrics } from '../../../../../src/observability/metrics.js';
import { closedPort } from '../../../../helpers/ports.js';
import { runtimeWith, stageServer } from '../stage-context.js';

const OPS = { name: '/readyz', surface: 'other', errorFormat: 'chat' } as const;
const NOW = Date.UTC(2026, 10, 28, 12);

t.test('healthz: 200 {"status":"ok"} with the collected headers', async (t) => {
  const server = await stageServer(t, healthzStage, { ...OPS, name: '/healthz' });
  const { response } = await server.ask({}, (ctx) => (ctx.headers['x-request-id'] = ctx.id));
  t.equal(response.status, 200);
  t.same(response.json(), { status: 'ok' });
  t.equal(response.headers['x-request-id'], 'req-1');
});

/** A route table with one route (sonnet's, made as a request would make it) on a provider never called. */
async function routeTable(t: Test): Promise<RouteTable> {
  const provider = createAnthropicProvider('anthropic', { baseUrl: `http://127.0.0.1:${await closedPort()}`, apiKey: 'sk-test' }, { connections: 1, connectTimeoutMs: 1000, headersTimeoutMs: 1000, bodyTimeoutMs: 1000 });
  t.teardown(() => provider.client.destroy());
  const routes = new RouteTable({ providers: [provider], named: false, configured: new Map(), breaker: { minCalls: 1, failurePercent: 50, windowMs: 60_000, coolDownMs: 60_000 } });
  routes.routesOf(DEFAULT_MODELS.find((m) => m.id === 'claude-sonnet-4-6')!);
  return routes;
}

interface ReadyCase {
  readonly name: string;
  readonly database: 'up' | 'down';
  readonly shared: boolean;
  readonly draining: boolean;
  readonly status: number;
  readonly body: Record<string, unknown>;
}

t.test('readyz: ready unless draining or its own database is down; the details in the body', async (t) => {
  const routes = await routeTable(t);
  const cases: ReadyCase[] = [
    { name: 'all well', database: 'up', shared: false, draining: false, status: 200, body: { status: 'ready', draining: false, database: 'ok' } },
    { name: 'its own database down', database: 'down', shared: false, draining: false, status: 503, body: { status: 'not_ready', database: 'unreachable' } },
    { name: 'the shared database down', database: 'down', shared: true, draining: false, status: 200, body: { status: 'ready', database: 'unreachable' } },
    { name: 'draining', database: 'up', shared: true, draining: true, status: 503, body: { status: 'not_ready', draining: true, database: 'ok' } },
  ];
  for (const c of cases) {
    const lifecycle: Lifecycle = { draining: c.draining, inFlight: 0 };
    const stores = { shared: c.shared, ready: async () => ({ database: c.database }) } as Stores;
    const rt = runtimeWith({ routes, wallClock: () => NOW, lifecycle, stores, simulated: false, catalogue: { live: true } as Catalogue });
    const server = await stageServer(t, readyzStage(rt), OPS);
    const { response } = await server.ask();
    t.equal(response.status, c.status, c.name);
    t.match(response.json(), { ...c.body, upstream: 'configured', models: 'live' }, c.name);
    t.ok(lifecycle.readinessAskedAt !== undefined, `${c.name}: the ask is recorded for the drain`);
  }
});

t.test('readyz: every route with its circuit and its view; the simulator and a configured list said so', async (t) => {
  const routes = await routeTable(t);
  const rt = runtimeWith({ routes, wallClock: () => NOW, lifecycle: { draining: false, inFlight: 0 }, stores: { shared: false, ready: async () => ({ database: 'up' }) } as Stores, simulated: true, catalogue: { live: false } as Catalogue });
  const server = await stageServer(t, readyzStage(rt), OPS);
  const body = (await server.ask()).response.json<{ upstream: string; models: string; circuits: Record<string, string>; routes: Array<Record<string, unknown>> }>();
  t.equal(body.upstream, 'simulator');
  t.equal(body.models, 'configured');
  t.same(body.circuits, { 'claude-sonnet-4-6': 'closed' });
  t.match(body.routes, [{ name: 'claude-sonnet-4-6', model: 'claude-sonnet-4-6', provider: 'anthropic', circuit: 'closed', state: 'ready', coolingUntil: null }]);
  t.notMatch(JSON.stringify(body), /sk-test/, 'no credential');
});

t.test('metrics: the real exposition; OpenMetrics only when tracing is on and the scraper asks for it', async (t) => {
  const cases: Array<[string, boolean, string | undefined, RegExp]> = [
    ['tracing off, OpenMetrics asked', false, 'application/openmetrics-text;version=1.0.0;q=0.5,text/plain;q=0.1', /^text\/plain/],
    ['tracing on, OpenMetrics asked', true, 'application/openmetrics-text;version=1.0.0;q=0.5,text/plain;q=0.1', /^application\/openmetrics-text/],
    ['tracing on, text asked', true, 'text/plain', /^text\/plain/],
    ['tracing on, nothing asked', true, undefined, /^text\/plain/],
  ];
  for (const [name, enabled, accept, type] of cases) {
    const metrics = createMetrics({ knownModels: () => new Set(DEFAULT_MODELS.map((m) => m.id)), collectProcessMetrics: false });
    metrics.requestStarted('messages');
    const server = await stageServer(t, metricsStage(runtimeWith({ metrics, tracing: { enabled } as Tracing })), { ...OPS, name: '/metrics' });
    const { response } = await server.ask({ headers: accept === undefined ? {} : { accept } });
    t.equal(response.status, 200, name);
    t.match(response.headers['content-type'], type, `${name}: content type`);
    t.match(response.text, /model_gateway_in_flight_requests\{surface="messages"\} 1/, `${name}: the gateway's own series`);
  }
});
