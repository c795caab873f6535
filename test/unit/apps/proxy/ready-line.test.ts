import t from 'tap';
import { proxyBaseUrl, readyLine } from '../../../../src/apps/proxy/ready-line.js';

t.test('the base URL clients are given', async (t) => {
  const cases: [string, number, string][] = [
    ['127.0.0.1', 3099, 'http://127.0.0.1:3099'],
    ['localhost', 4000, 'http://localhost:4000'],
    ['::1', 3099, 'http://[::1]:3099'],
    ['0.0.0.0', 3099, 'http://127.0.0.1:3099'],
    ['::', 3099, 'http://[::1]:3099'],
    ['192.168.1.5', 3099, 'http://192.168.1.5:3099'],
  ];
  for (const [host, port, url] of cases) t.equal(proxyBaseUrl(host, port), url, host);
});

t.test('the ready line names both SDK settings', async (t) => {
  const line = readyLine('http://127.0.0.1:3099');
  t.match(line, 'ANTHROPIC_BASE_URL=http://127.0.0.1:3099 ');
  t.match(line, 'OPENAI_BASE_URL=http://127.0.0.1:3099/v1 ');
  t.notMatch(line, '\n');
});
