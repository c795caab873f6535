// The metrics hot path, per request: requestFinished (with warm label children), the in-flight
// pair around it, the stream gauges, a key-cache count; and one scrape. Labels rotate over
// realistic combinations (3 models, 4 customers, 2 surfaces, some errors and streams).
// `node dist/bench/micro/metrics.js`
import { createMetrics, type GatewayMetrics } from '../../src/observability/metrics.js';
import type { RequestObservation } from '../../src/observability/request-observation.js';
import type { MicroCase } from './harness.js';
import { formatResults, isMain, measure, measureAsync } from './harness.js';

const MODELS = ['claude-opus-4-7', 'claude-sonnet-4-6', 'claude-haiku-4-5-20251001'];
const CUSTOMERS = ['acme', 'globex', 'initech', 'umbrella'];

function observations(): RequestObservation[] {
  const list: RequestObservation[] = [];
  for (let i = 0; i < 64; i++) {
    const streamed = i % 2 === 0;
    const failed = i % 16 === 0;
    list.push({
      surface: i % 3 === 0 ? 'chat' : 'messages',
      model: MODELS[i % MODELS.length],
      customer: CUSTOMERS[i % CUSTOMERS.length],
      status: failed ? 429 : 200,
      outcome: failed ? 'client_error' : 'ok',
      durationSec: 0.2 + (i % 7) * 0.9,
      upstreamHeadersSec: 0.15 + (i % 5) * 0.1,
      ttftSec: streamed ? 0.3 + (i % 4) * 0.2 : null,
      usage: { input: 100 + i, output: 20 + i, cacheRead: i % 3 === 0 ? 500 : 0, cacheWrite: i % 5 === 0 ? 50 : 0 },
      streamed,
      generationSec: streamed ? 1.5 : null,
      traceId: null,
    });
  }
  return list;
}

export function metricsCases(): { cases: MicroCase[]; metrics: GatewayMetrics } {
  const known = new Set(MODELS);
  const metrics = createMetrics({ knownModels: () => known, collectProcessMetrics: false });
  const obs = observations();
  let i = 0;
  return {
    metrics,
    cases: [
      { name: 'requestFinished', fn: () => metrics.requestFinished(obs[i++ & 63]) },
      {
        name: 'requestStarted + requestFinished',
        fn: () => {
          const o = obs[i++ & 63];
          metrics.requestStarted(o.surface);
          metrics.requestFinished(o);
        },
      },
      {
        name: 'streamOpened + streamClosed',
        fn: () => {
          metrics.streamOpened('messages');
          metrics.streamClosed('messages');
        },
      },
      { name: 'keyCache(hit)', fn: () => metrics.keyCache(true) },
    ],
  };
}

if (isMain(import.meta.url)) {
  const { cases, metrics } = metricsCases();
  const results = cases.map((c) => measure(c));
  results.push(await measureAsync({ name: 'render (one scrape, after the cases)', fn: () => metrics.render() }, { runs: 3 }));
  console.log(formatResults('metrics, per call', results));
}
