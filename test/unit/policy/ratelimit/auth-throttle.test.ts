import t from 'tap';
import { addressGroup, AuthThrottle } from '../../../../src/policy/ratelimit/auth-throttle.js';

t.test('an address is blocked after its failures per minute, and only that address', async (t) => {
  let now = 0;
  const throttle = new AuthThrottle(3, () => now);
  t.equal(throttle.blockedFor('10.0.0.1'), 0);
  for (let i = 0; i < 3; i++) throttle.failed('10.0.0.1');
  t.equal(throttle.blockedFor('10.0.0.1'), 20_000);
  t.equal(throttle.blockedFor('10.0.0.2'), 0);
  throttle.failed('10.0.0.1');
  t.equal(throttle.blockedFor('10.0.0.1'), 20_000, 'failing while blocked does not extend the wait beyond empty');
  now += 20_000;
  t.equal(throttle.blockedFor('10.0.0.1'), 0);
});

t.test('recovered addresses are swept', async (t) => {
  let now = 0;
  const throttle = new AuthThrottle(3, () => now);
  throttle.failed('10.0.0.1');
  throttle.failed('2001:db8::1');
  t.equal(throttle.size, 2);
  now += 60_000;
  throttle.sweep();
  t.equal(throttle.size, 0);
});

t.test('addressGroup', async (t) => {
  const cases: Array<[string | undefined, string]> = [
    [undefined, 'unknown'],
    ['', 'unknown'],
    ['127.0.0.1', '127.0.0.1'],
    ['::ffff:10.1.2.3', '10.1.2.3'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2'],
    ['2001:db8:1:2::9', '2001:db8:1:2'],
    ['2001:db8::1', '2001:db8:0:0'],
    ['::1', '0:0:0:0'],
    ['fe80::1%eth0', 'fe80:0:0:0'],
  ];
  for (const [input, group] of cases) t.equal(addressGroup(input), group, String(input));
});

t.test('an address that is no address (a long header value) becomes a short key, and is still throttled', async (t) => {
  const garbage = `${'9'.repeat(16 * 1024)}:${'f'.repeat(100)}`;
  t.ok(addressGroup(garbage).length <= 120, 'clipped');
  t.equal(addressGroup(garbage), addressGroup(`${garbage}x`), 'the same prefix, the same group');
  const now = 0;
  const throttle = new AuthThrottle(2, () => now);
  throttle.failed(garbage);
  throttle.failed(garbage);
  t.ok(throttle.blockedFor(garbage) > 0);
  t.equal(throttle.blockedFor('10.0.0.1'), 0);
});

t.test('a block learnt from the fleet is answered locally until it ends', async (t) => {
  let now = 0;
  const throttle = new AuthThrottle(3, () => now);
  const told: Array<string | undefined> = [];
  throttle.onFailure((address) => told.push(address));
  throttle.failed('10.0.0.1');
  throttle.failedElsewhere('10.0.0.2');
  t.same(told, ['10.0.0.1'], 'listeners hear of this process\'s failures only');
  throttle.blockedElsewhere('2001:db8:1:2:3::9', 5000);
  t.equal(throttle.blockedFor('2001:db8:1:2:ffff::1'), 5000, 'by address group, with no failure seen here');
  t.equal(throttle.blockedFor('10.0.0.3'), 0);
  now += 5000;
  t.equal(throttle.blockedFor('2001:db8:1:2::1'), 0, 'and no longer once the wait is over');
  now += 60_000;
  throttle.sweep();
  t.equal(throttle.size, 0, 'swept with the buckets');
});
