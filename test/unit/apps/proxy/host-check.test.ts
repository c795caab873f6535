import t from 'tap';
import { addressedToLoopback, hostNameOf } from '../../../../src/apps/proxy/host-check.js';

t.test('host name of a Host header', async (t) => {
  const cases: [string, string][] = [
    ['127.0.0.1:3099', '127.0.0.1'],
    ['localhost', 'localhost'],
    ['[::1]:3099', '[::1]'],
    ['[::1]', '[::1]'],
    ['evil.example:3099', 'evil.example'],
  ];
  for (const [header, name] of cases) t.equal(hostNameOf(header), name, header);
});

t.test('only requests addressed to loopback pass', async (t) => {
  const cases: [string | undefined, boolean][] = [
    [undefined, true],
    ['127.0.0.1:3099', true],
    ['localhost:3099', true],
    ['LOCALHOST:3099', true],
    ['[::1]:3099', true],
    ['evil.example:3099', false],
    ['127.0.0.1.evil.example:3099', false],
    ['localhost.evil.example', false],
    ['192.168.1.4:3099', false],
    ['', false],
  ];
  for (const [header, ok] of cases) t.equal(addressedToLoopback(header), ok, String(header));
});
