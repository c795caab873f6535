// The failure throttles over a fleet sharing Redis, with one GuardedRedis per simulated instance: failures
// spread over instances add up, what the fleet answers is kept locally (no round trip for a refused
// subject), and while Redis is not answering each instance's own count decides.
import t from 'tap';
import type { Test } from 'tap';
import { FleetSignInThrottle } from '../../../../../src/admin/auth/fleet-sign-in-throttle.js';
import { SignInThrottle } from '../../../../../src/admin/auth/throttle.js';
import type { SignInThrottleOptions, Subjects } from '../../../../../src/admin/auth/throttle.js';
import { AuthThrottle } from '../../../../../src/policy/ratelimit/auth-throttle.js';
import { shareAuthFailures } from '../../../../../src/policy/ratelimit/redis/fleet-auth-failures.js';
import { GuardedRedis } from '../../../../../src/stores/redis/guarded-redis.js';
import { adminClient, deleteKeys, REDIS_URL, testPrefix, TEST_COMMAND_TIMEOUT_MS } from './redis-test-env.js';

const MINUTE = 60_000;
const NO_BACKOFF = { afterFailures: 1000, baseMs: 1000, maxMs: 1000, windowMs: MINUTE };

async function fleetOf(t: Test, count: number): Promise<{ prefix: string; connections: GuardedRedis[] }> {
  const admin = await adminClient();
  const prefix = testPrefix();
  const connections: GuardedRedis[] = [];
  for (let i = 0; i < count; i++) {
    const redis = new GuardedRedis({ url: REDIS_URL, commandTimeoutMs: TEST_COMMAND_TIMEOUT_MS });
    t.ok(await redis.start(), `instance ${i} reaches Redis`);
    connections.push(redis);
  }
  t.teardown(async () => {
    for (const redis of connections) await redis.close();
    await deleteKeys(admin, prefix);
    await admin.close();
  });
  return { prefix, connections };
}

function signInFleet(connections: GuardedRedis[], prefix: string, options: SignInThrottleOptions): FleetSignInThrottle[] {
  return connections.map((redis) => new FleetSignInThrottle(new SignInThrottle(options), redis, { prefix, onError: (err) => { throw err; } }));
}

t.test('failed key authentications from one address add up over three instances', async (t) => {
  const { prefix, connections } = await fleetOf(t, 3);
  const errors: unknown[] = [];
  const instances = connections.map((redis) => {
    const throttle = new AuthThrottle(4);
    return { throttle, shared: shareAuthFailures(throttle, redis, { prefix, failuresPerMinute: 4, onError: (err) => errors.push(err) }) };
  });
  // Four failures, spread: no instance has seen more than two, so no local bucket is empty.
  for (const i of [0, 1, 2, 0]) {
    instances[i]!.throttle.failed('203.0.113.9');
    await instances[i]!.shared.recorded();
  }
  t.same(errors, [], 'no script error');
  t.ok(instances[0]!.throttle.blockedFor('203.0.113.9') > 0, 'the instance whose failure reached the budget refuses the address without asking Redis');
  t.equal(instances[1]!.throttle.blockedFor('203.0.113.9'), 0, 'another instance learns it on its next failure from the address');
  t.equal(instances[0]!.throttle.blockedFor('203.0.113.10'), 0, 'other addresses are not affected');
});

t.test('sign-ins: five failures from one address over three instances refuse the pair everywhere', async (t) => {
  const { prefix, connections } = await fleetOf(t, 3);
  const fleet = signInFleet(connections, prefix, { pair: { maxFailures: 5, windowMs: MINUTE }, address: { maxFailures: 30, windowMs: MINUTE }, account: NO_BACKOFF });
  const guess: Subjects = { account: 'ana@example.com', address: '198.51.100.7' };
  for (let i = 0; i < 5; i++) t.equal(await fleet[i % 3]!.begin({ ...guess }), 0, `failure ${i + 1} is admitted (instance ${i % 3})`);
  for (const [i, instance] of fleet.entries()) {
    const wait = await instance.begin({ ...guess });
    t.ok(wait > 0 && wait <= MINUTE, `instance ${i} refuses the pair (${wait} ms)`);
  }
  const elsewhere: Subjects = { account: 'ana@example.com', address: '192.0.2.1' };
  t.equal(await fleet[1]!.begin(elsewhere), 0, 'the account from another address is not refused');
  fleet[1]!.succeeded(elsewhere);
  await connections[0]!.close(); // no round trip is possible any more: instance 0 answers from what it learnt
  t.ok((await fleet[0]!.begin({ ...guess })) > 0, 'a pair the fleet refused is refused from memory');
});

t.test('sign-ins: the per-address limit and the account delay hold over the fleet', async (t) => {
  const { prefix, connections } = await fleetOf(t, 3);
  const fleet = signInFleet(connections, prefix, {
    pair: { maxFailures: 100, windowMs: MINUTE },
    address: { maxFailures: 3, windowMs: MINUTE },
    account: { afterFailures: 2, baseMs: 30_000, maxMs: 60_000, windowMs: MINUTE },
  });
  // Three accounts, one address, three instances: the address reaches its limit.
  for (let i = 0; i < 3; i++) t.equal(await fleet[i]!.begin({ account: `u${i}@example.com`, address: '203.0.113.50' }), 0);
  for (const [i, instance] of fleet.entries()) {
    t.ok((await instance.begin({ account: 'fresh@example.com', address: '203.0.113.50' })) > 0, `instance ${i} refuses the address for any account`);
  }
  // Two failures on one account from two addresses, on two instances: the second address must now wait.
  t.equal(await fleet[0]!.begin({ account: 'bo@example.com', address: '198.51.100.1' }), 0);
  t.equal(await fleet[1]!.begin({ account: 'bo@example.com', address: '198.51.100.2' }), 0);
  const wait = await fleet[2]!.begin({ account: 'bo@example.com', address: '198.51.100.2' });
  t.ok(wait > 25_000 && wait <= 30_000, `the account's delay applies on a third instance (${wait} ms)`);
  t.equal(await fleet[2]!.begin({ account: 'bo@example.com', address: '198.51.100.3' }), 0, 'an address that has not failed there never waits for it');
});

t.test('sign-ins: a success forgives the pair over the fleet', async (t) => {
  const { prefix, connections } = await fleetOf(t, 2);
  const fleet = signInFleet(connections, prefix, { pair: { maxFailures: 3, windowMs: MINUTE }, address: { maxFailures: 30, windowMs: MINUTE }, account: NO_BACKOFF });
  const s = (): Subjects => ({ account: 'cy@example.com', address: '198.51.100.9' });
  t.equal(await fleet[0]!.begin(s()), 0);
  t.equal(await fleet[1]!.begin(s()), 0);
  const right = s();
  t.equal(await fleet[0]!.begin(right), 0, 'the third attempt is admitted');
  fleet[0]!.succeeded(right);
  await new Promise((resolve) => setTimeout(resolve, 50)); // the forgiveness is sent off the answer's path
  t.equal(await fleet[1]!.begin(s()), 0, 'after the success the pair starts afresh on the other instance');
});

t.test('sign-ins: while Redis is not answering, each instance counts alone', async (t) => {
  const redis = new GuardedRedis({ url: 'redis://127.0.0.1:1', connectTimeoutMs: 200 });
  t.notOk(await redis.start(), 'nothing listens there');
  t.teardown(() => redis.close());
  const throttle = new FleetSignInThrottle(new SignInThrottle({ pair: { maxFailures: 2, windowMs: MINUTE }, account: NO_BACKOFF }), redis, { prefix: testPrefix() });
  const s = (): Subjects => ({ account: 'di@example.com', address: '198.51.100.20' });
  t.equal(await throttle.begin(s()), 0);
  t.equal(await throttle.begin(s()), 0);
  t.ok((await throttle.begin(s())) > 0, 'the local count refuses the third');
});
