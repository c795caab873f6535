// The queue of settles waiting for a ride: what an acquire takes, what a full queue and the timer send.
import t from 'tap';
import { PendingSettles, SETTLE_ARGS, type SettleBatch } from '../../../../../src/policy/ratelimit/redis/pending-settles.js';

const settle = (used: number): string[] => [String(used), '100', '0', '10', '1000', '', ''];
const entries = (key: string): [string, string] => [`p{c}:key:${key}`, 'p{c}:customer'];

t.test('an acquire takes its key\'s settles, count first, in the order they were made; others stay', async (t) => {
  const sent: SettleBatch[] = [];
  const pending = new PendingSettles({ delayMs: Infinity, maxPerKey: 8, send: (b) => sent.push(b) });
  t.same(pending.take(entries('a')[0]), ['0'], 'nothing waiting: a count of zero');
  pending.add(entries('a'), settle(1));
  pending.add(entries('b'), settle(2));
  pending.add(entries('a'), settle(3));
  t.same(pending.take(entries('a')[0]), ['2', ...settle(1), ...settle(3)]);
  t.same(pending.take(entries('a')[0]), ['0'], 'taken once');
  t.equal(pending.size, 1, 'b still waits');
  pending.flush();
  t.same(sent, [{ entries: entries('b'), args: ['1', ...settle(2)] }]);
  t.equal(pending.size, 0);
});

t.test('a full queue goes at once, alone', async (t) => {
  const sent: SettleBatch[] = [];
  const pending = new PendingSettles({ delayMs: Infinity, maxPerKey: 3, send: (b) => sent.push(b) });
  for (let used = 0; used < 7; used++) pending.add(entries('a'), settle(used));
  t.equal(sent.length, 2, 'two full queues of three');
  t.same(sent[0].args, ['3', ...settle(0), ...settle(1), ...settle(2)]);
  t.equal(sent[1].args.length, 1 + 3 * SETTLE_ARGS);
  t.same(pending.take(entries('a')[0]), ['1', ...settle(6)], 'the seventh waits');
});

t.test('the timer sends what no acquire took, once, keys in the order they were first settled', async (t) => {
  const sent: SettleBatch[] = [];
  const pending = new PendingSettles({ delayMs: 10, maxPerKey: 8, send: (b) => sent.push(b) });
  pending.add(entries('b'), settle(1));
  pending.add(entries('a'), settle(2));
  pending.add(entries('b'), settle(3));
  t.equal(sent.length, 0, 'nothing before the delay');
  await new Promise((resolve) => setTimeout(resolve, 40));
  t.same(sent.map((b) => b.entries[0]), [entries('b')[0], entries('a')[0]]);
  t.same(sent[0].args, ['2', ...settle(1), ...settle(3)]);
  pending.add(entries('c'), settle(4));
  await new Promise((resolve) => setTimeout(resolve, 40));
  t.equal(sent.length, 3, 'a later settle arms the timer again');
});
