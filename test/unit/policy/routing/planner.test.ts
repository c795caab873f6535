// The order of a request's routes: shared by weight within a priority, the same for a session on
// every instance, cooling routes left out with the earliest end of their cool-downs reported.
import t from 'tap';
import { orderRoutes } from '../../../../src/policy/routing/planner.js';
import { randomSeed, sessionSeed } from '../../../../src/policy/routing/rendezvous.js';
import { route, state } from './fixtures/routes.js';

const NOW = 1_800_000_000_000;

t.test('without a session, first choices follow the weights to within one request, over any run', async (t) => {
  const states = [state(route('a', { weight: 2 })), state(route('b', { weight: 1 })), state(route('c', { weight: 1 }))];
  const firsts: string[] = [];
  for (let i = 0; i < 400; i++) firsts.push(orderRoutes(states, randomSeed(), NOW, false).usable[0]!.route.provider.id);
  for (const run of [8, 40, 400]) {
    const counts = { a: 0, b: 0, c: 0 } as Record<string, number>;
    for (const id of firsts.slice(0, run)) counts[id]!++;
    t.same(counts, { a: run / 2, b: run / 4, c: run / 4 }, `the first ${run}`);
  }
  t.same(firsts.slice(0, 4).sort(), ['a', 'a', 'b', 'c'], 'smooth: the heavy route is not picked twice in a row before the others get theirs');
});

t.test('sessions by weight: random seeds spread first choices by weight', async (t) => {
  const states = [state(route('a', { weight: 2 })), state(route('b', { weight: 1 })), state(route('c', { weight: 1 }))];
  const firsts = new Map<string, number>();
  const n = 20000;
  for (let i = 0; i < n; i++) {
    const first = orderRoutes(states, randomSeed(), NOW).usable[0]!.route.provider.id;
    firsts.set(first, (firsts.get(first) ?? 0) + 1);
  }
  for (const [id, share] of [['a', 0.5], ['b', 0.25], ['c', 0.25]] as const) {
    const got = (firsts.get(id) ?? 0) / n;
    // 20,000 draws: a standard deviation of 0.3 % at most; 10 % of a share is 2.5 % or more.
    t.ok(Math.abs(got - share) <= share * 0.1, `${id}: ${got.toFixed(3)} of first choices, weight share ${share}`);
  }
});

t.test('sessions: one seed, one order, whatever the instance; sessions spread by weight', async (t) => {
  const make = () => [state(route('a', { weight: 3 })), state(route('b', { weight: 1 }))];
  const here = make();
  const there = make();
  let onA = 0;
  for (let s = 0; s < 400; s++) {
    const seed = sessionSeed('key_1', `session-${s}`);
    const a = orderRoutes(here, seed, NOW).usable.map((x) => x.route.name);
    const b = orderRoutes(there, seed, NOW).usable.map((x) => x.route.name);
    t.same(a, b, `session ${s}: the same order on two instances`);
    if (a[0]!.endsWith('@a')) onA++;
  }
  t.ok(onA / 400 > 0.68 && onA / 400 < 0.82, `${onA} of 400 sessions start on the route of weight 3`);
  t.not(sessionSeed('key_1', 'x'), sessionSeed('key_2', 'x'), 'the key is part of the seed');
  t.not(sessionSeed('ab', 'c'), sessionSeed('a', 'bc'), 'key and session are kept apart');
});

t.test('a lower priority goes first; a higher one only after it', async (t) => {
  const states = [state(route('backup', { priority: 2, weight: 100 })), state(route('a')), state(route('b'))];
  for (let i = 0; i < 50; i++) {
    const order = orderRoutes(states, randomSeed(), NOW).usable.map((s) => s.route.provider.id);
    t.equal(order[2], 'backup', `order ${order.join(',')}`);
  }
});

t.test('a cooling route is left out until its cool-down ends; its session moves to the next route only then', async (t) => {
  const states = [state(route('a')), state(route('b')), state(route('c'))];
  const seed = sessionSeed('key_1', 'session');
  const [first, second] = orderRoutes(states, seed, NOW).usable;
  first!.exhausted(NOW + 5000);
  const during = orderRoutes(states, seed, NOW + 1000);
  t.equal(during.usable[0], second, "while cooling, the session's next route serves it");
  t.equal(during.usable.length, 2);
  t.equal(during.earliestUntil, NOW + 5000);
  t.equal(orderRoutes(states, seed, NOW + 5000).usable[0], first, 'after the reset, back on its own route');
});

t.test('one route: no ordering, the cool-down still counts', async (t) => {
  const only = state(route('a'));
  t.same(orderRoutes([only], 0, NOW).usable, [only]);
  only.throttled(NOW + 2000, NOW);
  t.same(orderRoutes([only], 0, NOW + 1), { usable: [], earliestUntil: NOW + 2000 });
});

t.test('everything cooling: nothing usable, the earliest end reported', async (t) => {
  const states = [state(route('a')), state(route('b'))];
  states[0]!.throttled(NOW + 9000, NOW);
  states[1]!.throttled(NOW + 3000, NOW);
  t.same(orderRoutes(states, 1, NOW).usable, []);
  t.equal(orderRoutes(states, 1, NOW).earliestUntil, NOW + 3000);
});
