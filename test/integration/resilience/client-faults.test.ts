// Clients that misbehave: they disconnect at every phase, read slowly, or send headers or bodies
// slowly. No crash, the upstream request aborted at once, usage kept for what arrived, memory held
// flat by backpressure on both surfaces, and nothing left behind.
import t from 'tap';
import type { Test } from 'tap';
import { Agent, request } from 'undici';
import type { Harness } from '../../helpers/harness.js';
import { startHarness } from '../../helpers/harness.js';
import { bearer } from '../../helpers/http.js';
import { waitFor } from '../../helpers/wait.js';
import { rawExchange } from './fixtures/raw-http.js';
import type { Resources } from './fixtures/resources.js';
import { above, quietBaseline, settled } from './fixtures/resources.js';

const MODEL = 'claude-sonnet-4-6';
const PATHS = { messages: '/gateway/v1/messages', chat: '/gateway/openai/v1/chat/completions' } as const;
type Surface = keyof typeof PATHS;
const SURFACES: Surface[] = ['messages', 'chat'];
const body = (stream: boolean, maxTokens = 2000) =>
  JSON.stringify({ model: MODEL, max_tokens: maxTokens, stream, messages: [{ role: 'user', content: 'a long answer please' }] });

async function leakCheck(t: Test, h: Harness, baseline: Resources): Promise<void> {
  await waitFor(() => h.runtime.lifecycle.inFlight === 0, 3000);
  const after = await settled(h, baseline);
  t.same(above(after, baseline), [], `nothing left behind (${JSON.stringify(baseline)} → ${JSON.stringify(after)})`);
}

async function warmBaseline(h: Harness, key: string): Promise<Resources> {
  const warm = new Agent();
  for (const s of SURFACES) await (await request(`${h.url}${PATHS[s]}`, { method: 'POST', headers: bearer(key), body: body(true, 8), dispatcher: warm })).body.text();
  await warm.close();
  return quietBaseline(h);
}

const posts = (h: Harness) => h.simulator.received.filter((r) => r.method === 'POST').length;

t.test('disconnects at every phase', async (t) => {
  const h = await startHarness({ simulator: { replyTokens: 5000, tokensPerSecond: 400 } });
  t.teardown(() => h.close());
  const { key } = await h.createKey();
  const baseline = await warmBaseline(h, key);

  t.test('while sending headers', async (t) => {
    await rawExchange(h.port, [`POST ${PATHS.messages} HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${key}\r\ncontent-`], { waitMs: 100 }).catch(() => null);
    await leakCheck(t, h, baseline);
  });

  t.test('while sending the body', async (t) => {
    const sent = posts(h);
    await rawExchange(h.port, [`POST ${PATHS.chat} HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${key}\r\ncontent-type: application/json\r\ncontent-length: 5000\r\n\r\n{"model":`], { waitMs: 100 }).catch(() => null);
    await leakCheck(t, h, baseline);
    t.equal(posts(h), sent, 'nothing went upstream');
  });

  for (const surface of SURFACES) {
    t.test(`${surface}: while waiting for the upstream's headers`, async (t) => {
      h.simulator.injectFault({ kind: 'hang-before-headers' });
      const sent = posts(h);
      const client = new Agent();
      const controller = new AbortController();
      const pending = request(`${h.url}${PATHS[surface]}`, { method: 'POST', headers: bearer(key), body: body(false), signal: controller.signal, dispatcher: client }).catch((e: Error) => e);
      await waitFor(() => posts(h) === sent + 1, 3000);
      controller.abort();
      t.type(await pending, Error);
      await client.close();
      await leakCheck(t, h, baseline);
      await waitFor(() => /"outcome":"client_cancelled"/.test(h.logText()), 3000);
    });

    t.test(`${surface}: in the middle of a stream`, async (t) => {
      const before = await h.built.stores.usage.totals();
      const client = new Agent();
      const controller = new AbortController();
      const res = await request(`${h.url}${PATHS[surface]}`, { method: 'POST', headers: bearer(key), body: body(true), signal: controller.signal, dispatcher: client });
      t.equal(res.statusCode, 200);
      let got = 0;
      try {
        for await (const chunk of res.body) {
          got += (chunk as Buffer).length;
          if (got > 3000) controller.abort();
        }
      } catch {
        // the abort
      }
      await client.close();
      await leakCheck(t, h, baseline);
      await waitFor(async () => (await h.built.stores.usage.totals()).outputTokens > before.outputTokens, 30_000);
      const after = await h.built.stores.usage.totals();
      t.ok(after.inputTokens > before.inputTokens, 'input tokens received are recorded');
      t.ok(after.outputTokens - before.outputTokens < 5000, 'but not the whole reply: the upstream was stopped');
    });

    t.test(`${surface}: right after the response was complete`, async (t) => {
      const client = new Agent();
      const res = await request(`${h.url}${PATHS[surface]}`, { method: 'POST', headers: bearer(key), body: body(false, 8), dispatcher: client });
      await res.body.text();
      await client.destroy();
      await leakCheck(t, h, baseline);
    });
  }

  t.test('during a retry pause', async (t) => {
    const retrying = await startHarness({ env: { GATEWAY_RETRY_ATTEMPTS: '3', GATEWAY_RETRY_AFTER_CAP_MS: '20000' } });
    t.teardown(() => retrying.close());
    const k = await retrying.createKey();
    const base = await warmBaseline(retrying, k.key);
    retrying.simulator.injectFault({ kind: 'status', status: 529, retryAfter: 10 });
    const sent = posts(retrying);
    const client = new Agent();
    const controller = new AbortController();
    const pending = request(`${retrying.url}${PATHS.messages}`, { method: 'POST', headers: bearer(k.key), body: body(false), signal: controller.signal, dispatcher: client }).catch((e: Error) => e);
    await waitFor(() => posts(retrying) === sent + 1, 3000);
    await new Promise((r) => setTimeout(r, 100));
    controller.abort();
    await pending;
    await client.close();
    await leakCheck(t, retrying, base);
    t.equal(posts(retrying), sent + 1, 'no retry after the client left');
  });
});

t.test('a slow reader holds the upstream back on both surfaces (memory stays flat)', async (t) => {
  // 60,000 tokens are about half a megabyte of events: far more than the socket buffers hold.
  const h = await startHarness({ simulator: { replyTokens: 400_000, tokensPerSecond: 0 } });
  t.teardown(() => h.close());
  const { key } = await h.createKey();
  const baseline = await warmBaseline(h, key);
  for (const surface of SURFACES) {
    const client = new Agent();
    const controller = new AbortController();
    const res = await request(`${h.url}${PATHS[surface]}`, { method: 'POST', headers: bearer(key), body: body(true, 60_000), signal: controller.signal, dispatcher: client });
    t.equal(res.statusCode, 200);
    const it = res.body[Symbol.asyncIterator]();
    await it.next();
    await new Promise((r) => setTimeout(r, 500));
    const pausedAt = h.simulator.bytesWritten();
    const heapAt = process.memoryUsage().heapUsed;
    await new Promise((r) => setTimeout(r, 500));
    const grew = h.simulator.bytesWritten() - pausedAt;
    t.ok(grew < 64 * 1024, `${surface}: upstream writes stalled while the client did not read (${grew} bytes)`);
    t.ok(process.memoryUsage().heapUsed - heapAt < 8 * 1024 * 1024, `${surface}: heap did not grow with the unread stream`);
    let total = 0;
    for (let i = 0; i < 50; i++) {
      const { value, done } = await it.next();
      if (done) break;
      total += (value as Buffer).length;
    }
    t.ok(total > 0, `${surface}: reading resumes the stream`);
    controller.abort();
    await it.return?.();
    await client.close();
  }
  await leakCheck(t, h, baseline);
});

t.test('slow senders are cut off at the header and request timeouts', async (t) => {
  const h = await startHarness({ env: { GATEWAY_CLIENT_HEADERS_TIMEOUT_MS: '300', GATEWAY_CLIENT_BODY_TIMEOUT_MS: '600' } });
  t.teardown(() => h.close());
  const { key } = await h.createKey();
  const baseline = await warmBaseline(h, key);

  const headerBytes = `POST ${PATHS.messages} HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${key}\r\ncontent-type: application/json\r\n\r\n`.split('');
  const started = Date.now();
  const slowHeaders = await rawExchange(h.port, headerBytes, { gapMs: 40, waitMs: 10_000 });
  t.equal(slowHeaders.status, 408, 'headers trickling in are cut off');
  t.ok(slowHeaders.closed);
  t.ok(Date.now() - started < headerBytes.length * 40, 'before the sender finished');

  const payload = body(false, 8);
  const head = `POST ${PATHS.chat} HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${key}\r\ncontent-type: application/json\r\ncontent-length: ${payload.length}\r\n\r\n`;
  const slowBody = await rawExchange(h.port, [head, ...payload.split('')], { gapMs: 40, waitMs: 10_000 });
  t.ok(slowBody.status === 408 || slowBody.closed, `a body trickling in is cut off (status ${slowBody.status})`);
  t.equal(h.simulator.received.filter((r) => r.method === 'POST').length, 2, 'neither reached the upstream (2 = the warm-up)');
  await leakCheck(t, h, baseline);
});
