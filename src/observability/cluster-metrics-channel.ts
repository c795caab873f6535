// /metrics across cluster workers. A scrape lands on any one worker; that worker asks the primary,
// the primary collects every worker's registry (prom-client's AggregatorRegistry) and answers with
// the sum, so Prometheus sees one gateway whichever worker it reached.
import cluster from 'node:cluster';
import { AggregatorRegistry } from 'prom-client';
import type { GatewayMetrics } from './metrics.js';
import { errorMessage } from '../lib/error-message.js';

const REQUEST = 'model-gateway:cluster-metrics-req';
const RESPONSE = 'model-gateway:cluster-metrics-res';
const TIMEOUT_MS = 5000;

interface MetricsRequest {
  type: typeof REQUEST;
  id: number;
}

interface MetricsResponse {
  type: typeof RESPONSE;
  id: number;
  body?: string;
  contentType?: string;
  error?: string;
}

/** Primary side: answers workers' scrape requests with the aggregate of all workers. */
export function serveClusterMetrics(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on('message', (worker, raw: unknown) => {
    const msg = raw as Partial<MetricsRequest>;
    if (msg?.type !== REQUEST || typeof msg.id !== 'number') return;
    const id = msg.id;
    const reply = (r: Omit<MetricsResponse, 'type' | 'id'>) => {
      if (worker.isConnected()) worker.send({ type: RESPONSE, id, ...r } satisfies MetricsResponse);
    };
    aggregator.clusterMetrics().then(
      (body) => reply({ body, contentType: aggregator.contentType }),
      (err: unknown) => reply({ error: errorMessage(err) }),
    );
  });
}

/** Worker side: the same metrics, whose render() returns the cluster-wide aggregate. */
export function clusterWideMetrics(metrics: GatewayMetrics): GatewayMetrics {
  // Constructing one installs prom-client's worker listener; setRegistries says what it reports.
  new AggregatorRegistry();
  AggregatorRegistry.setRegistries([metrics.registry]);
  let nextId = 1;
  const pending = new Map<number, (r: MetricsResponse) => void>();
  process.on('message', (raw: unknown) => {
    const msg = raw as Partial<MetricsResponse>;
    if (msg?.type !== RESPONSE || typeof msg.id !== 'number') return;
    pending.get(msg.id)?.(msg as MetricsResponse);
    pending.delete(msg.id);
  });
  const render = (): Promise<{ contentType: string; body: string }> =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new Error('the cluster primary did not answer the metrics request'));
      }, TIMEOUT_MS);
      pending.set(id, (r) => {
        clearTimeout(timer);
        if (r.error !== undefined || r.body === undefined) reject(new Error(r.error ?? 'no metrics'));
        else resolve({ contentType: r.contentType ?? metrics.registry.contentType, body: r.body });
      });
      process.send?.({ type: REQUEST, id } satisfies MetricsRequest);
    });
  return { ...metrics, render };
}
