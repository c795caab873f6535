// Counts the spans that never reach the collector, as the SDK itself counts them. The batch span
// processor reports every span it is done with on its self-observability counter
// `otel.sdk.processor.span.processed`, with `error.type` when the span was lost: `queue_full` when it
// was dropped because the queue was full, the error's name when the exporter failed to send its
// batch (the collector slow, down or refusing). This meter provider turns exactly those reports into
// `model_gateway_trace_spans_dropped_total`; every other instrument is OpenTelemetry's no-op.
import type { Attributes, Counter, Meter, MeterProvider } from '@opentelemetry/api';
import { createNoopMeter } from '@opentelemetry/api';

export type DropReason = 'queue_full' | 'export_failed';

export interface DropCounter {
  dropped(reason: DropReason, spans: number): void;
  /** A batch failed to export after the last one that succeeded (or first of all): worth one log line. */
  exportFailing(errorName: string): void;
}

const PROCESSED_SPANS = 'otel.sdk.processor.span.processed';
const ERROR_TYPE = 'error.type';

export function droppedSpansMeterProvider(counter: DropCounter): MeterProvider {
  const noop = createNoopMeter();
  let failing = false;
  const processed: Counter = {
    add(spans: number, attributes?: Attributes) {
      const error = attributes?.[ERROR_TYPE];
      if (error === undefined) {
        failing = false;
        return;
      }
      if (error === 'queue_full') return counter.dropped('queue_full', spans);
      counter.dropped('export_failed', spans);
      if (!failing) counter.exportFailing(String(error));
      failing = true;
    },
  };
  const meter = Object.create(noop) as Meter;
  meter.createCounter = (name, options) => (name === PROCESSED_SPANS ? (processed as ReturnType<Meter['createCounter']>) : noop.createCounter(name, options));
  return { getMeter: () => meter };
}
