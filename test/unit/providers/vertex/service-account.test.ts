// The service-account file: what a good one gives, and a one-line refusal naming the file and the
// field for everything else, never repeating the key.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { generateServiceAccount, serviceAccountJson } from '../../../../src/apps/simulator/index.js';
import { parseServiceAccount, readServiceAccountFile, ServiceAccountError } from '../../../../src/providers/vertex/service-account.js';

const generated = generateServiceAccount({ projectId: 'proj-1' });
const good = serviceAccountJson(generated, 'http://127.0.0.1:9/token');
const FILE = '/etc/gw/vertex-sa.json';

t.test('a service-account key file', async (t) => {
  const account = parseServiceAccount(JSON.stringify(good), FILE);
  t.match(account, { file: FILE, clientEmail: generated.clientEmail, tokenUri: 'http://127.0.0.1:9/token', projectId: 'proj-1', privateKeyId: generated.privateKeyId });
  t.equal(account.privateKey.asymmetricKeyType, 'rsa');
});

const without = (field: string) => {
  const copy: Record<string, unknown> = { ...good };
  delete copy[field];
  return JSON.stringify(copy);
};

// [name, text, message]
const BAD: Array<[string, string, string]> = [
  ['not JSON', '{"type":', `${FILE}: the service-account file is not valid JSON`],
  ['not an object', '[1]', `${FILE}: the service-account file is not a JSON object`],
  ['no client_email', without('client_email'), `${FILE}: the service-account file has no "client_email"`],
  ['no private_key', without('private_key'), `${FILE}: the service-account file has no "private_key"`],
  ['no token_uri', without('token_uri'), `${FILE}: the service-account file has no "token_uri"`],
  ['an empty client_email', JSON.stringify({ ...good, client_email: '' }), `${FILE}: "client_email" must be a non-empty string`],
  ['a private key that is not PEM', JSON.stringify({ ...good, private_key: '-----BEGIN PRIVATE KEY-----\nnot a key\n-----END PRIVATE KEY-----\n' }), `${FILE}: "private_key" is not a PEM private key`],
  ['a token_uri that is not a URL', JSON.stringify({ ...good, token_uri: 'token' }), `${FILE}: "token_uri" is not a URL`],
  ['a token_uri that is not http(s)', JSON.stringify({ ...good, token_uri: 'file:///token' }), `${FILE}: "token_uri" is not an http(s) URL`],
];

for (const [name, text, message] of BAD) {
  t.test(`refused: ${name}`, async (t) => {
    const err = t.throws(() => parseServiceAccount(text, FILE)) as Error;
    t.ok(err instanceof ServiceAccountError);
    t.equal(err.message, message);
    t.notOk(err.message.includes('PRIVATE KEY'), 'the key is never repeated');
  });
}

t.test('read from disk; an unreadable file is named with the reason', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'sa-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const file = join(dir, 'sa.json');
  await writeFile(file, JSON.stringify(good));
  t.equal((await readServiceAccountFile(file)).clientEmail, generated.clientEmail);
  await t.rejects(readServiceAccountFile(join(dir, 'missing.json')), { name: 'ServiceAccountError', message: `${join(dir, 'missing.json')}: the service-account file cannot be read (ENOENT)` });
});
