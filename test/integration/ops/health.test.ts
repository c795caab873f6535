// /healthz, /readyz (503 while draining), the built-in simulator mode (and no such mode once a models
// file lists providers), and the live models refresh.
import t from 'tap';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildRuntime } from '../../../src/apps/serve/build-runtime.js';
import { startSimulator } from '../../../src/apps/simulator/index.js';
import { loadConfig } from '../../../src/config/config.js';
import { createGateway } from '../../../src/gateway/create-gateway.js';
import { createHttpServer, listen } from '../../../src/gateway/server.js';
import { startHarness } from '../../helpers/harness.js';
import { bearer, call } from '../../helpers/http.js';

t.test('health and readiness', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const health = await call(`${h.url}/healthz`);
  t.equal(health.status, 200);
  t.ok(health.headers['x-request-id']);
  const ready = await call(`${h.url}/readyz`);
  t.equal(ready.status, 200);
  t.equal(ready.json().database, 'ok');
  h.runtime.lifecycle.draining = true;
  const draining = await call(`${h.url}/readyz`);
  t.equal(draining.status, 503, 'not ready while draining');
  t.equal(draining.json().draining, true);
  h.runtime.lifecycle.draining = false;
  const metrics = await call(`${h.url}/metrics`);
  t.equal(metrics.status, 200);
  t.match(metrics.text, /model_gateway_/);
});

t.test('with no upstream configured, serve answers from the built-in simulator and says so', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'mgw-sim-'));
  const config = loadConfig({ DATABASE_URL: `file:${join(dir, 'g.db')}`, GATEWAY_ADMIN_TOKEN: 'x'.repeat(32), LOG_LEVEL: 'silent' });
  t.equal(config.upstreamBaseUrl, null);
  const built = await buildRuntime(config);
  const server = createHttpServer(createGateway(built.runtime), config.limits);
  const { port } = await listen(server, 0, '127.0.0.1');
  t.teardown(async () => {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
    await built.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const { key } = await built.stores.keys.createKey({ customerName: 'demo' });
  const res = await call(`http://127.0.0.1:${port}/gateway/openai/v1/chat/completions`, {
    body: JSON.stringify({ model: 'claude-haiku-4-5-20251001', messages: [{ role: 'user', content: 'hi' }] }),
    headers: bearer(key),
  });
  t.equal(res.status, 200, res.text);
  t.equal(res.headers['x-gateway-upstream'], 'simulator');
  t.equal(res.json().object, 'chat.completion');
});

t.test('a models file listing providers is the upstream: no built-in simulator, and nothing says there is one', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'mgw-providers-'));
  const upstream = await startSimulator({ port: 0, host: '127.0.0.1', apiKey: 'sk-acct-a', record: true });
  const modelsFile = join(dir, 'models.json');
  writeFileSync(modelsFile, JSON.stringify({ providers: [{ id: 'acct-a', type: 'anthropic', baseUrl: upstream.url, apiKeyEnv: 'HEALTH_TEST_KEY' }] }));
  const config = loadConfig({ DATABASE_URL: `file:${join(dir, 'g.db')}`, GATEWAY_ADMIN_TOKEN: 'x'.repeat(32), LOG_LEVEL: 'silent', GATEWAY_MODELS_FILE: modelsFile });
  t.equal(config.upstreamBaseUrl, null, 'no ANTHROPIC_BASE_URL or ANTHROPIC_API_KEY');
  const built = await buildRuntime({ ...config, environment: (name) => (name === 'HEALTH_TEST_KEY' ? 'sk-acct-a' : undefined) });
  const server = createHttpServer(createGateway(built.runtime), config.limits);
  const { port } = await listen(server, 0, '127.0.0.1');
  t.teardown(async () => {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
    await built.close();
    await upstream.close();
    rmSync(dir, { recursive: true, force: true });
  });
  t.equal(built.simulator, null, 'no simulator started in-process');
  t.equal(built.runtime.simulated, false);
  const { key } = await built.stores.keys.createKey({ customerName: 'demo' });
  const res = await call(`http://127.0.0.1:${port}/gateway/openai/v1/chat/completions`, {
    body: JSON.stringify({ model: 'claude-haiku-4-5-20251001', messages: [{ role: 'user', content: 'hi' }] }),
    headers: bearer(key),
  });
  t.equal(res.status, 200, res.text);
  t.equal(res.headers['x-gateway-upstream'], undefined, 'not marked as answered by the simulator');
  t.equal(upstream.received.filter((r) => r.url === '/v1/messages').length, 1, 'the provider of the file answered');
  t.equal((await call(`http://127.0.0.1:${port}/readyz`)).json().upstream, 'configured');
});

t.test('NODE_ENV=production refuses to start without an upstream credential', async (t) => {
  t.throws(() => loadConfig({ NODE_ENV: 'production' }), /ANTHROPIC_API_KEY/);
});

t.test('NODE_ENV=production starts on the providers of a models file alone, and refuses a models file without them', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'mgw-production-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const settings = (modelsFile: string) => ({ NODE_ENV: 'production', DATABASE_URL: `file:${join(dir, 'g.db')}`, GATEWAY_ADMIN_TOKEN: 'x'.repeat(32), LOG_LEVEL: 'silent', GATEWAY_MODELS_FILE: modelsFile });
  const withProviders = join(dir, 'providers.json');
  writeFileSync(withProviders, JSON.stringify({ providers: [{ id: 'acct-a', type: 'anthropic', baseUrl: 'http://127.0.0.1:9', apiKeyEnv: 'PRODUCTION_TEST_KEY' }] }));
  const config = loadConfig(settings(withProviders));
  const built = await buildRuntime({ ...config, environment: (name) => (name === 'PRODUCTION_TEST_KEY' ? 'sk-acct-a' : undefined) });
  t.equal(built.simulator, null, 'no simulator in production');
  t.equal(built.runtime.simulated, false);
  await built.close();
  const withoutProviders = join(dir, 'models.json');
  writeFileSync(withoutProviders, JSON.stringify({ models: [] }));
  await t.rejects(buildRuntime(loadConfig(settings(withoutProviders))), /NODE_ENV=production needs ANTHROPIC_API_KEY or providers in GATEWAY_MODELS_FILE/);
});

t.test('the catalogue follows the provider models list, and keeps the last one when it fails', async (t) => {
  const extra = { type: 'model' as const, id: 'claude-new-model-9', display_name: 'New', created_at: '2026-11-01T00:00:00Z' };
  const h = await startHarness();
  t.teardown(() => h.close());
  const { key } = await h.createKey();
  const list = async () => (await call(`${h.url}/gateway/openai/v1/models`, { headers: bearer(key) })).json().data.map((m: { id: string }) => m.id);
  t.notOk((await list()).includes(extra.id));
  const current = (await call(`${h.simulator.url}/v1/models?limit=1000`, { headers: { 'x-api-key': 'sk-upstream-test-0123456789abcdef', 'anthropic-version': '2023-06-01' } })).json().data;
  h.simulator.setOptions({ models: [extra, ...current] });
  t.equal(await h.runtime.catalogue.refresh(), true);
  t.ok((await list()).includes(extra.id), 'a model the provider adds is served without a release');
  const chat = await call(`${h.url}/gateway/openai/v1/chat/completions`, {
    body: JSON.stringify({ model: extra.id, messages: [{ role: 'user', content: 'hi' }] }),
    headers: bearer(key),
  });
  t.equal(chat.status, 200, chat.text);
  h.simulator.injectFault({ kind: 'status', status: 500 }, 5);
  await h.simulator.close();
  t.equal(await h.runtime.catalogue.refresh(), false, 'refresh fails with the provider gone');
  t.ok((await list()).includes(extra.id), 'the last known list stands');
});
