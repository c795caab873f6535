// The command deadline against a busy event loop: a reply that arrived while this process's loop was
// blocked past the deadline is taken, not reported as a timeout (timeouts open the breaker, and then every
// instance falls back to its share of the limits, so a burst would let the fleet exceed them), while a
// command that never answers still times out soon after the deadline.
import t from 'tap';
import type { Test } from 'tap';
import { createClient } from 'redis';
import { CommandTimeoutError, withTimeout } from '../../../../src/stores/redis/with-timeout.js';
import { REDIS_URL } from '../../policy/ratelimit/redis/redis-test-env.js';

function blockFor(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until);
}

const nextCheckPhase = () => new Promise<void>((resolve) => setImmediate(resolve));

async function connected(t: Test) {
  const client = createClient({ url: REDIS_URL, socket: { reconnectStrategy: false } });
  client.on('error', () => {});
  await client.connect();
  t.teardown(() => client.close());
  return client;
}

t.test('the loop blocked before the command is written: its time is not Redis\'s', async (t) => {
  const client = await connected(t);
  for (let i = 0; i < 5; i++) {
    const reply = withTimeout(client.sendCommand(['PING']), 50);
    // As under a burst: the same turn of the loop goes on handling other requests for longer than the deadline.
    blockFor(150);
    t.equal(await reply, 'PONG', `round ${i + 1}`);
  }
});

t.test('the loop blocked after the command is written: a reply waiting in the socket is taken', async (t) => {
  const client = await connected(t);
  for (let i = 0; i < 5; i++) {
    const reply = withTimeout(client.sendCommand(['PING']), 50);
    await nextCheckPhase(); // written now
    // Redis answers meanwhile; this process reads the answer only once the loop is free again.
    blockFor(150);
    t.equal(await reply, 'PONG', `round ${i + 1}`);
  }
});

t.test('a command that never answers still times out', async (t) => {
  const started = Date.now();
  await t.rejects(withTimeout(new Promise(() => {}), 50), CommandTimeoutError);
  t.ok(Date.now() - started < 1000, 'soon after the deadline');
});
