// The command line as the binary runs it (runCli, which src/main.ts calls; two cases spawn the binary
// itself): every bad invocation of every command exits non-zero with exactly one line on stderr and
// nothing on stdout; the usage text comes only with --help. A key pasted in the wrong place is never
// repeated.
import { EventEmitter } from 'node:events';
import { join } from 'node:path';
import t from 'tap';
import { runCli } from '../../../src/apps/cli/dispatch.js';
import type { SignalSource } from '../../../src/apps/cli/signals.js';
import { GATEWAY_MAIN, spawnNode } from '../../helpers/child-node.js';

const SECRET = 'S3cr3tS3cr3tS3cr3tS3cr3tS3cr3tS3cr3tS3cr3tX';
const KEY = `mgw_AbCdEfGhIjKlMnOp_${SECRET}`;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

async function runInProcess(argv: string[], env: Record<string, string>): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const io = { out: (s: string) => void (stdout += s), err: (s: string) => void (stderr += s) };
  // A case that started a server instead of refusing gets a stop signal after a while: its exit code 0 fails it.
  const signals = new EventEmitter();
  const stop = setTimeout(() => signals.emit('SIGTERM'), 10_000);
  const code = await runCli(argv, io, env, signals as SignalSource);
  clearTimeout(stop);
  return { code, stdout, stderr };
}

function spawnBinary(argv: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawnNode(GATEWAY_MAIN, argv, { env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'silent', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (c: Buffer) => void (stdout += c.toString('utf8')));
    child.stderr!.on('data', (c: Buffer) => void (stderr += c.toString('utf8')));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

t.test('bad arguments: one line on stderr, a non-zero exit, no usage text', async (t) => {
  const dir = t.testdir({ 'plain-file': 'x' });
  const env = { DATABASE_URL: `file:${join(dir, 'gateway.db')}`, LOG_LEVEL: 'silent' };
  const cases: Array<[argv: string[], code: number, line: string | RegExp, env?: Record<string, string>]> = [
    [['frobnicate'], 2, 'model-gateway: unknown command "frobnicate" (see model-gateway --help)'],
    [['toString'], 2, 'model-gateway: unknown command "toString" (see model-gateway --help)'],
    [[KEY], 2, 'model-gateway: unknown command (not shown: 64 characters) (see model-gateway --help)'],
    [['--bogus'], 2, /^model-gateway: unknown option --bogus \(usage: serve /],
    [['serve', 'extra'], 2, /^model-gateway: unexpected argument \(usage: serve /],
    [['serve', KEY], 2, /^model-gateway: unexpected argument /],
    [['serve', '--port'], 2, /^model-gateway: option --port needs a value /],
    [['serve', '--workers', 'many'], 1, /^model-gateway: --workers must be /],
    [['serve', '--port', 'abc'], 1, /^model-gateway: PORT must be an integer/],
    [['keys'], 2, /^model-gateway keys: expected create, list, update or revoke /],
    [['keys', 'rotate'], 2, /^model-gateway keys: expected create, list, update or revoke /],
    [['keys', 'toString'], 2, /^model-gateway keys: expected create, list, update or revoke /],
    [['keys', 'create'], 2, /^model-gateway keys: --customer is required /],
    [['keys', 'create', '--customer'], 2, /^model-gateway keys: option --customer needs a value /],
    [['keys', 'create', '--customer', 'a', '--rpm', 'lots'], 2, 'model-gateway keys: --rpm must be a positive integer, got "lots"'],
    [['keys', 'create', '--customer', 'a', '--rpm', KEY], 2, 'model-gateway keys: --rpm must be a positive integer, got (not shown: 64 characters)'],
    [['keys', 'create', '--customer', 'a', KEY], 2, /^model-gateway keys: unexpected argument /],
    [['keys', 'create', '--customer', 'a', '--expires', KEY], 1, /^model-gateway keys: expiry is not an ISO-8601 date \(such as /],
    [['keys', 'list', '--json=yes'], 2, /^model-gateway keys: option --json takes no value /],
    [['keys', 'list', `--${KEY}`], 2, /^model-gateway keys: unknown option \(usage: /],
    [['keys', 'revoke'], 2, /^model-gateway keys: expected one key id /],
    [['keys', 'revoke', 'a', 'b'], 2, /^model-gateway keys: expected one key id /],
    [['keys', 'revoke', `${KEY} `], 1, 'model-gateway keys: no key with id "AbCdEfGhIjKlMnOp"'],
    [['keys', 'list'], 1, /^model-gateway keys: cannot open database /, { DATABASE_URL: `file:${join(dir, 'plain-file', 'gateway.db')}` }],
    [['usage', '--since', 'yesterday'], 2, 'model-gateway usage: --since must be a date YYYY-MM-DD, got "yesterday"'],
    [['usage', '--verbose'], 2, /^model-gateway usage: unknown option --verbose /],
    [['usage'], 1, /^model-gateway usage: cannot open database /, { DATABASE_URL: `file:${join(dir, 'plain-file', 'gateway.db')}` }],
    [['audit', '--since', KEY], 2, /^model-gateway audit: --since must be a date YYYY-MM-DD \(UTC\) or an ISO 8601 time with its zone, got \(not shown: 64 characters\)$/],
    [['audit', '--verbose'], 2, /^model-gateway audit: unknown option --verbose \(usage: audit /],
    [['audit', 'extra'], 2, /^model-gateway audit: unexpected argument /],
    [['audit', '--customer', KEY], 1, 'model-gateway audit: no customer named (not shown: 64 characters)'],
    [['audit'], 1, /^model-gateway audit: cannot open database /, { DATABASE_URL: `file:${join(dir, 'plain-file', 'gateway.db')}` }],
    [['migrate', 'now'], 2, 'model-gateway migrate: unexpected argument (usage: migrate)'],
    [['migrate'], 1, /^model-gateway migrate: cannot open database /, { DATABASE_URL: `file:${join(dir, 'plain-file', 'gateway.db')}` }],
    [['proxy'], 2, /^model-gateway proxy: --gateway <url> is required /],
    [['proxy', '--gateway', 'http://127.0.0.1:1', KEY], 2, /^model-gateway proxy: unexpected argument; the key is never an argument/],
    [['proxy', '--gateway', 'http://127.0.0.1:1', '--port', 'x'], 2, /^model-gateway proxy: --port must be an integer from 0 to 65535$/],
    [['proxy', '--gateway', 'http://127.0.0.1:1'], 2, /^model-gateway proxy: no gateway key: set MODEL_GATEWAY_KEY /],
    [['simulator', '--port', '99999'], 2, /^model-gateway simulator: --port must be an integer from 0 to 65535, got "99999"$/],
    [['simulator', 'extra'], 2, /^model-gateway simulator: unexpected argument /],
  ];
  const runs: Run[] = [];
  for (const [argv, , , extra] of cases) runs.push(await runInProcess(argv, { ...env, ...extra }));
  cases.forEach(([argv, code, line], i) => {
    const run = runs[i]!;
    const label = argv.join(' ').replace(SECRET, '<secret>');
    t.equal(run.code, code, `${label}: exit code`);
    t.equal(run.stdout, '', `${label}: nothing on stdout`);
    t.match(run.stderr, /^[^\n]+\n$/, `${label}: exactly one line on stderr`);
    if (typeof line === 'string') t.equal(run.stderr, `${line}\n`, label);
    else t.match(run.stderr.trimEnd(), line, label);
    t.notOk(run.stderr.includes('usage: model-gateway <command>'), `${label}: not the usage text`);
    t.notOk(run.stderr.includes(SECRET.slice(0, 12)), `${label}: never the secret`);
  });
});

t.test('--help prints the usage text on stdout and exits 0', async (t) => {
  for (const argv of [['--help'], ['-h'], ['help'], ['keys', '--help'], ['proxy', '-h']]) {
    const run = await runInProcess(argv, {});
    t.equal(run.code, 0, argv.join(' '));
    t.equal(run.stderr, '', argv.join(' '));
    t.match(run.stdout, /^usage: model-gateway <command>/, argv.join(' '));
    for (const command of ['serve', 'keys create', 'keys list', 'keys revoke', 'usage', 'proxy', 'simulator']) t.match(run.stdout, `\n  ${command} `);
  }
});

t.test('the binary itself: exit code and streams', async (t) => {
  const [unknown, help] = await Promise.all([spawnBinary(['frobnicate']), spawnBinary(['--help'])]);
  t.same(unknown, { code: 2, stdout: '', stderr: 'model-gateway: unknown command "frobnicate" (see model-gateway --help)\n' });
  t.equal(help.code, 0);
  t.equal(help.stderr, '');
  t.match(help.stdout, /^usage: model-gateway <command>/);
});

t.test('serve refused by its models file: one line, exit 1, and the process ends (nothing it opened keeps it alive)', async (t) => {
  const dir = t.testdir({ 'models.json': JSON.stringify({ providers: [{ id: 'x', type: 'nosuchtype' }] }) });
  const models = join(dir, 'models.json');
  // Without an upstream the gateway starts its simulator and opens its database before it reads the
  // models file: both must be closed again, or the binary would hang here until tap's timeout.
  const run = await spawnBinary(['serve', '--port', '0'], { GATEWAY_MODELS_FILE: models, DATABASE_URL: `file:${join(dir, 'gateway.db')}` });
  t.same(run, { code: 1, stdout: '', stderr: `model-gateway: ${models}: providers[0] ("x").type: unknown provider type "nosuchtype" (known: anthropic, bedrock, vertex)\n` });
});
