// A stand-in scrape target: a tiny node:http server exposing a registry from createMetrics(),
// and a traffic driver that records, through the public API only, what real traffic on both
// surfaces would: streams, errors, warnings, rate limits, cache hits, upstream trouble.
import { createServer, type Server } from 'node:http';
import { DEFAULT_MODELS } from '../../../src/catalog/model.js';
import { createMetrics, type GatewayMetrics } from '../../../src/observability/metrics.js';
import type { RequestObservation } from '../../../src/observability/request-observation.js';

export interface SyntheticTarget {
  readonly url: string;
  readonly metrics: GatewayMetrics;
  drive(round: number): Promise<void>;
  close(): Promise<void>;
}

export async function startSyntheticTarget(): Promise<SyntheticTarget> {
  const models = new Set(DEFAULT_MODELS.map((m) => m.id));
  const metrics = createMetrics({ knownModels: () => models, collectProcessMetrics: true });
  // Two routes of one model as a scrape reads them: one cooling down, both with headroom reported.
  metrics.watchRoutes(() => [
    { route: 'claude-sonnet-4-6@account-a', provider: 'account-a', cooling: 'throttled', headroom: { requests: 0, tokens: 40_000 } },
    { route: 'claude-sonnet-4-6@account-b', provider: 'account-b', cooling: null, headroom: { requests: 3999, tokens: 1_600_000 } },
  ]);
  const server: Server = createServer((req, res) => {
    if (req.url !== '/metrics') {
      res.writeHead(404).end();
      return;
    }
    metrics.render().then(
      ({ contentType, body }) => res.writeHead(200, { 'content-type': contentType }).end(body),
      () => res.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no address');
  return {
    url: `http://127.0.0.1:${address.port}/metrics`,
    metrics,
    drive: async (round) => driveRound(metrics, [...models], round),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function driveRound(m: GatewayMetrics, models: string[], round: number): void {
  const customers = ['acme', 'globex'];
  let i = 0;
  for (const surface of ['messages', 'chat'] as const) {
    for (const model of models) {
      for (const customer of customers) {
        for (const streamed of [true, false]) {
          m.requestStarted(surface);
          if (streamed) m.streamOpened(surface);
          m.keyCache(i++ % 4 !== 0);
          m.requestFinished(ok(surface, model, customer, streamed, round));
          m.spent(model, customer, { nanoUsd: 1_000_000 * (round + 1), priced: true });
          if (streamed) m.streamClosed(surface);
        }
      }
    }
    m.requestFinished({ ...ok(surface, models[0], 'acme', false, round), status: 429, outcome: 'client_error' });
    m.rateLimited(surface, 'key');
    m.requestFinished({ ...ok(surface, models[1], 'globex', true, round), status: 502, outcome: 'upstream_error' });
    m.requestFinished({ ...ok(surface, models[2], 'acme', true, round), outcome: 'client_cancelled' });
    m.loadShed(surface);
  }
  m.requestStarted('models');
  m.requestFinished({ ...ok('models', 'other', 'acme', false, round), upstreamHeadersSec: null, usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } });
  m.translationWarning('temperature_clamped');
  m.translationWarning('ignored_field');
  m.authFailure('unknown');
  m.authFailure('missing');
  m.upstreamError('timeout');
  m.upstreamError('connect');
  m.retry('connect_refused');
  m.circuitState('claude-sonnet-4-6', round === 1 ? 'open' : 'closed');
  m.routeAttempt('claude-sonnet-4-6@account-a', 'account-a', 'rate_limited');
  m.routeAttempt('claude-sonnet-4-6@account-b', 'account-b', 'ok');
  // As a fleet instance losing Redis for a round: down, deciding alone.
  m.sharedStoreUp('redis', round !== 1);
  if (round === 1) m.rateLimitFallback();
  m.budgetUtilisation('acme', 'month', 0.5 + round * 0.1);
  m.budgetExceeded('customer', round === 1 ? 'refused' : 'flagged');
  makeGarbage();
}

function ok(surface: 'messages' | 'chat' | 'models', model: string, customer: string, streamed: boolean, round: number): RequestObservation {
  const jitter = (round + 1) * 0.05;
  return {
    surface,
    model,
    customer,
    status: 200,
    outcome: 'ok',
    durationSec: 1.5 + jitter,
    upstreamHeadersSec: streamed ? 0.3 + jitter : 1.4 + jitter,
    ttftSec: streamed ? 0.4 + jitter : null,
    usage: { input: 120, output: 48, cacheRead: 600, cacheWrite: 30 },
    streamed,
    generationSec: streamed ? 1 : null,
    traceId: null,
  };
}

// The GC panel reads a histogram that only exists once a collection has run.
function makeGarbage(): void {
  let keep = 0;
  for (let i = 0; i < 200_000; i++) keep += { i, s: `x${i}` }.s.length;
  if (keep < 0) throw new Error('unreachable');
}
