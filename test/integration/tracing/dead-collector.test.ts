// Export never holds a request: with a collector that takes every export and never answers, requests
// are answered as usual, the batch processor's bounded queue overflows, and what is lost is counted
// (model_gateway_trace_spans_dropped_total: queue_full, and export_failed when the exporter gives up).
import t from 'tap';
import { startHarness } from '../../helpers/harness.js';
import { bearer, call } from '../../helpers/http.js';
import { startOtlpReceiver } from '../../helpers/otlp-receiver.js';
import { waitFor } from '../../helpers/wait.js';

t.test('a collector that never answers: every request served, the lost spans counted', async (t) => {
  const collector = await startOtlpReceiver({ silent: true });
  const h = await startHarness({
    env: {
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      OTEL_EXPORTER_OTLP_TRACES_TIMEOUT: '300',
      OTEL_BSP_SCHEDULE_DELAY: '1',
      OTEL_BSP_MAX_QUEUE_SIZE: '4',
      OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '2',
    },
  });
  t.teardown(async () => {
    await h.close();
    await collector.close();
  });
  const { key } = await h.createKey();
  const body = (stream: boolean) => JSON.stringify({ model: 'claude-haiku-4-5-20251001', max_tokens: 16, stream, messages: [{ role: 'user', content: 'hi' }] });
  // 40 requests, 8 at a time, while the first export hangs: each one is answered in full.
  for (let round = 0; round < 5; round++) {
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        i % 2 === 0
          ? call(`${h.url}/gateway/v1/messages`, { body: body(i % 4 === 0), headers: bearer(key) })
          : call(`${h.url}/gateway/openai/v1/chat/completions`, { body: JSON.stringify({ model: 'claude-haiku-4-5-20251001', messages: [{ role: 'user', content: 'hi' }] }), headers: bearer(key) }),
      ),
    );
    t.same(answers.map((a) => a.status), Array(8).fill(200), `round ${round + 1}: every request answered`);
  }
  t.ok(collector.exports.length > 0, 'the gateway did try to export');
  t.equal(collector.spans.length, 0, 'and the collector never took a span');
  const dropped = async (reason: string) => {
    const m = new RegExp(`^model_gateway_trace_spans_dropped_total\\{reason="${reason}"\\} (\\d+)$`, 'm').exec((await call(`${h.url}/metrics`)).text);
    return m === null ? -1 : Number(m[1]);
  };
  // 40 requests are 80 spans; a queue of 4 holds almost none of them while the export hangs.
  await waitFor(async () => (await dropped('queue_full')) > 40, 10_000);
  await waitFor(async () => (await dropped('export_failed')) > 0, 10_000);
  t.pass(`dropped: ${await dropped('queue_full')} with the queue full, ${await dropped('export_failed')} in failed exports`);
  t.match(h.logText(), /trace export failed; spans are dropped and counted/, 'said once in the log');
  t.equal(h.logText().match(/trace export failed/g)?.length, 1, 'once, not per batch');
});

t.test('tracing off: the dropped-spans counter exists at zero', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const text = (await call(`${h.url}/metrics`)).text;
  t.match(text, /^model_gateway_trace_spans_dropped_total\{reason="queue_full"\} 0$/m);
  t.match(text, /^model_gateway_trace_spans_dropped_total\{reason="export_failed"\} 0$/m);
});
