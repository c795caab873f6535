// A partition longer than the probe interval: the probe's reconnects meet a Redis that accepts the TCP
// connection (the relay does) but never answers the handshake. Each reconnect must give up at the connect
// timeout, or the probe waits on one of them for good and the instance never shares the limits again.
import t from 'tap';
import { GuardedRedis } from '../../../../src/stores/redis/guarded-redis.js';
import { CuttableRelay } from '../../../helpers/cuttable-relay.js';
import { REDIS_URL, TEST_COMMAND_TIMEOUT_MS } from '../../policy/ratelimit/redis/redis-test-env.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

t.test('sharing resumes after a partition that outlasted several probes', async (t) => {
  const target = new URL(REDIS_URL);
  const relay = new CuttableRelay(target.hostname, Number(target.port || 6379));
  const port = await relay.listen();
  t.teardown(() => relay.close());
  const redis = new GuardedRedis({ url: `redis://127.0.0.1:${port}`, commandTimeoutMs: TEST_COMMAND_TIMEOUT_MS, probeEveryMs: 200, connectTimeoutMs: 1000 });
  t.teardown(() => redis.close());
  t.ok(await redis.start(), 'up through the relay');

  relay.drop();
  for (let i = 0; i < 3; i++) await redis.command(['PING']).catch(() => {});
  t.equal(redis.up, false, 'the breaker opened');
  await sleep(2500); // several probes, each reconnecting into the silence

  relay.restore();
  // Waits for the event, bounded far above a probe's interval and connect timeout: a probe stuck on one
  // of the silent reconnects would never come back, however long the wait.
  const restoredAt = performance.now();
  while (!redis.up && performance.now() - restoredAt < 30_000) await sleep(50);
  t.equal(redis.up, true, `up again ${(performance.now() - restoredAt).toFixed(0)} ms after the restore`);
  t.equal(await redis.command(['PING']), 'PONG', 'and answering');

  relay.drop();
  // Replies that never come would hold the close for good: it must end, and long before the test's own timeout.
  const closed = await Promise.race([redis.close().then(() => 'closed'), new Promise<string>((r) => setTimeout(r, 20_000, 'still waiting').unref())]);
  t.equal(closed, 'closed', 'closing during a partition does not wait for replies that never come');
});
