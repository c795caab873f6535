// The drain a load balancer needs (server.ts, drain): /readyz turns 503 at once, yet requests keep
// being accepted and served for the delay, so a balancer that has not yet seen the 503 never sends a
// request to an instance that refuses it; only after the delay does the port close.
import t from 'tap';
import { request } from 'undici';
import { drain, readinessWatched, READINESS_WATCH_WINDOW_MS } from '../../../src/gateway/server.js';
import type { Lifecycle } from '../../../src/gateway/runtime.js';
import { startHarness } from '../../helpers/harness.js';
import { bearer, call } from '../../helpers/http.js';

// Long enough that the requests below start well inside it on a loaded machine.
const DELAY_MS = 2000;

const messagesBody = (stream: boolean) =>
  JSON.stringify({ model: 'claude-sonnet-4-6', max_tokens: 64, stream, messages: [{ role: 'user', content: 'hi' }] });

t.test('during the drain delay /readyz is 503 and new connections and requests are still served', async (t) => {
  const h = await startHarness({ simulator: { replyTokens: 20, tokensPerSecond: 40 } });
  t.teardown(() => h.close());
  const { key } = await h.createKey();
  t.equal((await call(`${h.url}/readyz`)).status, 200, 'ready before the signal');

  const started = performance.now();
  const drained = drain(h.server, h.runtime.lifecycle, 5000, DELAY_MS);

  const ready = await call(`${h.url}/readyz`);
  t.equal(ready.status, 503, 'not ready as soon as the drain starts');
  t.equal(ready.json<{ draining: boolean }>().draining, true);

  // A stream opened during the delay (a fresh connection each: undici's pool was closed by `connection: close`).
  const stream = await request(`${h.url}/gateway/v1/messages`, { method: 'POST', headers: bearer(key), body: messagesBody(true) });
  t.equal(stream.statusCode, 200, 'a stream started during the delay is accepted');
  t.equal(stream.headers.connection, 'close', 'and tells its client not to reuse the connection');
  const streamText = stream.body.text();

  await new Promise((r) => setTimeout(r, DELAY_MS / 2));
  const at = Math.round(performance.now() - started);
  const chatBody = JSON.stringify({ model: 'claude-sonnet-4-6', messages: [{ role: 'user', content: 'hi' }] });
  const late = await call(`${h.url}/gateway/openai/v1/chat/completions`, { headers: bearer(key), body: chatBody });
  t.equal(late.status, 200, `a request sent ${at} ms into the ${DELAY_MS} ms delay is served`);

  t.match(await streamText, /event: message_stop/, 'the stream runs to its final event across the end of the delay');
  t.equal(await drained, true, 'the drain ends cleanly');
  t.ok(performance.now() - started >= DELAY_MS, 'the port stayed open for the whole delay');
  await t.rejects(call(`${h.url}/healthz`), { code: 'ECONNREFUSED' }, 'after the drain the port is closed');
});

t.test('without a delay the port closes at once', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  await drain(h.server, h.runtime.lifecycle, 1000);
  await t.rejects(call(`${h.url}/healthz`), { code: 'ECONNREFUSED' });
});

t.test('the delay is only worth waiting when something asked /readyz lately', async (t) => {
  const lifecycle: Lifecycle = { draining: false, inFlight: 0 };
  t.equal(readinessWatched(lifecycle, 1000), false, 'never asked: nobody to tell');
  lifecycle.readinessAskedAt = 1000;
  t.equal(readinessWatched(lifecycle, 1000 + READINESS_WATCH_WINDOW_MS), true, 'asked within the window');
  t.equal(readinessWatched(lifecycle, 1001 + READINESS_WATCH_WINDOW_MS), false, 'asked too long ago');

  const h = await startHarness();
  t.teardown(() => h.close());
  t.equal(readinessWatched(h.runtime.lifecycle), false);
  await call(`${h.url}/readyz`);
  t.equal(readinessWatched(h.runtime.lifecycle), true, 'a /readyz answer marks readiness as watched');
});
