// The start-up check: a wrong key or an absent gateway is reported at once.
import { createServer } from 'node:net';
import t from 'tap';
import { startHarness } from '../../helpers/harness.js';
import { secretOf, startTestProxy } from './fixtures/proxy.js';

const UNKNOWN_KEY = 'mgw_ABCDEFGHabcdefgh_0123456789abcdefghijABCDEFGHIJ0123456789abc';

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as { port: number };
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

t.test('the start-up check tells accepted, refused and unreachable apart', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const { key } = await h.createKey();

  const good = await startTestProxy(h.url, key);
  t.teardown(() => good.close());
  t.equal(await good.proxy.check(), 'accepted');
  t.match(good.logText(), 'accepts the key');

  const bad = await startTestProxy(h.url, UNKNOWN_KEY);
  t.teardown(() => bad.close());
  t.equal(await bad.proxy.check(), 'refused');
  t.match(bad.logText(), 'the gateway refuses the key');

  const nowhere = await startTestProxy(`http://127.0.0.1:${await closedPort()}`, key);
  t.teardown(() => nowhere.close());
  t.equal(await nowhere.proxy.check(), 'unreachable');
  t.match(nowhere.logText(), 'cannot be reached yet');

  for (const p of [good, bad, nowhere]) {
    t.notMatch(p.logText(), secretOf(key));
    t.notMatch(p.logText(), secretOf(UNKNOWN_KEY));
  }
});
