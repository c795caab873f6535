// The composition root's observability: the logs (with every secret the process knows redacted), the
// metrics (summed over the workers in a worker of serve --workers N) and, when configured, tracing.
import type { Writable } from 'node:stream';
import type { Logger } from 'pino';
import type { Catalogue } from '../../catalog/catalogue.js';
import type { GatewayConfig } from '../../config/config.js';
import { clusterWideMetrics } from '../../observability/cluster-metrics-channel.js';
import { createLogging } from '../../observability/logger.js';
import { createMetrics, type GatewayMetrics } from '../../observability/metrics.js';
import type { TracingSettings } from '../../config/tracing-config.js';
import { NO_TRACING, type Tracing } from '../../observability/tracing/request-trace.js';

/** `adminToken`: redacted with the other secrets. */
export function buildLogging(config: GatewayConfig, adminToken: string, destination: Writable | undefined): ReturnType<typeof createLogging> {
  // The collector's headers often carry its API key: redacted like the gateway's own secrets.
  const exportHeaders = Object.values(config.tracing?.exporter.headers ?? {}).filter((v) => v.length >= 8);
  const secrets = [config.upstreamApiKey, adminToken, config.metrics.token, ...exportHeaders].filter((s): s is string => s !== null);
  const logging = createLogging({ level: config.logLevel, destination, secrets });
  for (const warning of config.warnings) logging.logger.warn(warning);
  return logging;
}

/** The metrics know the catalogue's models, so they are built after it. */
export async function buildMetricsAndTracing(
  config: GatewayConfig,
  catalogue: Catalogue,
  clusterWorker: boolean,
  logger: Logger,
): Promise<{ metrics: GatewayMetrics; tracing: Tracing }> {
  const ownMetrics = createMetrics({ knownModels: () => catalogue.ids() });
  const metrics = clusterWorker ? clusterWideMetrics(ownMetrics) : ownMetrics;
  const tracing = config.tracing === null ? NO_TRACING : await startTracing(config.tracing, metrics, logger);
  return { metrics, tracing };
}

/**
 * OpenTelemetry tracing: its SDK is imported here, at start-up, and only when tracing is on, so a
 * gateway without an OTLP endpoint never loads it (observability/tracing/request-trace.ts).
 */
async function startTracing(settings: TracingSettings, metrics: GatewayMetrics, logger: Logger): Promise<Tracing> {
  const otel = await import('../../observability/tracing/otel/start-tracing.js');
  const tracing = otel.startTracing(settings, {
    dropped: (reason, spans) => metrics.traceSpansDropped(reason, spans),
    exportFailing: (errorName) => logger.warn({ error: errorName, endpoint: settings.exporter.url }, 'trace export failed; spans are dropped and counted until the collector takes them again'),
  });
  logger.info({ endpoint: settings.exporter.url, protocol: settings.exporter.protocol, sampler: settings.sampler.name }, 'tracing on (OpenTelemetry)');
  return tracing;
}
