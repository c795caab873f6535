// GATEWAY_TRUSTED_PROXIES: addresses and CIDR ranges parsed once when the settings are read; an entry
// that is neither refuses the start with one line naming the setting and the entry.
import t from 'tap';
import { ConfigError } from '../../../src/config/config-error.js';
import { loadConfig } from '../../../src/config/config.js';

t.test('unset: no proxy is trusted', async (t) => {
  t.ok(loadConfig({}).rateLimits.trustedProxies.isEmpty);
});

t.test('addresses and ranges of both families', async (t) => {
  const trusted = loadConfig({ GATEWAY_TRUSTED_PROXIES: '10.0.0.0/8, fd00::/8,192.0.2.7' }).rateLimits.trustedProxies;
  t.same(trusted.entries, ['10.0.0.0/8', 'fd00::/8', '192.0.2.7']);
  t.ok(trusted.has('10.20.30.40'));
  t.ok(trusted.has('::ffff:10.20.30.40'));
  t.ok(trusted.has('fd00:1::5'));
  t.ok(trusted.has('192.0.2.7'));
  t.notOk(trusted.has('192.0.2.8'));
});

t.test('an invalid entry refuses the start, one line naming the setting', async (t) => {
  for (const bad of ['10.0.0.0/40', 'haproxy', '10.0.0.1,10.0.0']) {
    const err = (() => {
      try {
        loadConfig({ GATEWAY_TRUSTED_PROXIES: bad });
        return null;
      } catch (e) {
        return e as Error;
      }
    })();
    t.ok(err instanceof ConfigError, bad);
    t.match(err?.message, /^GATEWAY_TRUSTED_PROXIES: "[^"]+" (is not an IP address or a CIDR range|has a prefix length outside 0-32)$/, bad);
    t.notMatch(err?.message, /\n/, 'one line');
  }
});
