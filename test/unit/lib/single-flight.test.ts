import t from 'tap';
import { SingleFlight } from '../../../src/lib/single-flight.js';

t.test('callers of one key share a call; other keys get their own; a settled key starts afresh', async (t) => {
  const flight = new SingleFlight<number>();
  let calls = 0;
  let release!: (n: number) => void;
  const start = () => {
    calls++;
    return new Promise<number>((resolve) => (release = resolve));
  };
  const a = flight.run('k', start);
  const b = flight.run('k', start);
  t.equal(a, b, 'the same promise');
  t.equal(flight.running('k'), a);
  t.equal(flight.running('other'), undefined);
  t.equal(flight.inFlight().length, 1);
  release(7);
  t.same(await Promise.all([a, b]), [7, 7]);
  t.equal(calls, 1);
  t.equal(flight.running('k'), undefined, 'free once settled');
  const c = flight.run('k', () => Promise.resolve(8));
  t.equal(await c, 8);
});

t.test('a failed call is shared too, and the next caller tries again', async (t) => {
  const flight = new SingleFlight<string>();
  const failing = flight.run('k', () => Promise.reject(new Error('store down')));
  await t.rejects(flight.run('k', () => Promise.resolve('never')), /store down/);
  await t.rejects(failing, /store down/);
  t.equal(await flight.run('k', () => Promise.resolve('ok')), 'ok');
});
