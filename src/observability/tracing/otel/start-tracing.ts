// Tracing on the OpenTelemetry SDK, built from the gateway's tracing settings (src/config/tracing-config.ts)
// with every option passed explicitly. This module is imported (dynamically, once at start-up) only
// when tracing is on: with it off, no OpenTelemetry package is loaded in the process.
//
// The OTLP exporters are the SDK's own; they still read the OTEL_EXPORTER_OTLP_* variables this gateway
// does not pass (TLS certificate files, compression), which mean the same to them as to any OTel service.
//
// Export never holds a request: spans go to the SDK's batch span processor, whose queue is bounded;
// a slow or dead collector makes it drop spans, which are counted (dropped-spans.ts).
import type { Sampler } from '@opentelemetry/sdk-trace';
import { AlwaysOffSampler, AlwaysOnSampler, BatchSpanProcessor, ParentBasedSampler, TraceIdRatioBasedSampler, TracerProvider } from '@opentelemetry/sdk-trace';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { defaultResource, resourceFromAttributes } from '@opentelemetry/resources';
import { OTLPTraceExporter as OtlpProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { OTLPTraceExporter as OtlpJsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import type { TracingSettings } from '../../../config/tracing-config.js';
import type { Tracing } from '../request-trace.js';
import type { DropCounter } from './dropped-spans.js';
import { droppedSpansMeterProvider } from './dropped-spans.js';
import { OtelRequestTrace } from './spans.js';

const INSTRUMENTATION_SCOPE = 'model-gateway';

export function startTracing(settings: TracingSettings, drops: DropCounter): Tracing {
  const { exporter: target, batch } = settings;
  const options = { url: target.url, headers: { ...target.headers }, timeoutMillis: target.timeoutMs };
  const exporter = target.protocol === 'http/json' ? new OtlpJsonExporter(options) : new OtlpProtobufExporter(options);
  const processor = new BatchSpanProcessor({
    exporter,
    maxQueueSize: batch.maxQueueSize,
    maxExportBatchSize: batch.maxExportBatchSize,
    scheduledDelayMillis: batch.scheduleDelayMs,
    exportTimeoutMillis: batch.exportTimeoutMs,
    // Its own count of the spans it drops or fails to send, read into the gateway's counter.
    selfObsMeterProvider: droppedSpansMeterProvider(drops),
  });
  // @opentelemetry/sdk-trace reads no environment variable: everything it uses is given here.
  const provider = new TracerProvider({
    resource: defaultResource().merge(resourceFromAttributes({ ...settings.resourceAttributes, 'service.name': settings.serviceName })),
    sampler: samplerOf(settings.sampler),
    spanProcessors: [processor],
  });
  // Registered nowhere globally: the gateway hands its tracer and propagator to its own spans only.
  const tracer = provider.getTracer(INSTRUMENTATION_SCOPE);
  const propagator = new W3CTraceContextPropagator();
  return {
    enabled: true,
    startRequest: (headers, startedAt) => OtelRequestTrace.start(tracer, propagator, headers, startedAt),
    async shutdown(timeoutMs) {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, timeoutMs);
        timer.unref();
      });
      // What is queued is sent within the grace period; past it the process stops regardless.
      await Promise.race([provider.shutdown().catch(() => {}), late]);
      clearTimeout(timer);
    },
  };
}

function samplerOf({ name, ratio }: TracingSettings['sampler']): Sampler {
  switch (name) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return new TraceIdRatioBasedSampler(ratio);
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratio) });
    case 'parentbased_always_on':
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
  }
}
