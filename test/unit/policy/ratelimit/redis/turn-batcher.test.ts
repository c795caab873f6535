// The per-turn batches: one send per key and turn, items in order, large batches split, a failed send
// failing every item of it and nothing else.
import t from 'tap';
import { TurnBatcher } from '../../../../../src/policy/ratelimit/redis/turn-batcher.js';

function recording(maxPerSend: number, fail: (context: string) => boolean = () => false) {
  const sends: Array<{ context: string; items: number[] }> = [];
  const batcher = new TurnBatcher<string, number, string>({
    maxPerSend,
    send: async (context, items) => {
      sends.push({ context, items });
      if (fail(context)) throw new Error(`send of ${context} failed`);
      return items.map((item) => `${context}:${item}`);
    },
  });
  return { sends, batcher };
}

t.test('the calls of one turn: one send per key, keys as they first came, items in order', async (t) => {
  const { sends, batcher } = recording(10);
  const results = await Promise.all([batcher.add('a', 'A', 1), batcher.add('b', 'B', 2), batcher.add('a', 'A2', 3)]);
  t.same(results, ['A:1', 'B:2', 'A:3'], 'each caller gets its own result; the key keeps its first context');
  t.same(sends, [
    { context: 'A', items: [1, 3] },
    { context: 'B', items: [2] },
  ]);
  await batcher.add('a', 'A', 4);
  t.equal(sends.length, 3, 'a later turn sends again');
});

t.test('more than maxPerSend go in several sends, in order', async (t) => {
  const { sends, batcher } = recording(2);
  const results = await Promise.all([1, 2, 3, 4, 5].map((n) => batcher.add('k', 'K', n)));
  t.same(results, ['K:1', 'K:2', 'K:3', 'K:4', 'K:5']);
  t.same(sends.map((s) => s.items), [[1, 2], [3, 4], [5]]);
});

t.test('a failed send rejects its own items only', async (t) => {
  const { batcher } = recording(10, (context) => context === 'bad');
  const [bad1, good, bad2] = await Promise.allSettled([batcher.add('x', 'bad', 1), batcher.add('y', 'good', 2), batcher.add('x', 'bad', 3)]);
  t.equal(bad1.status, 'rejected');
  t.equal(bad2.status, 'rejected');
  t.same(good, { status: 'fulfilled', value: 'good:2' });
});

t.test('a send that throws at once rejects its items too', async (t) => {
  const batcher = new TurnBatcher<string, number, number>({
    maxPerSend: 10,
    send: () => {
      throw new Error('bad arguments');
    },
  });
  await t.rejects(batcher.add('k', 'K', 1), /bad arguments/);
});
