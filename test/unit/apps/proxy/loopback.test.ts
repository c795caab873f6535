import t from 'tap';
import { isLoopbackHost } from '../../../../src/apps/proxy/loopback.js';

t.test('loopback addresses and names', async (t) => {
  const cases: [string, boolean][] = [
    ['127.0.0.1', true],
    ['127.1.2.3', true],
    ['localhost', true],
    ['LOCALHOST', true],
    ['app.localhost', true],
    ['::1', true],
    ['[::1]', true],
    ['0:0:0:0:0:0:0:1', true],
    ['::ffff:127.0.0.1', true],
    ['0.0.0.0', false],
    ['::', false],
    ['192.168.1.10', false],
    ['10.0.0.1', false],
    ['128.0.0.1', false],
    ['example.com', false],
    ['localhost.example.com', false],
    ['::2', false],
  ];
  for (const [host, loopback] of cases) t.equal(isLoopbackHost(host), loopback, host);
});
