// SETTING_NAMES is exactly what the configuration loader reads: it reads only listed names (anything
// else throws), and every listed name is read, so the list neither lacks nor keeps a setting.
// PROVIDER_SETTING_NAMES is exactly what the cloud provider types read by their standard names. The
// README documents each one.
import t from 'tap';
import { databaseUrlOf, loadConfig } from '../../../src/config/config.js';
import { ALL_SETTING_NAMES, knownSettingsOnly, PROVIDER_SETTING_NAMES, SETTING_NAMES } from '../../../src/config/setting-names.js';
import { bedrockType } from '../../../src/providers/bedrock/bedrock-type.js';
import { ProviderFields } from '../../../src/providers/provider-fields.js';
import { vertexType } from '../../../src/providers/vertex/vertex-type.js';
import { repoText } from '../deploy/deploy-files.js';

/** An environment that records every name read from it. */
function recording(values: Record<string, string> = {}): { env: Record<string, string | undefined>; read: Set<string> } {
  const read = new Set<string>();
  const env = new Proxy<Record<string, string | undefined>>(
    { ...values },
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

/** The names a provider type reads while it configures an entry of the models file (a refusal is fine: the names read before it count). */
function namesRead(type: typeof bedrockType, entry: Record<string, unknown>, values: Record<string, string> = {}): Set<string> {
  const { env, read } = recording(values);
  try {
    type.configure(new ProviderFields(entry, 'models.json: providers[0]', (name) => env[name]));
  } catch {
    // A missing credential or file: what was read up to there is what the test wants.
  }
  return read;
}

t.test('the cloud provider types read exactly the listed standard names, and only when an entry names none', async (t) => {
  const bedrock = { id: 'b', type: 'bedrock', region: 'us-east-1' };
  const vertex = { id: 'v', type: 'vertex', project: 'p', region: 'europe-west1' };
  const read = new Set([
    // No credential at all: the access key, then the Bedrock API key, are looked for.
    ...namesRead(bedrockType, bedrock),
    // An access key: its secret and a session token go with it.
    ...namesRead(bedrockType, bedrock, { AWS_ACCESS_KEY_ID: 'AKIA1', AWS_SECRET_ACCESS_KEY: 's' }),
    ...namesRead(vertexType, vertex, { GOOGLE_APPLICATION_CREDENTIALS: '/nonexistent/sa.json' }),
  ]);
  t.same([...read].sort(), [...PROVIDER_SETTING_NAMES].sort());
  const own = namesRead(bedrockType, { ...bedrock, accessKeyIdEnv: 'MY_ID', secretAccessKeyEnv: 'MY_SECRET', sessionTokenEnv: 'MY_TOKEN' }, { MY_ID: 'AKIA2', MY_SECRET: 's', MY_TOKEN: 't' });
  t.same([...own].sort(), ['MY_ID', 'MY_SECRET', 'MY_TOKEN'], 'the variables an entry names instead of the standard ones');
  t.same([...namesRead(vertexType, { ...vertex, credentialsFile: '/nonexistent/sa.json' })], [], 'a vertex entry with its own file reads no variable');
  t.same(SETTING_NAMES.filter((n) => (PROVIDER_SETTING_NAMES as readonly string[]).includes(n)), [], 'the lists do not overlap');
});

t.test('the README documents every setting', async (t) => {
  const readme = repoText('README.md');
  t.same(ALL_SETTING_NAMES.filter((name) => !readme.includes(`\`${name}\``)), []);
});
