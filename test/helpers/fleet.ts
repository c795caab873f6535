// N real `model-gateway serve` processes sharing one PostgreSQL database and one Redis, as a fleet behind
// a load balancer runs them: each on its own port, answering from its built-in simulator. For the fleet
// tests and drills (stop one with SIGTERM or SIGKILL, start it again on the same port) and the fleet's
// bench tools. Runs under the test runner's TypeScript loader (src/main.ts) and compiled (dist/src/main.js).
import { randomBytes } from 'node:crypto';
import { request } from 'undici';
import { gatewayCommand, GatewayProcess } from '../../src/apps/fleet/gateway-process.js';
import { closedPort } from './ports.js';

export interface FleetOptions {
  /** Default 3. */
  instances?: number;
  /** postgres://… (a fresh database of the caller's: `createTestDatabase(t)`). */
  databaseUrl: string;
  redisUrl: string;
  /** GATEWAY_REDIS_PREFIX: the caller's own, so its keys can be deleted afterwards. */
  redisPrefix: string;
  /** Settings of every instance, over the defaults below. */
  env?: Record<string, string>;
  /** Settings of one instance, over `env`. */
  envOf?: (index: number) => Record<string, string>;
  /** Per start; the processes start at once and mostly compile meanwhile. Default 90 s. */
  startTimeoutMs?: number;
}

export interface FleetInstance {
  readonly index: number;
  /** Fixed for the fleet's life: a restart listens on the same port. */
  readonly port: number;
  readonly url: string;
  /** null while stopped. */
  readonly pid: number | null;
  readonly running: boolean;
  /** Ends the process and waits for its exit (SIGKILL after 15 s); its exit code (null when killed by a signal). */
  stop(signal?: 'SIGTERM' | 'SIGKILL'): Promise<number | null>;
  /** Starts a stopped instance again with the same settings and port, and waits until it listens. */
  start(): Promise<void>;
  /** Its stderr and its log lines at warn and above (the newest, bounded): for failure messages. */
  output(): string;
  /** Its log lines (access lines left out), parsed, from every start. */
  logLines(): readonly LogLine[];
}

export interface LogLine {
  level: number;
  msg: string;
  [field: string]: unknown;
}

export interface Fleet {
  readonly instances: readonly FleetInstance[];
  readonly urls: readonly string[];
  /** GATEWAY_ADMIN_TOKEN of every instance: generated per fleet, never logged by the helper. */
  readonly adminToken: string;
  /** Every instance's output, labelled: what a failed assertion should show. */
  output(): string;
  /** Stops every instance still running (SIGTERM by default); safe to call twice. */
  stop(signal?: 'SIGTERM' | 'SIGKILL'): Promise<void>;
}

const OUTPUT_LIMIT = 64 * 1024;
const STOP_LIMIT_MS = 15_000;
const LOG_LINES_LIMIT = 2000;

/**
 * Fleets started before one is given up for ports taken: a port is picked free and closed, then the
 * instance binds it, and another test process on the machine may take it in between (EADDRINUSE).
 */
const PORT_ATTEMPTS = 3;

/**
 * Starts the fleet; when any instance fails to start, stops the others and throws with their output.
 * An instance whose port another process took in the meantime starts a fleet on new ports instead.
 */
export async function startFleet(opts: FleetOptions): Promise<Fleet> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startFleetOnce(opts);
    } catch (err) {
      if (attempt >= PORT_ATTEMPTS || !(err instanceof PortTaken)) throw err;
    }
  }
}

class PortTaken extends Error {}

async function startFleetOnce(opts: FleetOptions): Promise<Fleet> {
  const count = opts.instances ?? 3;
  const adminToken = `mgwadm_fleet_${randomBytes(18).toString('hex')}`;
  const ports: number[] = [];
  for (let i = 0; i < count; i++) ports.push(await distinctFreePort(ports));
  const baseEnv = (port: number): Record<string, string> => ({
    PATH: process.env.PATH ?? '',
    DATABASE_URL: opts.databaseUrl,
    REDIS_URL: opts.redisUrl,
    GATEWAY_REDIS_PREFIX: opts.redisPrefix,
    GATEWAY_ADMIN_TOKEN: adminToken,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    GATEWAY_SHUTDOWN_GRACE_MS: '2000',
    // Three gateways on a small machine: no translation thread each.
    GATEWAY_TRANSLATE_THREADS: '0',
  });
  const instances = ports.map((port, index) => new Instance(index, port, { ...baseEnv(port), ...opts.env, ...opts.envOf?.(index) }, opts.startTimeoutMs ?? 90_000));
  const fleet: Fleet = {
    instances,
    urls: instances.map((i) => i.url),
    adminToken,
    output: () => instances.map((i) => `--- instance ${i.index} (port ${i.port}) ---\n${i.output()}`).join('\n'),
    async stop(signal = 'SIGTERM') {
      await Promise.all(instances.map((i) => i.stop(signal)));
    },
  };
  const started = await Promise.allSettled(instances.map((i) => i.start()));
  const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed !== undefined) {
    await fleet.stop('SIGKILL');
    const output = fleet.output();
    const message = `the fleet did not start: ${(failed.reason as Error).message}\n${output}`;
    throw output.includes('EADDRINUSE') ? new PortTaken(message) : new Error(message);
  }
  return fleet;
}

async function distinctFreePort(taken: number[]): Promise<number> {
  for (;;) {
    const port = await closedPort();
    if (!taken.includes(port)) return port;
  }
}

/** One instance: a GatewayProcess (src/apps/fleet), its log lines parsed and its warnings kept for failure messages. */
class Instance implements FleetInstance {
  readonly url: string;
  private readonly process: GatewayProcess;
  private stderrAndWarnings = '';
  private readonly lines: LogLine[] = [];

  constructor(
    readonly index: number,
    readonly port: number,
    env: Record<string, string>,
    startTimeoutMs: number,
  ) {
    this.url = `http://127.0.0.1:${port}`;
    this.process = new GatewayProcess({ name: `instance ${index}`, port, command: gatewayCommand(), env, startTimeoutMs, onLine: (_, text) => this.take(text) });
  }

  get pid(): number | null {
    return this.process.pid;
  }

  get running(): boolean {
    return this.process.running;
  }

  start(): Promise<void> {
    return this.process.start();
  }

  async stop(signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM'): Promise<number | null> {
    if (!this.running) return this.process.stop(signal);
    // A drain that never ends (the grace is 2 s) must not hold the test: killed, and said so.
    const stuck = setTimeout(() => {
      this.keep(`[fleet helper] instance ${this.index} still running ${STOP_LIMIT_MS} ms after ${signal}: killed\n`);
      void this.process.stop('SIGKILL');
    }, STOP_LIMIT_MS);
    const code = await this.process.stop(signal);
    clearTimeout(stuck);
    return code;
  }

  output(): string {
    return this.stderrAndWarnings;
  }

  logLines(): readonly LogLine[] {
    return this.lines;
  }

  /** A line of its stdout (JSON log) or stderr. Access lines are the bulk under load and say nothing a test asks for. */
  private take(text: string): void {
    if (text.includes('"msg":"request"')) return;
    const line = parseLine(text);
    if (line === null) return this.keep(`${text}\n`);
    if (this.lines.length >= LOG_LINES_LIMIT) this.lines.shift();
    this.lines.push(line);
    if (line.level >= 40) this.keep(`${text}\n`);
  }

  private keep(text: string): void {
    this.stderrAndWarnings = (this.stderrAndWarnings + text).slice(-OUTPUT_LIMIT);
  }
}

function parseLine(text: string): LogLine | null {
  try {
    const line = JSON.parse(text) as LogLine;
    return typeof line.level === 'number' && typeof line.msg === 'string' ? line : null;
  } catch {
    return null;
  }
}

// ---- Setting the fleet up through its admin API, as an operator's script would ----

export interface FleetKey {
  id: string;
  customerId: string;
  /** The secret: for requests only, never for messages. */
  secret: string;
}

/** One call of the admin API with the admin token as a bearer; throws with the status and body on failure. */
export async function adminCall<T>(fleet: Fleet, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown, instance = 0): Promise<T> {
  const res = await request(`${fleet.urls[instance]}/admin/api${path}`, {
    method,
    headers: { authorization: `Bearer ${fleet.adminToken}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.body.text();
  if (res.statusCode >= 300) throw new Error(`${method} /admin/api${path}: ${res.statusCode} ${text.slice(0, 500)}`);
  return JSON.parse(text) as T;
}

/** A new customer named `customer` (unique per fleet) with one key of these limits. */
export async function createFleetKey(fleet: Fleet, customer: string, limits: { rpm?: number; tpm?: number } = {}): Promise<FleetKey> {
  const created = await adminCall<{ customer: { id: string } }>(fleet, 'POST', '/customers', { name: customer });
  const customerId = created.customer.id;
  const { key, secret } = await adminCall<{ key: { id: string }; secret: string }>(fleet, 'POST', `/customers/${customerId}/keys`, { name: 'fleet test', ...limits });
  return { id: key.id, customerId, secret };
}
