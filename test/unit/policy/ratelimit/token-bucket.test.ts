import t from 'tap';
import { TokenBucket } from '../../../../src/lib/token-bucket.js';

t.test('starts full, refills at capacity per window, never above capacity', async (t) => {
  const b = new TokenBucket(60, 60_000, 0);
  t.equal(b.available(0), 60);
  b.take(60, 0);
  t.equal(b.available(0), 0);
  t.equal(b.available(1000), 1, 'one token per second for 60 per minute');
  t.equal(b.available(30_000), 30);
  t.equal(b.available(600_000), 60, 'capped at capacity');
  t.ok(b.isFull(600_000));
});

t.test('msUntil and msUntilFull', async (t) => {
  const b = new TokenBucket(10, 60_000, 0);
  t.equal(b.msUntil(10, 0), 0);
  b.take(10, 0);
  t.equal(b.msUntil(1, 0), 6000);
  t.equal(b.msUntil(5, 0), 30_000);
  t.equal(b.msUntilFull(0), 60_000);
  t.equal(b.msUntil(0, 0), 0, 'nothing needed, nothing to wait for');
});

t.test('a debt (settle above the reservation) goes negative and delays everything', async (t) => {
  const b = new TokenBucket(100, 60_000, 0);
  b.take(150, 0);
  t.equal(b.available(0), -50);
  t.equal(b.msUntil(0, 0), 30_000, 'the debt must be repaid first');
  t.ok(b.msUntil(1, 0) > 30_000);
});

t.test('giving tokens back never exceeds capacity', async (t) => {
  const b = new TokenBucket(100, 60_000, 0);
  b.take(40, 0);
  b.take(-1000, 0);
  t.equal(b.available(0), 100);
});

t.test('resize keeps what was used: lower clamps, higher does not refill', async (t) => {
  const b = new TokenBucket(100, 60_000, 0);
  b.take(30, 0);
  b.resize(50, 0);
  t.equal(b.capacity, 50);
  t.equal(b.available(0), 50, 'clamped to the new capacity');
  b.take(50, 0);
  b.resize(200, 0);
  t.equal(b.available(0), 0, 'a raised limit refills at its own pace');
  t.equal(b.available(30_000), 100, 'at the new rate: 200 per minute');
});

t.test('a clock that goes backwards changes nothing', async (t) => {
  const b = new TokenBucket(10, 60_000, 10_000);
  b.take(5, 10_000);
  t.equal(b.available(5_000), 5);
});

t.test('takeOne takes a whole token or nothing', async (t) => {
  const b = new TokenBucket(2, 1000, 0);
  t.ok(b.takeOne(0));
  t.ok(b.takeOne(0));
  t.notOk(b.takeOne(0), 'empty');
  t.equal(b.available(0), 0, 'a refusal takes nothing');
  t.notOk(b.takeOne(400), 'a part token is not enough');
  t.ok(b.takeOne(600), 'a whole token again after more than half the window');
  t.ok(b.available(600) < 1, 'and it was taken');
});
