// `model-gateway simulator`: the ready line, a working server, a clean stop on SIGTERM, bad arguments.
import { EventEmitter } from 'node:events';
import t from 'tap';
import { runSimulator } from '../../../src/apps/cli/simulator.js';
import type { SignalSource } from '../../../src/apps/cli/signals.js';
import { call, eventually, TEXT_REQUEST } from './raw-http.js';

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
