import t from 'tap';
import { BlockedUntil } from '../../../../src/policy/ratelimit/blocked-until.js';

t.test('a block lasts its wait, a shorter one does not shorten it, and memory stays bounded', async (t) => {
  let now = 0;
  const blocked = new BlockedUntil(() => now, 3);
  blocked.block('a', 1000);
  blocked.block('a', 10);
  t.equal(blocked.waitFor('a'), 1000, 'the longer wait stands');
  t.equal(blocked.waitFor('b'), 0);
  now += 400;
  t.equal(blocked.waitFor('a'), 600);
  for (const [subject, ms] of [['b', 100], ['c', 5000], ['d', 9000]] as const) blocked.block(subject, ms);
  t.equal(blocked.size, 3, 'over the bound, the entry ending first is forgotten');
  t.equal(blocked.waitFor('b'), 0);
  now += 10_000;
  blocked.sweep();
  t.equal(blocked.size, 0, 'ended entries are swept');
});
