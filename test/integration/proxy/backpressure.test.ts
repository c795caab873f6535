// A slow reader slows the gateway down: the proxy holds only what the socket and stream buffers hold,
// whatever the size of the stream.
import t from 'tap';
import { request } from 'undici';
import { FIREHOSE_BYTES, FIREHOSE_PATH, probeRoutes } from './fixtures/gateway-routes.js';
import { proxiedGateway } from './fixtures/proxy.js';

/** Kernel socket buffers on two loopback connections plus the stream buffers in between stay far below this. */
const MAX_IN_FLIGHT = 40 * 1024 * 1024;

t.test('the proxy passes the client back-pressure on to the gateway', async (t) => {
  // Every backpressure wait on either side must leave no listener behind: a leak shows as Node's warning.
  const warnings: string[] = [];
  const onWarning = (w: Error) => warnings.push(`${w.name}: ${w.message}`);
  process.on('warning', onWarning);
  t.teardown(() => void process.off('warning', onWarning));
  const probe = probeRoutes(() => 'unused');
  const { p } = await proxiedGateway(t, { extraRoutes: () => probe.routes });
  const res = await request(`${p.url}${FIREHOSE_PATH}`);
  t.equal(res.statusCode, 200);
  let read = 0;
  let maxInFlight = 0;
  let nextPause = 0;
  for await (const chunk of res.body) {
    read += (chunk as Buffer).length;
    maxInFlight = Math.max(maxInFlight, probe.firehoseWritten() - read);
    if (read >= nextPause) {
      // A slow reader: every MiB it stops for a moment, and a proxy that buffered would race ahead.
      nextPause += 1024 * 1024;
      await new Promise((r) => setTimeout(r, 2));
    }
  }
  t.equal(read, FIREHOSE_BYTES, 'everything arrived');
  t.ok(maxInFlight < MAX_IN_FLIGHT, `at most ${(maxInFlight / 1048576).toFixed(1)} MiB were between the gateway and the reader`);
  // Warnings are emitted on the next tick.
  await new Promise((r) => setImmediate(r));
  t.same(warnings.filter((w) => w.startsWith('MaxListenersExceededWarning')), [], 'no listener piled up');
});
