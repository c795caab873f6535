// `model-gateway serve` with GATEWAY_METRICS_PORT and GATEWAY_METRICS_TOKEN: the metrics listener
// starts with the gateway, is guarded by the token, never logs it, and stops with the gateway.
import { createServer } from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import t from 'tap';
import type { Test } from 'tap';
import { call } from '../../helpers/http.js';
import { waitFor } from '../../helpers/wait.js';
import { GATEWAY_MAIN, spawnNode } from '../../helpers/child-node.js';

const TOKEN = 'serve_metrics_token_0123456789abcdef_XYZ';

function serve(t: Test, extraEnv: Record<string, string>) {
  const dir = t.testdir();
  const child = spawnNode(GATEWAY_MAIN, ['serve'], {
    env: {
      PATH: process.env.PATH,
      DATABASE_URL: `file:${join(dir, 'gateway.db')}`,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'debug',
      GATEWAY_ADMIN_TOKEN: 'mgwadm_metrics_port_test_token_0123456789',
      GATEWAY_SHUTDOWN_GRACE_MS: '2000',
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  t.teardown(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  let output = '';
  const ports: { main?: number; metrics?: number } = {};
  createInterface({ input: child.stdout! }).on('line', (line) => {
    output += `${line}\n`;
    if (line.includes('model-gateway listening')) ports.main = (JSON.parse(line) as { port: number }).port;
    if (line.includes('metrics listening')) ports.metrics = (JSON.parse(line) as { port: number }).port;
  });
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, ports, exited, output: () => output };
}

// Both processes start at once: each spends most of its time compiling, and one after the other
// they could outlast the file's timeout on a busy machine.
t.jobs = 2;

t.test('the metrics port opens and closes with the gateway, behind its token', { buffered: true }, async (t) => {
  const { child, ports, exited, output } = serve(t, { GATEWAY_METRICS_PORT: '0', GATEWAY_METRICS_TOKEN: TOKEN });
  await waitFor(() => (ports.main !== undefined && ports.metrics !== undefined) || child.exitCode !== null, 100_000);
  if (child.exitCode !== null) {
    t.fail(`serve exited before listening:\n${output()}`);
    return;
  }
  const metrics = `http://127.0.0.1:${ports.metrics}/metrics`;
  t.not(ports.metrics, ports.main, 'a port of its own');
  t.equal((await call(`http://127.0.0.1:${ports.main}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).status, 404, 'none on the main port');
  t.equal((await call(metrics)).status, 401, 'no token, no metrics');
  const scrape = await call(metrics, { headers: { authorization: `Bearer ${TOKEN}` } });
  t.equal(scrape.status, 200, 'the token opens it');
  t.match(scrape.text, /^# HELP model_gateway_/m);

  child.kill('SIGTERM');
  t.equal(await exited, 0, 'a clean exit');
  await t.rejects(call(metrics, { headers: { authorization: `Bearer ${TOKEN}` } }), { code: 'ECONNREFUSED' }, 'the metrics port is closed');
  t.match(output(), /"tokenRequired":true/);
  t.notMatch(output(), TOKEN.slice(6), 'the token is in no log line');
});

t.test('a metrics port already taken stops the start before the main port opens', { buffered: true }, async (t) => {
  const taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => taken.close(() => resolve())));
  const port = (taken.address() as { port: number }).port;
  const { ports, exited, output } = serve(t, { GATEWAY_METRICS_PORT: String(port) });
  const code = await exited;
  t.equal(code, 1, code === 1 ? 'exit 1' : output());
  t.match(output(), /EADDRINUSE/);
  t.equal(ports.main, undefined, 'the gateway never said it was listening');
});
