// Tracing is off unless an OTLP endpoint is set, and off means off: a `model-gateway serve` without
// one serves model requests without loading any OpenTelemetry SDK module (every module the process
// resolves is recorded by a preload of the test's), and exports nothing. The same gateway with an
// endpoint loads the SDK and exports: the recorder sees what it is meant to see.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import t from 'tap';
import type { Test } from 'tap';
import { bearer, call } from '../../helpers/http.js';
import { waitFor } from '../../helpers/wait.js';
import { GATEWAY_MAIN, runNode, spawnNode } from '../../helpers/child-node.js';
import { startOtlpReceiver } from '../../helpers/otlp-receiver.js';

const RECORDER = pathToFileURL(join(import.meta.dirname, 'fixtures', 'record-modules.js')).href;
// Every OpenTelemetry package but the API: prom-client's process CPU metric requires
// @opentelemetry/api itself (to read an active span, of which there is none), as it did before tracing.
const OTEL_SDK = /\/node_modules\/@opentelemetry\/(?!api\/)/;

/** A gateway child recording its modules; answers one messages and one chat request, then stops. */
async function serveOnce(t: Test, env: Record<string, string>): Promise<{ modules: string[]; output: string }> {
  const dir = t.testdir();
  const record = join(dir, 'modules.txt');
  const base = { PATH: process.env.PATH ?? '', DATABASE_URL: `file:${join(dir, 'gateway.db')}`, GATEWAY_ADMIN_TOKEN: 'mgwadm_tracing_off_test_token_0123456789' };
  const created = await runNode(GATEWAY_MAIN, ['keys', 'create', '--customer', 'acme', '--json'], base);
  t.equal(created.code, 0, created.stderr);
  const { key } = JSON.parse(created.stdout) as { key: string };
  const child = spawnNode(GATEWAY_MAIN, ['serve'], {
    env: { ...base, PORT: '0', HOST: '127.0.0.1', GATEWAY_SHUTDOWN_GRACE_MS: '2000', NODE_OPTIONS: `--import=${RECORDER}`, MODULE_RECORD_FILE: record, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  t.teardown(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  let output = '';
  let port: number | undefined;
  createInterface({ input: child.stdout! }).on('line', (line) => {
    output += `${line}\n`;
    if (line.includes('model-gateway listening')) port = (JSON.parse(line) as { port: number }).port;
  });
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  await waitFor(() => port !== undefined || child.exitCode !== null, 100_000);
  t.equal(child.exitCode, null, `serve is listening\n${output}`);
  const model = 'claude-haiku-4-5-20251001';
  const messages = await call(`http://127.0.0.1:${port}/gateway/v1/messages`, {
    body: JSON.stringify({ model, max_tokens: 16, stream: true, messages: [{ role: 'user', content: 'hi' }] }),
    headers: bearer(key, { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' }),
  });
  t.equal(messages.status, 200, messages.text);
  const chat = await call(`http://127.0.0.1:${port}/gateway/openai/v1/chat/completions`, { body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }), headers: bearer(key) });
  t.equal(chat.status, 200, chat.text);
  child.kill('SIGTERM');
  t.equal(await exited, 0, 'a clean stop');
  return { modules: readFileSync(record, 'utf8').split('\n').filter((l) => l !== ''), output };
}

t.jobs = 2;

t.test('no endpoint: no OpenTelemetry module is loaded, nothing is exported', { buffered: true }, async (t) => {
  const receiver = await startOtlpReceiver();
  t.teardown(() => receiver.close());
  // Every other tracing variable may be set: without an endpoint they change nothing.
  const { modules, output } = await serveOnce(t, { OTEL_SERVICE_NAME: 'gw', OTEL_TRACES_SAMPLER: 'always_on', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' });
  t.ok(modules.some((m) => m.includes('/dist/src/gateway/stages/observe.js')), `the recorder saw the gateway load (${modules.length} modules)`);
  t.ok(modules.some((m) => m.includes('/node_modules/prom-client/')), 'and CommonJS packages it requires');
  t.same(modules.filter((m) => OTEL_SDK.test(m)), [], 'no OpenTelemetry SDK module');
  t.same(modules.filter((m) => m.includes('/observability/tracing/otel/')), [], 'nor the module that builds the SDK');
  t.notMatch(output, /tracing on/);
  t.equal(receiver.exports.length, 0, 'nothing exported');
});

t.test('with an endpoint: the SDK is loaded at start-up and spans are exported', { buffered: true }, async (t) => {
  const receiver = await startOtlpReceiver();
  t.teardown(() => receiver.close());
  const { modules, output } = await serveOnce(t, { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url });
  t.ok(modules.some((m) => OTEL_SDK.test(m)), 'the recorder sees the SDK');
  t.match(output, /tracing on \(OpenTelemetry\)/);
  t.same(receiver.spans.filter((s) => s.kind === 'SERVER').length, 2, "both requests' spans, flushed by the stop");
});
