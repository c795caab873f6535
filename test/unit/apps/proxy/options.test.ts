import t from 'tap';
import { parseProxyArgs } from '../../../../src/apps/proxy/options.js';
import { ProxyUsageError } from '../../../../src/apps/proxy/usage-error.js';

const KEY = 'mgw_ABCDEFGHabcdefgh_0123456789abcdefghijABCDEFGHIJ0123456789abc';

t.test('defaults and explicit settings', async (t) => {
  const d = parseProxyArgs(['--gateway', 'https://gw.example.com']);
  t.equal(d.gateway.href, 'https://gw.example.com/');
  t.equal(d.port, 3099);
  t.equal(d.host, '127.0.0.1');
  t.equal(d.keyFile, null);
  const e = parseProxyArgs(['--gateway=http://gw.internal:8080/llm/', '--port', '0', '--host', '0.0.0.0', '--key-file', '/tmp/k']);
  t.equal(e.gateway.href, 'http://gw.internal:8080/llm');
  t.equal(e.port, 0);
  t.equal(e.host, '0.0.0.0');
  t.equal(e.keyFile, '/tmp/k');
});

t.test('bad invocations fail with a reason that never repeats a value', async (t) => {
  const cases: [string[], RegExp][] = [
    [[], /--gateway <url> is required/],
    [['--gateway'], /option --gateway needs a value/],
    [['--gateway', 'not a url'], /not a URL/],
    [['--gateway', 'ftp://gw.example.com'], /http/],
    [['--gateway', 'https://user:pw@gw.example.com'], /credentials/],
    [['--gateway', 'https://gw.example.com/?a=1'], /query/],
    [['--gateway', 'https://gw.example.com/gateway'], /without \/gateway/],
    [['--gateway', 'https://gw.example.com/gateway/openai/v1'], /without \/gateway/],
    [['--gateway', 'https://gw.example.com', '--port', '70000'], /--port/],
    [['--gateway', 'https://gw.example.com', '--port', '12ab'], /--port/],
    [['--gateway', 'https://gw.example.com', '--host', ''], /--host/],
    [['--gateway', 'https://gw.example.com', '--key', KEY], /unknown option --key; .*MODEL_GATEWAY_KEY/],
    [['--gateway', 'https://gw.example.com', `--key=${KEY}`], /unknown option --key;/],
    [['--gateway', 'https://gw.example.com', KEY], /unexpected argument/],
    [['--gateway', 'https://gw.example.com', `--${KEY}`], /^unknown option; /],
  ];
  for (const [argv, reason] of cases) {
    let caught: unknown;
    try {
      parseProxyArgs(argv);
    } catch (err) {
      caught = err;
    }
    t.type(caught, ProxyUsageError, argv.join(' '));
    const message = (caught as Error).message;
    t.match(message, reason, argv.join(' '));
    t.notMatch(message, 'mgw_', 'the key is not echoed');
    t.notMatch(message, 'pw@', 'URL credentials are not echoed');
  }
});
