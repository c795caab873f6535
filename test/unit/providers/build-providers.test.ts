// The providers of a gateway: the one of the environment, or the models file's list, each entry read
// by its type; every wrong entry a one-line start-up error naming the file, the entry and the field.
import t from 'tap';
import { ConfigError } from '../../../src/config/config-error.js';
import { buildProviders, type ProvidersSource } from '../../../src/providers/build-providers.js';

const options = { connections: 1, connectTimeoutMs: 1000, headersTimeoutMs: 1000, bodyTimeoutMs: 1000 };
const env: Record<string, string> = { KEY_A: 'sk-a', KEY_B: 'sk-b', EMPTY: '  ' };

function source(entries: unknown[] | undefined): ProvidersSource {
  return { entries, path: 'models.json', env: (name) => env[name], implicit: { baseUrl: 'http://127.0.0.1:9', apiKey: 'sk-env' } };
}

t.test('without providers: one anthropic provider from the environment', async (t) => {
  const providers = await buildProviders(source(undefined), options);
  t.teardown(() => Promise.all(providers.map((p) => p.close())));
  t.same(providers.map((p) => [p.id, p.type, p.client.origin]), [['anthropic', 'anthropic', 'http://127.0.0.1:9']]);
});

t.test('with providers: one per entry, in order, each its own pool', async (t) => {
  const providers = await buildProviders(
    source([
      { id: 'anthropic-a', type: 'anthropic', apiKeyEnv: 'KEY_A' },
      { id: 'anthropic-b', type: 'anthropic', baseUrl: 'http://127.0.0.1:10/', apiKeyEnv: 'KEY_B' },
    ]),
    options,
  );
  t.teardown(() => Promise.all(providers.map((p) => p.close())));
  t.same(providers.map((p) => [p.id, p.client.origin]), [['anthropic-a', 'https://api.anthropic.com'], ['anthropic-b', 'http://127.0.0.1:10']]);
  t.not(providers[0]!.client, providers[1]!.client);
});

t.test('each wrong entry: one line naming the file, the entry and the field', async (t) => {
  const cases: Array<[unknown[], RegExp]> = [
    [[], /^models\.json: "providers" is empty/],
    [['x'], /^models\.json: providers\[0\]: must be an object/],
    [[{ type: 'anthropic', apiKeyEnv: 'KEY_A' }], /^models\.json: providers\[0\]\.id: must be letters/],
    [[{ id: 'a b', type: 'anthropic' }], /providers\[0\]\.id/],
    [[{ id: 'a', type: 'anthropic', apiKeyEnv: 'KEY_A' }, { id: 'a', type: 'anthropic', apiKeyEnv: 'KEY_B' }], /^models\.json: providers\[1\]\.id: "a" is listed twice$/],
    [[{ id: 'x', type: 'openai' }], /^models\.json: providers\[0\] \("x"\)\.type: unknown provider type "openai" \(known: anthropic/],
    [[{ id: 'x', type: 'anthropic', apiKeyEnv: 'MISSING' }], /^models\.json: providers\[0\] \("x"\)\.apiKeyEnv: names the environment variable MISSING, which is not set$/],
    [[{ id: 'x', type: 'anthropic', apiKeyEnv: 'EMPTY' }], /apiKeyEnv: names the environment variable EMPTY, which is not set/],
    [[{ id: 'x', type: 'anthropic' }], /^models\.json: providers\[0\] \("x"\)\.apiKeyEnv: is required/],
    [[{ id: 'x', type: 'anthropic', apiKeyEnv: 'KEY_A', baseUrl: 'ftp://h' }], /\.baseUrl: must be an http\(s\) URL/],
  ];
  for (const [entries, message] of cases) {
    await t.rejects(buildProviders(source(entries), options), ConfigError, String(message));
    await t.rejects(buildProviders(source(entries), options), { message }, String(message));
  }
  const privateEndpoint = await buildProviders(source([{ id: 'local', type: 'anthropic', baseUrl: 'http://127.0.0.1:11' }]), options);
  t.teardown(() => Promise.all(privateEndpoint.map((p) => p.close())));
  t.equal(privateEndpoint[0]!.id, 'local', 'a private endpoint may need no key');
});
