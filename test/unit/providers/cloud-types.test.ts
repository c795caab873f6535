// The bedrock and vertex entries of a models file: each wrong one a one-line start-up error naming the
// file, the entry and the field (buildProviders, as serve runs it before any pool opens).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { ConfigError } from '../../../src/config/config-error.js';
import { buildProviders } from '../../../src/providers/build-providers.js';

const options = { connections: 1, connectTimeoutMs: 1000, headersTimeoutMs: 1000, bodyTimeoutMs: 1000 };

t.test('each wrong cloud entry: one line naming the entry and the field', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'mgw-cloud-types-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'not-json.json'), 'nope');
  writeFileSync(join(dir, 'not-a-key.json'), JSON.stringify({ client_email: 'a@b', private_key: 'x', token_uri: 'http://127.0.0.1:9/token' }));
  const cases: Array<[name: string, entry: Record<string, unknown>, env: Record<string, string>, line: RegExp]> = [
    ['an unknown type', { id: 'x', type: 'azure' }, {}, /^models\.json: providers\[0\] \("x"\)\.type: unknown provider type "azure" \(known: anthropic, bedrock, vertex\)$/],
    ['no AWS credential at all', { id: 'b', type: 'bedrock', region: 'us-east-1' }, {}, /^models\.json: providers\[0\] \("b"\)\.accessKeyIdEnv: no credential: AWS_ACCESS_KEY_ID is not set/],
    ['a named variable missing', { id: 'b', type: 'bedrock', region: 'us-east-1', accessKeyIdEnv: 'MY_KEY_ID', secretAccessKeyEnv: 'MY_SECRET' }, { MY_KEY_ID: 'AKIA0' }, /\("b"\)\.secretAccessKeyEnv: names the environment variable MY_SECRET, which is not set$/],
    ['a bad region', { id: 'b', type: 'bedrock', region: 'Virginia', apiKeyEnv: 'K' }, { K: 'k' }, /\("b"\)\.region: is not an AWS region name/],
    ['a missing project', { id: 'v', type: 'vertex', region: 'europe-west1', credentialsFile: '/nowhere.json' }, {}, /\("v"\)\.project: is required$/],
    ['an unreadable credentials file', { id: 'v', type: 'vertex', project: 'p', region: 'europe-west1', credentialsFile: join(dir, 'missing.json') }, {}, /\("v"\)\.credentialsFile: .*missing\.json: the service-account file cannot be read \(ENOENT\)$/],
    ['a credentials file that is not JSON', { id: 'v', type: 'vertex', project: 'p', region: 'europe-west1', credentialsFile: join(dir, 'not-json.json') }, {}, /\.credentialsFile: .*not-json\.json: the service-account file is not valid JSON$/],
    ['a credentials file without a key', { id: 'v', type: 'vertex', project: 'p', region: 'europe-west1', credentialsFile: join(dir, 'not-a-key.json') }, {}, /\.credentialsFile: .*"private_key" is not a PEM private key$/],
    ['no credentials file anywhere', { id: 'v', type: 'vertex', project: 'p', region: 'europe-west1' }, {}, /\("v"\)\.credentialsFile: is required: the service-account key file \(or set GOOGLE_APPLICATION_CREDENTIALS\)$/],
  ];
  for (const [name, entry, env, line] of cases) {
    const source = { entries: [entry], path: 'models.json', env: (n: string) => env[n], implicit: { baseUrl: 'http://127.0.0.1:9', apiKey: null } };
    await t.rejects(buildProviders(source, options), ConfigError, name);
    await t.rejects(buildProviders(source, options), { message: line }, name);
  }
});

t.test('AWS_* from the environment sign; a Bedrock API key goes as a bearer', async (t) => {
  const env: Record<string, string> = { AWS_ACCESS_KEY_ID: 'AKIA0', AWS_SECRET_ACCESS_KEY: 's', AWS_BEARER_TOKEN_BEDROCK: 'ABSK0' };
  const built = await buildProviders({ entries: [{ id: 'b', type: 'bedrock', region: 'eu-west-3' }], path: 'm.json', env: (n) => env[n], implicit: { baseUrl: 'http://127.0.0.1:9', apiKey: null } }, options);
  t.teardown(() => Promise.all(built.map((p) => p.close())));
  t.same([built[0]!.type, built[0]!.genAiProvider, built[0]!.client.origin], ['bedrock', 'aws.bedrock', 'https://bedrock-runtime.eu-west-3.amazonaws.com']);
  const call = { operation: 'messages' as const, body: '{"model":"x","max_tokens":1,"messages":[]}', forwarded: true, bodyModel: 'x', model: 'anthropic.m-v1:0', modelNamed: true, stream: false, query: '', incoming: {} };
  const signed = await built[0]!.request(call);
  t.match(signed.headers.authorization, /^AWS4-HMAC-SHA256 Credential=AKIA0\/\d{8}\/eu-west-3\/bedrock\/aws4_request/);
  t.equal(signed.path, '/model/anthropic.m-v1%3A0/invoke');
  const bearer = await buildProviders({ entries: [{ id: 'b', type: 'bedrock', region: 'eu-west-3' }], path: 'm.json', env: (n) => (n === 'AWS_BEARER_TOKEN_BEDROCK' ? 'ABSK0' : undefined), implicit: { baseUrl: 'http://127.0.0.1:9', apiKey: null } }, options);
  t.teardown(() => Promise.all(bearer.map((p) => p.close())));
  t.equal((await bearer[0]!.request(call)).headers.authorization, 'Bearer ABSK0');
});
