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

function answeredByHand(waitsForAnswer: (context: string) => boolean) {
  const answers = new Map<string, () => void>();
  const sends: Array<{ context: string; items: number[] }> = [];
  const batcher = new TurnBatcher<string, number, number>({
    maxPerSend: 10,
    send: (context, items) => {
      sends.push({ context, items });
      return new Promise((resolve) => answers.set(`${context}:${items[0]}`, () => resolve(items)));
    },
    waitsForAnswer,
  });
  return { answers, sends, batcher };
}

t.test("a key whose calls wait: while its send is unanswered its next calls wait, then go together; other keys do not wait", async (t) => {
  const { answers, sends, batcher } = answeredByHand((context) => context === 'A');
  const turn = () => new Promise((resolve) => setImmediate(resolve));
  const first = batcher.add('a', 'A', 1);
  await turn();
  t.same(sends, [{ context: 'A', items: [1] }], 'the first call goes at the end of its turn');
  const second = batcher.add('a', 'A', 2);
  await turn();
  const third = batcher.add('a', 'A', 3);
  const other = batcher.add('b', 'B', 9);
  await turn();
  await turn();
  t.same(sends, [{ context: 'A', items: [1] }, { context: 'B', items: [9] }], 'a waits for its answer; b goes at once');
  answers.get('A:1')!();
  t.same(await first, 1);
  await turn();
  t.same(sends.slice(2), [{ context: 'A', items: [2, 3] }], 'the calls that waited go in one send after the answer');
  answers.get('A:2')!();
  answers.get('B:9')!();
  t.same(await Promise.all([second, third, other]), [2, 3, 9]);
});

t.test('a key whose calls do not wait sends each turn, answered or not', async (t) => {
  const { answers, sends, batcher } = answeredByHand(() => false);
  const turn = () => new Promise((resolve) => setImmediate(resolve));
  const first = batcher.add('a', 'A', 1);
  await turn();
  const second = batcher.add('a', 'A', 2);
  await turn();
  t.same(sends.map((s) => s.items), [[1], [2]], 'the second went without waiting for the first');
  answers.get('A:1')!();
  answers.get('A:2')!();
  t.same(await Promise.all([first, second]), [1, 2]);
});

t.test('a failed send lets the calls that waited behind it go', async (t) => {
  let calls = 0;
  const batcher = new TurnBatcher<string, number, number>({
    maxPerSend: 10,
    waitsForAnswer: () => true,
    send: async (_context, items) => {
      calls++;
      await new Promise((resolve) => setTimeout(resolve, 5));
      if (items[0] === 1) throw new Error('timeout');
      return items;
    },
  });
  const failed = batcher.add('k', 'K', 1);
  await new Promise((resolve) => setImmediate(resolve));
  const waited = batcher.add('k', 'K', 2);
  await t.rejects(failed, /timeout/);
  t.equal(await waited, 2, 'the next send went after the failure');
  t.equal(calls, 2);
});
