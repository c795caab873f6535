// `model-gateway simulator`: the ready line, a working server, a clean stop on SIGTERM, bad arguments,
// accounts from a file and a Vertex key file written for its token endpoint.
import { EventEmitter } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { runSimulator } from '../../../src/apps/cli/simulator.js';
import type { SignalSource } from '../../../src/apps/cli/signals.js';
import { readServiceAccountFile } from '../../../src/providers/vertex/service-account.js';
import { VertexTokenSource } from '../../../src/providers/vertex/token-source.js';
import { API_HEADERS, call, eventually, TEXT_REQUEST } from './raw-http.js';

function captureIo(): { out: string[]; err: string[]; io: { out(s: string): void; err(s: string): void } } {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { out: (s) => void out.push(s), err: (s) => void err.push(s) } };
}

t.test('prints one ready line, serves, and exits 0 on SIGTERM', async (t) => {
  const { out, err, io } = captureIo();
  const signals = new EventEmitter();
  const running = runSimulator(['--port', '0', '--host', '127.0.0.1', '--reply-tokens', '3', '--ttft-ms', '0', '--tokens-per-second', '0'], io, signals as SignalSource);
  await eventually(() => out.length > 0, 'ready line');
  t.equal(out.length, 1);
  const m = /^simulator listening on (http:\/\/127\.0\.0\.1:\d+)\n$/.exec(out[0]);
  t.ok(m, out[0]);
  const url = m![1];
  const reply = await call(url, 'POST', '/v1/messages', TEXT_REQUEST);
  t.match(JSON.parse(reply.body), { content: [{ text: 'You said: Hello' }] });
  signals.emit('SIGTERM');
  t.equal(await running, 0);
  t.same(err, []);
  t.equal(signals.listenerCount('SIGINT') + signals.listenerCount('SIGTERM'), 0, 'signal listeners removed');
  await t.rejects(call(url, 'GET', '/v1/models'), 'server closed');
});

const BAD: Array<[string[], RegExp]> = [
  [['--port', 'x'], /^model-gateway simulator: --port must be an integer from 0 to 65535, got "x"\n$/],
  [['--port', '70000'], /--port must be an integer from 0 to 65535/],
  [['--tokens-per-second', '-1'], /^model-gateway simulator: /],
  [['--bogus'], /^model-gateway simulator: unknown option --bogus \(usage: model-gateway simulator/],
];

for (const [argv, reason] of BAD) {
  t.test(`bad arguments ${argv.join(' ')} → exit 2 with one line`, async (t) => {
    const { out, err, io } = captureIo();
    t.equal(await runSimulator(argv, io, new EventEmitter() as SignalSource), 2);
    t.same(out, []);
    t.equal(err.length, 1);
    t.match(err[0], reason);
    t.equal(err[0].split('\n').length, 2, 'one line');
  });
}

t.test('--accounts-file gives accounts and limits; --vertex-credentials-out writes a key file for its token endpoint', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'sim-cli-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const accounts = join(dir, 'accounts.json');
  await writeFile(accounts, JSON.stringify({ accounts: [{ id: 'a', apiKey: 'sk-a', limits: { requestsPerMinute: 1 } }], bedrock: [{ accessKeyId: 'AKIA1', secretAccessKey: 's', apiKey: 'ABSK1' }] }));
  const credentials = join(dir, 'vertex-sa.json');
  const { out, io } = captureIo();
  const signals = new EventEmitter();
  const running = runSimulator(['--port', '0', '--accounts-file', accounts, '--vertex-credentials-out', credentials], io, signals as SignalSource);
  await eventually(() => out.length > 0, 'ready line');
  const url = /on (http:\/\/\S+)\n$/.exec(out[0]!)![1]!;
  const headers = { ...API_HEADERS, 'x-api-key': 'sk-a' };
  t.equal((await call(url, 'POST', '/v1/messages', TEXT_REQUEST, headers)).status, 200);
  t.equal((await call(url, 'POST', '/v1/messages', TEXT_REQUEST, headers)).status, 429, 'the file\'s limit');
  t.equal((await call(url, 'POST', '/v1/messages', TEXT_REQUEST, { ...API_HEADERS, 'x-api-key': 'sk-other' })).status, 401, 'only the file\'s keys');
  const bedrock = await call(url, 'POST', '/model/anthropic.claude-haiku-4-5-20251001-v1%3A0/invoke', { anthropic_version: 'bedrock-2023-05-31', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] }, { authorization: 'Bearer ABSK1', 'content-type': 'application/json' });
  t.equal(bedrock.status, 200, 'the Bedrock account, by its API key');
  const file = JSON.parse(await readFile(credentials, 'utf8')) as { token_uri: string; type: string };
  t.equal(file.type, 'service_account');
  t.equal(file.token_uri, `${url}/token`);
  const source = VertexTokenSource.forAccount(await readServiceAccountFile(credentials));
  t.match(await source.token(), /^ya29\./, 'the written account gets tokens from this simulator');
  await source.close();
  signals.emit('SIGTERM');
  t.equal(await running, 0);
});

t.test('a bad accounts file → exit 2 with one line naming the file and the field', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'sim-cli-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const file = join(dir, 'accounts.json');
  await writeFile(file, JSON.stringify({ accounts: [{ apiKey: 'sk', limits: { requestsPerMinute: 0 } }] }));
  const { out, err, io } = captureIo();
  t.equal(await runSimulator(['--accounts-file', file], io, new EventEmitter() as SignalSource), 2);
  t.same(out, []);
  t.same(err, [`model-gateway simulator: ${file}: accounts.0.limits.requestsPerMinute must be a positive number\n`]);
});
