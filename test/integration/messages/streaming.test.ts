// Streams under stress: the client leaving, the client reading slowly, the gateway shutting down.
import { request } from 'undici';
import t from 'tap';
import { drain } from '../../../src/gateway/server.js';
import { startHarness, type Harness } from '../../helpers/harness.js';
import { bearer } from '../../helpers/http.js';
import { waitFor } from '../../helpers/wait.js';

const streamBody = (content: string, maxTokens = 60000) =>
  JSON.stringify({ model: 'claude-sonnet-4-6', max_tokens: maxTokens, stream: true, messages: [{ role: 'user', content }] });

/** Waits until two readings of the simulator's written bytes `stepMs` apart agree; the count it stopped at. */
async function upstreamStopsWriting(h: Harness, withinMs: number, stepMs: number): Promise<number> {
  let previous = -1;
  await waitFor(() => {
    const now = h.simulator.bytesWritten();
    const stalled = now === previous;
    previous = now;
    return stalled;
  }, withinMs, stepMs);
  return previous;
}

t.test('a client abort mid-stream cancels the upstream request at once', async (t) => {
  const h = await startHarness({ simulator: { replyTokens: 100000, tokensPerSecond: 200 } });
  t.teardown(() => h.close());
  const { key } = await h.createKey();
  const controller = new AbortController();
  const res = await request(`${h.url}/gateway/v1/messages`, { method: 'POST', headers: bearer(key), body: streamBody('long one'), signal: controller.signal });
  t.equal(res.statusCode, 200);
  let got = 0;
  for await (const chunk of res.body) {
    got += (chunk as Buffer).length;
    if (got > 2000) break;
  }
  controller.abort();
  // Generation upstream must stop: the simulator paces 200 tokens/s, so a live stream grows every 200 ms.
  await upstreamStopsWriting(h, 3000, 250);
  t.pass('the upstream stopped writing once the client left');
  await waitFor(() => h.runtime.lifecycle.inFlight === 0, 3000);
  await waitFor(() => /client_cancelled/.test(h.logText()), 3000);
  const line = h.logText().split('\n').find((l) => l.includes('client_cancelled'))!;
  const logged = JSON.parse(line);
  t.ok(logged.tokens.input > 0, 'usage received so far is still recorded');
});

t.test('a slow reader slows the upstream read instead of growing memory', async (t) => {
  // About 7 MB in all. Loopback sockets here can buffer tens of MB, so this file cannot tell a
  // held-back provider from one whose whole reply sits in kernel buffers: the bound on what the relay
  // buffers is proven in test/unit/gateway/relay/relay-answer.test.ts, with a provider that never stops.
  // Here, end to end: the writes stop while the client does not read, and nothing is lost after.
  const h = await startHarness({ simulator: { replyTokens: 400000, tokensPerSecond: 0 } });
  t.teardown(() => h.close());
  const { key } = await h.createKey();
  const controller = new AbortController();
  const res = await request(`${h.url}/gateway/v1/messages`, { method: 'POST', headers: bearer(key), body: streamBody('flood'), signal: controller.signal });
  t.equal(res.statusCode, 200);
  // Read one chunk, then stop reading for a while: socket buffers fill, and the upstream must pause.
  const it = res.body[Symbol.asyncIterator]();
  await it.next();
  // Wait for the upstream's writes to stop (two readings 300 ms apart agree), however slow the machine.
  const previous = await upstreamStopsWriting(h, 60_000, 300);
  t.ok(previous > 0, `upstream writes stalled while the client did not read (at ${previous} bytes)`);
  let total = 0;
  let last: Buffer = Buffer.alloc(0);
  for (;;) {
    const { value, done } = await it.next();
    if (done) break;
    total += (value as Buffer).length;
    last = value as Buffer;
  }
  t.ok(total > 1_000_000, `the whole stream still arrives (${total} bytes)`);
  t.match(last.toString('utf8'), /event: message_stop/, 'to its last event');
  controller.abort();
});

t.test('graceful shutdown lets a running stream finish', async (t) => {
  const h = await startHarness({ simulator: { replyTokens: 30, tokensPerSecond: 60 } });
  t.teardown(() => h.close());
  const { key } = await h.createKey();
  const res = await request(`${h.url}/gateway/v1/messages`, { method: 'POST', headers: bearer(key), body: streamBody('finish me') });
  t.equal(res.statusCode, 200);
  const textPromise = res.body.text();
  const drained = drain(h.server, h.runtime.lifecycle, 5000);
  t.equal(h.runtime.lifecycle.draining, true);
  const text = await textPromise;
  t.match(text, /event: message_stop/, 'the stream ran to its end during the drain');
  t.equal(await drained, true, 'drain finished cleanly within the grace period');
});
