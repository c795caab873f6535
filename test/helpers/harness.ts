// Starts a real gateway on 127.0.0.1 in front of a real simulator, with a temporary database file and
// captured log lines: what every integration test mounts.
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { buildRuntime } from '../../src/apps/serve/build-runtime.js';
import type { BuiltRuntime } from '../../src/apps/serve/build-runtime.js';
import { loadConfig } from '../../src/config/config.js';
import { createGateway } from '../../src/gateway/create-gateway.js';
import { mountedRoutes } from '../../src/apps/serve/mounted-routes.js';
import type { HttpRoute } from '../../src/gateway/routes.js';
import type { Runtime } from '../../src/gateway/runtime.js';
import type { Budget } from '../../src/keys/budget.js';
import { createHttpServer, listen } from '../../src/gateway/server.js';
import { startSimulator } from '../../src/apps/simulator/index.js';
import type { Simulator, SimulatorOptions } from '../../src/apps/simulator/index.js';

export const UPSTREAM_KEY = 'sk-upstream-test-0123456789abcdef';
export const ADMIN_TOKEN = 'mgwadm_test_admin_token_0123456789';

export interface KeyOptions {
  customer?: string;
  name?: string;
  models?: string[];
  expiresAt?: string | null;
  rpm?: number | null;
  tpm?: number | null;
  budget?: Budget | null;
}

export interface Harness {
  readonly url: string;
  readonly port: number;
  readonly simulator: Simulator;
  readonly built: BuiltRuntime;
  readonly runtime: Runtime;
  readonly server: Server;
  readonly dataDir: string;
  createKey(opts?: KeyOptions): Promise<{ id: string; key: string }>;
  /** Everything the gateway logged so far, one JSON line each. */
  logText(): string;
  close(): Promise<void>;
}

export interface HarnessOptions {
  env?: Record<string, string>;
  simulator?: SimulatorOptions;
  /** Routes mounted beside the built-in ones (the dashboard's, for instance). */
  extraRoutes?: (built: BuiltRuntime) => HttpRoute[];
  /** The gateway's wall clock for budget periods (tests stand at a month's end with it). */
  wallClock?: () => number;
}

export async function startHarness(opts: HarnessOptions = {}): Promise<Harness> {
  const simulator = await startSimulator({ port: 0, host: '127.0.0.1', apiKey: UPSTREAM_KEY, record: true, ...opts.simulator });
  const dataDir = mkdtempSync(join(tmpdir(), 'mgw-test-'));
  const config = loadConfig({
    DATABASE_URL: `file:${join(dataDir, 'gateway.db')}`,
    ANTHROPIC_BASE_URL: simulator.url,
    ANTHROPIC_API_KEY: UPSTREAM_KEY,
    GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    GATEWAY_USAGE_FLUSH_MS: '50',
    GATEWAY_SHUTDOWN_GRACE_MS: '2000',
    // One attempt per call: tests that inject a single fault see it; resilience tests set their own.
    GATEWAY_RETRY_ATTEMPTS: '1',
    // No translation worker per test gateway: the suite starts many. The pool has its own tests
    // (test/integration/workers) and the default (one thread) runs in the bench and the CLI tests.
    GATEWAY_TRANSLATE_THREADS: '0',
    ...opts.env,
  });
  const lines: string[] = [];
  const logDestination = new Writable({
    write(chunk: Buffer, _enc, cb) {
      lines.push(chunk.toString('utf8'));
      cb();
    },
  });
  const built = await buildRuntime(config, { logDestination, simulator, wallClock: opts.wallClock });
  const server = createHttpServer(createGateway(built.runtime, opts.extraRoutes?.(built) ?? mountedRoutes(built)), config.limits);
  const address = await listen(server, 0, '127.0.0.1');
  let closed = false;
  return {
    url: `http://127.0.0.1:${address.port}`,
    port: address.port,
    simulator,
    built,
    runtime: built.runtime,
    server,
    dataDir,
    async createKey(k: KeyOptions = {}) {
      const { record, key } = await built.stores.keys.createKey({
        customerName: k.customer ?? 'acme',
        name: k.name ?? 'test key',
        expiresAt: k.expiresAt ?? null,
        allowedModels: k.models ?? null,
        rpm: k.rpm ?? null,
        tpm: k.tpm ?? null,
        budget: k.budget ?? null,
      });
      return { id: record.id, key };
    },
    logText: () => lines.join(''),
    async close() {
      if (closed) return;
      closed = true;
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      await built.close();
      await simulator.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
