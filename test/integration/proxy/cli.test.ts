// `model-gateway proxy` (runProxy in-process, as main.ts calls it): the ready line, requests through it,
// a clean stop on SIGTERM/SIGINT, refusals with one-line reasons, and the key never in its output even
// at the most verbose log level.
import { EventEmitter } from 'node:events';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { runProxy } from '../../../src/apps/cli/proxy.js';
import type { SignalSource } from '../../../src/apps/cli/signals.js';
import { call } from '../../helpers/http.js';
import { startHarness } from '../../helpers/harness.js';
import { waitFor } from '../../helpers/wait.js';
import { secretOf } from './fixtures/proxy.js';

const MODEL = 'claude-sonnet-4-6';

interface Run {
  out: string[];
  err: string[];
  signals: EventEmitter;
  done: Promise<number>;
  /** The base URL from the ready line, once it is printed. */
  ready(): Promise<string>;
}

function run(argv: string[], env: Record<string, string>): Run {
  const out: string[] = [];
  const err: string[] = [];
  const signals = new EventEmitter();
  const io = { out: (s: string) => void out.push(s), err: (s: string) => void err.push(s) };
  const done = runProxy(argv, io, signals as SignalSource, env);
  return {
    out,
    err,
    signals,
    done,
    async ready() {
      await waitFor(() => out.length > 0, 10_000, 10);
      return /ANTHROPIC_BASE_URL=(http:\/\/[^ ]+) /.exec(out[0]!)![1]!;
    },
  };
}

t.test('serves until SIGTERM and never prints the key', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const { key } = await h.createKey();
  const r = run(['--gateway', h.url, '--port', '0'], { MODEL_GATEWAY_KEY: key, LOG_LEVEL: 'trace' });
  const base = await r.ready();
  t.match(base, /^http:\/\/127\.0\.0\.1:\d+$/);
  t.equal(r.out.length, 1, 'one ready line');
  t.match(r.out[0], `OPENAI_BASE_URL=${base}/v1 `);

  const res = await call(`${base}/v1/messages`, {
    body: JSON.stringify({ model: MODEL, max_tokens: 16, messages: [{ role: 'user', content: 'via the CLI' }] }),
    headers: { 'content-type': 'application/json', 'x-api-key': 'placeholder', authorization: 'Bearer placeholder' },
  });
  t.equal(res.status, 200);
  t.match(res.json().content[0].text, /via the CLI/);
  await waitFor(() => r.err.join('').includes('accepts the key'), 10_000, 10);

  r.signals.emit('SIGTERM');
  t.equal(await r.done, 0, 'resolves 0 after closing');
  t.equal(r.signals.listenerCount('SIGINT') + r.signals.listenerCount('SIGTERM'), 0, 'signal listeners removed');
  await t.rejects(call(`${base}/v1/models`), 'the port is closed');
  const all = r.out.join('') + r.err.join('');
  t.match(all, '"level":20', 'logged below info (LOG_LEVEL=trace)');
  t.notMatch(all, key);
  t.notMatch(all, secretOf(key));
});

t.test('--key-file works; a loose key file and a non-loopback host are warned about', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const { key } = await h.createKey();
  const dir = mkdtempSync(join(tmpdir(), 'mgw-proxy-cli-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'key');
  writeFileSync(file, `${key}\n`);
  chmodSync(file, 0o644);
  const r = run(['--gateway', h.url, '--port', '0', '--host', '0.0.0.0', '--key-file', file], {});
  const base = await r.ready();
  const res = await call(`${base}/v1/chat/completions`, {
    body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'key file' }] }),
    headers: { 'content-type': 'application/json' },
  });
  t.equal(res.status, 200);
  r.signals.emit('SIGINT');
  t.equal(await r.done, 0);
  const err = r.err.join('');
  t.match(err, /WARNING: listening on 0\.0\.0\.0, beyond this machine: anyone who can reach port \d+ spends this key/);
  t.match(err, /other users of this machine/);
  t.notMatch(r.out.join('') + err, secretOf(key));
});

t.test('refusals: one line on stderr, a non-zero exit, nothing echoed', async (t) => {
  const key = 'mgw_ABCDEFGHabcdefgh_0123456789abcdefghijABCDEFGHIJ0123456789abc';
  const busy = await startHarness();
  t.teardown(() => busy.close());
  const cases: [string[], Record<string, string>, number, RegExp][] = [
    [['--gateway', 'http://127.0.0.1:1'], {}, 2, /^model-gateway proxy: no gateway key: set MODEL_GATEWAY_KEY/],
    [['--gateway', 'http://127.0.0.1:1', '--key', key], {}, 2, /unknown option --key/],
    [['--gateway', 'http://127.0.0.1:1', key], {}, 2, /unexpected argument/],
    [['--gateway', 'http://127.0.0.1:1'], { MODEL_GATEWAY_KEY: 'sk-not-a-gateway-key' }, 2, /is not a gateway key/],
    [['--port', '3099'], { MODEL_GATEWAY_KEY: key }, 2, /--gateway <url> is required/],
    [['--gateway', 'http://127.0.0.1:1', '--port', String(busy.port)], { MODEL_GATEWAY_KEY: key }, 1, /cannot listen on 127\.0\.0\.1:\d+ \(EADDRINUSE\)/],
  ];
  for (const [argv, env, code, reason] of cases) {
    const r = run(argv, env);
    t.equal(await r.done, code, argv.join(' '));
    const err = r.err.join('');
    t.match(err, reason);
    t.equal(err.trim().split('\n').length, 1, 'one line');
    t.notMatch(err, secretOf(key));
    t.notMatch(err, 'sk-not-a-gateway-key');
    t.same(r.out, []);
  }
});
