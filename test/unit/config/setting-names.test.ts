// SETTING_NAMES is exactly what the configuration loader reads: it reads only listed names (anything
// else throws), and every listed name is read, so the list neither lacks nor keeps a setting. The README
// documents each one.
import t from 'tap';
import { databaseUrlOf, loadConfig } from '../../../src/config/config.js';
import { knownSettingsOnly, SETTING_NAMES } from '../../../src/config/setting-names.js';
import { repoText } from '../deploy/deploy-files.js';

/** An environment that records every name read from it. */
function recording(): { env: Record<string, string | undefined>; read: Set<string> } {
  const read = new Set<string>();
  const env = new Proxy<Record<string, string | undefined>>(
    {},
    {
      get(target, name) {
        if (typeof name === 'string') read.add(name);
        return Reflect.get(target, name);
      },
    },
  );
  return { env, read };
}

t.test('the loader reads every listed setting and nothing else', async (t) => {
  const { env, read } = recording();
  loadConfig(env);
  t.same([...read].sort(), [...SETTING_NAMES].sort());
});

t.test('a name outside the list cannot be read', async (t) => {
  const env = knownSettingsOnly({ PORT: '8080', GATEWAY_NOT_A_SETTING: '1' });
  t.equal(env.PORT, '8080');
  t.throws(() => env.GATEWAY_NOT_A_SETTING, /GATEWAY_NOT_A_SETTING.*SETTING_NAMES/);
  t.equal(databaseUrlOf({ DATABASE_URL: 'postgres://db/x' }), 'postgres://db/x', 'the database setting alone goes through the list too');
});

t.test('the README documents every setting', async (t) => {
  const readme = repoText('README.md');
  t.same(SETTING_NAMES.filter((name) => !readme.includes(`\`${name}\``)), []);
});
