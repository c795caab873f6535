// GATEWAY_METRICS_PORT / _HOST / _TOKEN: parsed once at start, refused when they would silently leave
// /metrics open or could not work.
import t from 'tap';
import { loadConfig } from '../../../src/config/config.js';

const TOKEN = 'metrics-token-0123456789abcdef-0123';

t.test('unset: /metrics stays on the main port, open', async (t) => {
  t.same(loadConfig({ HOST: '10.0.0.5' }).metrics, { port: null, host: '10.0.0.5', token: null });
  t.same(loadConfig({ GATEWAY_METRICS_PORT: '' }).metrics.port, null, 'blank port is unset');
});

t.test('a port of its own, bound to HOST unless GATEWAY_METRICS_HOST says otherwise', async (t) => {
  t.same(loadConfig({ HOST: '0.0.0.0', GATEWAY_METRICS_PORT: '9464' }).metrics, { port: 9464, host: '0.0.0.0', token: null });
  t.same(loadConfig({ GATEWAY_METRICS_PORT: '9464', GATEWAY_METRICS_HOST: '127.0.0.1' }).metrics.host, '127.0.0.1');
  t.throws(() => loadConfig({ GATEWAY_METRICS_PORT: 'nine' }), /GATEWAY_METRICS_PORT must be an integer/);
  t.throws(() => loadConfig({ GATEWAY_METRICS_PORT: '70000' }), /GATEWAY_METRICS_PORT must be a TCP port/);
  t.throws(() => loadConfig({ PORT: '8080', GATEWAY_METRICS_PORT: '8080' }), /GATEWAY_METRICS_PORT must differ from PORT/);
  t.equal(loadConfig({ PORT: '8080', GATEWAY_METRICS_PORT: '8080', GATEWAY_METRICS_HOST: '127.0.0.1' }).metrics.port, 8080, 'same port on another address is fine');
});

t.test('the token: at least 32 characters, and never blank when set', async (t) => {
  t.equal(loadConfig({ GATEWAY_METRICS_TOKEN: `  ${TOKEN} ` }).metrics.token, TOKEN);
  const short = 'x'.repeat(31);
  t.throws(() => loadConfig({ GATEWAY_METRICS_TOKEN: short }), /GATEWAY_METRICS_TOKEN must be at least 32 characters/);
  t.throws(() => loadConfig({ GATEWAY_METRICS_TOKEN: '  ' }), /set but empty/, 'an unfilled secret does not leave /metrics open');
  try {
    loadConfig({ GATEWAY_METRICS_TOKEN: short });
  } catch (err) {
    t.notMatch((err as Error).message, short, 'the refusal does not repeat the value');
  }
});
