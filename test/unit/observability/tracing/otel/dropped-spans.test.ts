// The dropped-spans meter provider alone, fed what the SDK's batch span processor reports on its
// `otel.sdk.processor.span.processed` counter: spans lost to a full queue or a failed export are
// counted by reason, a failing export is reported once until one succeeds again, and every other
// instrument is a no-op.
import t from 'tap';
import { droppedSpansMeterProvider, type DropReason } from '../../../../../src/observability/tracing/otel/dropped-spans.js';

function provider() {
  const dropped: Array<[DropReason, number]> = [];
  const failing: string[] = [];
  const meters = droppedSpansMeterProvider({ dropped: (reason, spans) => void dropped.push([reason, spans]), exportFailing: (name) => void failing.push(name) });
  const processed = meters.getMeter('batch-span-processor').createCounter('otel.sdk.processor.span.processed');
  return { meters, processed, dropped, failing };
}

t.test('spans sent are not counted; lost ones are, by reason', async (t) => {
  const { processed, dropped } = provider();
  processed.add(10);
  processed.add(3, { 'error.type': 'queue_full' });
  processed.add(5, { 'error.type': 'TimeoutError' });
  t.same(dropped, [['queue_full', 3], ['export_failed', 5]]);
});

t.test('a failing export is reported once per run of failures', async (t) => {
  const { processed, failing } = provider();
  processed.add(1, { 'error.type': 'TimeoutError' });
  processed.add(1, { 'error.type': 'TimeoutError' });
  processed.add(1, { 'error.type': 'queue_full' });
  t.same(failing, ['TimeoutError'], 'once, and a full queue is no export failure');
  processed.add(4);
  processed.add(1, { 'error.type': 'ECONNREFUSED' });
  t.same(failing, ['TimeoutError', 'ECONNREFUSED'], 'again after a batch went through');
});

t.test('every other instrument is a no-op', async (t) => {
  const { meters, dropped } = provider();
  const other = meters.getMeter('x').createCounter('otel.sdk.span.live');
  other.add(7, { 'error.type': 'queue_full' });
  t.same(dropped, []);
  t.doesNotThrow(() => meters.getMeter('x').createHistogram('h').record(1));
});
