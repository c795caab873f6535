// The standalone simulator's accounts file: the shapes it takes, a one-line refusal for anything else.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { parseAccountsFile } from '../../../../src/apps/simulator/accounts-file.js';
import { generateServiceAccount, writeServiceAccountFile } from '../../../../src/apps/simulator/index.js';

const FILE = 'accounts.json';
const parse = (v: unknown) => parseAccountsFile(typeof v === 'string' ? v : JSON.stringify(v), FILE);

t.test('every kind of account', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'accounts-file-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const sa = generateServiceAccount();
  await writeServiceAccountFile(join(dir, 'sa.json'), sa, 'http://127.0.0.1:9099/token');
  const options = await parse({
    accounts: [{ id: 'a', apiKey: 'sk-a', limits: { requestsPerMinute: 50, inputTokensPerMinute: 30000, outputTokensPerMinute: 8000 } }],
    bedrock: [{ region: 'eu-west-3', accessKeyId: 'AKIA', secretAccessKey: 's', sessionToken: 't' }, { apiKey: 'ABSK' }],
    vertex: [{ id: 'v', credentialsFile: join(dir, 'sa.json'), project: 'p', tokenLifetimeSeconds: 60 }, { clientEmail: 'x@y', publicKey: sa.publicKeyPem }],
  });
  t.match(options.accounts, [{ id: 'a', apiKey: 'sk-a', limits: { requestsPerMinute: 50, inputTokensPerMinute: 30000, outputTokensPerMinute: 8000 } }]);
  t.match(options.bedrock, [{ region: 'eu-west-3', accessKeyId: 'AKIA', secretAccessKey: 's', sessionToken: 't' }, { apiKey: 'ABSK' }]);
  t.match(options.vertex, [{ id: 'v', clientEmail: sa.clientEmail, project: 'p', tokenLifetimeSeconds: 60 }, { clientEmail: 'x@y' }]);
  t.same(await parse({}), {}, 'an empty file: the defaults');
});

// [name, content, message]
const BAD: Array<[string, unknown, string]> = [
  ['not JSON', '{', `${FILE}: not valid JSON`],
  ['not an object', '[]', `${FILE}: must hold a JSON object`],
  ['an unknown top-level field', { anthropic: [] }, `${FILE}: the file.anthropic is not a known field`],
  ['accounts not a list', { accounts: {} }, `${FILE}: accounts must be a list of objects`],
  ['an account without a key', { accounts: [{ id: 'a' }] }, `${FILE}: accounts.0.apiKey must be a non-empty string`],
  ['an unknown account field', { accounts: [{ apiKey: 'k', rpm: 5 }] }, `${FILE}: accounts.0.rpm is not a known field`],
  ['a limit of zero', { accounts: [{ apiKey: 'k', limits: { requestsPerMinute: 0 } }] }, `${FILE}: accounts.0.limits.requestsPerMinute must be a positive number`],
  ['a Bedrock key without its secret', { bedrock: [{ accessKeyId: 'AKIA' }] }, `${FILE}: bedrock.0 needs both accessKeyId and secretAccessKey, or neither`],
  ['a Bedrock account without credentials', { bedrock: [{ region: 'us-east-1' }] }, `${FILE}: bedrock.0 needs accessKeyId and secretAccessKey, or apiKey`],
  ['a Vertex account without a key', { vertex: [{ clientEmail: 'x@y' }] }, `${FILE}: vertex.0 needs credentialsFile, or clientEmail and publicKey`],
  ['a Vertex key that is not PEM', { vertex: [{ clientEmail: 'x@y', publicKey: 'nope' }] }, `${FILE}: vertex.0.publicKey is not a PEM key`],
];

for (const [name, content, message] of BAD) {
  t.test(`refused: ${name}`, async (t) => {
    await t.rejects(parse(content), { name: 'AccountsFileError', message });
  });
}

t.test('a key file that cannot be read is named', async (t) => {
  await t.rejects(parse({ vertex: [{ credentialsFile: '/nonexistent/sa.json' }] }), { name: 'ServiceAccountError', message: '/nonexistent/sa.json: the service-account file cannot be read (ENOENT)' });
});
