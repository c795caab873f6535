// What the fault drills share: a local fleet (src/apps/fleet, what `npm run fleet` runs) of three real
// `serve` processes on a fresh PostgreSQL database and the machine's Redis, behind a real HAProxy, in
// front of one simulator with paced streams; a steady mixed load through HAProxy that records every
// request's outcome; and the usage rows the fleet wrote. A drill may put a cuttable relay
// (test/helpers/cuttable-relay.ts) between the instances and PostgreSQL or Redis, to partition them.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Test } from 'tap';
import { Agent, request } from 'undici';
import { gatewayCommand } from '../../src/apps/fleet/gateway-process.js';
import { requireHaproxy } from '../../src/apps/fleet/haproxy.js';
import type { HealthCheck } from '../../src/apps/fleet/haproxy-config.js';
import { startLocalFleet, type LocalFleet } from '../../src/apps/fleet/local-fleet.js';
import { startSimulator } from '../../src/apps/simulator/index.js';
import { adminClient, deleteKeys, REDIS_URL } from '../unit/policy/ratelimit/redis/redis-test-env.js';
import { CuttableRelay } from '../helpers/cuttable-relay.js';
import { GATEWAY_MAIN, runNode, spawnNodeSync } from '../helpers/child-node.js';
import { migratedDatabase } from '../helpers/postgres.js';

/** Short, so a drill takes seconds: out after 2 failed checks 200 ms apart (drain delay 1.4 s). */
export const DRILL_CHECK: HealthCheck = { interMs: 200, fall: 2, rise: 2 };
export const USAGE_FLUSH_MS = 500;

/**
 * `npm run drills` sets DRILL_TIMING=1: full 10 s cuts, and the fleet's promises about time (a key
 * refused within 2 s, no request waiting 1 s, HAProxy out within its checks) asserted. In `npm test`
 * the same drills run with short cuts and assert only what does not depend on the machine's speed
 * (no failed request, nothing lost or counted twice, every instance down during a cut and up after
 * it), waiting for those events rather than for a time; the timings are still printed.
 */
export const TIMED = process.env.DRILL_TIMING === '1';
/** How long a partition lasts at least (untimed: also until every instance has reported it). */
export const CUT_MS = TIMED ? 10_000 : 3_000;
/** Bound on a wait for an event that the untimed run asserts only happens, whenever it does. */
export const EVENT_BOUND_MS = 60_000;
/** Requests that must start during a cut for the load to count as steady (a 3 s cut on a loaded machine sends few). */
export const STEADY_DURING_CUT = TIMED ? 30 : 1;

/** A claim about time: asserted by `npm run drills`, printed only in `npm test`. */
export function timingClaim(t: Test, holds: boolean, message: string): void {
  if (TIMED) t.ok(holds, message);
  else t.comment(`${holds ? 'held' : 'DID NOT HOLD'} (asserted by npm run drills only): ${message}`);
}
const UPSTREAM_KEY = 'sk-drill-upstream-0123456789abcdef';
/**
 * The drill key's requests per minute: far above what the load sends, so the limit never refuses,
 * but set, so every request asks Redis (the limiter is on the path of every drill).
 */
const DRILL_KEY_RPM = 1_000_000;

export type Store = 'postgres' | 'redis';

export interface DrillOptions {
  /** The stores the instances reach through a relay the drill can cut (the CLI and the checks go direct). */
  readonly relays?: readonly Store[];
  /** Settings of every instance, over the drill's. */
  readonly env?: Readonly<Record<string, string>>;
}

export interface Drill {
  readonly fleet: LocalFleet;
  /** A gateway key's secret: for requests only. */
  readonly key: string;
  /** Each instance's own address, past HAProxy. */
  readonly instanceUrls: readonly string[];
  /** The relay in front of that store (it must have been asked for in the options). */
  relay(store: Store): CuttableRelay;
  /** Runs `model-gateway <args>` against the drill's database, as an operator would; its stdout. */
  cli(...args: string[]): Promise<string>;
  /** The request ids of the usage rows in the database. */
  usageRequestIds(): Promise<Set<string>>;
  /** Request ids with more than one usage row (a replay must never count twice). */
  duplicateUsage(): Promise<string[]>;
  /** Every instance's newest output and HAProxy's, for a failed assertion. */
  output(): string;
}

/** Fails at once, saying how to get it, when HAProxy is not installed. */
export async function startDrill(t: Test, opts: DrillOptions = {}): Promise<Drill> {
  requireHaproxy();
  const { url: databaseUrl, pool } = await migratedDatabase(t);
  const relays = new Map<Store, CuttableRelay>();
  const throughRelay = async (store: Store, url: string): Promise<string> => {
    if (!opts.relays?.includes(store)) return url;
    const target = new URL(url);
    const relay = new CuttableRelay(target.hostname, Number(target.port || (store === 'postgres' ? 5432 : 6379)));
    target.port = String(await relay.listen());
    t.teardown(() => relay.close());
    relays.set(store, relay);
    return target.toString();
  };
  // Usage spill files (PostgreSQL unreachable) go to a folder of the drill's, shared by its instances as a host's would be.
  const dataDir = mkdtempSync(join(tmpdir(), 'mgw-drill-data-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  // Streams of ~0.5 s: a drain always finds some under way.
  const simulator = await startSimulator({ port: 0, host: '127.0.0.1', apiKey: UPSTREAM_KEY, ttftMs: 30, tokensPerSecond: 30, replyTokens: 15 });
  t.teardown(() => simulator.close());
  const redisPrefix = `mgw-drill-${process.pid}-${randomBytes(4).toString('hex')}:`;
  t.teardown(async () => {
    const redis = await adminClient();
    await deleteKeys(redis, redisPrefix);
    await redis.quit();
  });
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    DATABASE_URL: await throughRelay('postgres', databaseUrl),
    REDIS_URL: await throughRelay('redis', REDIS_URL),
    GATEWAY_DATA_DIR: dataDir,
    GATEWAY_REDIS_PREFIX: redisPrefix,
    GATEWAY_ADMIN_TOKEN: `mgwadm_drill_${randomBytes(16).toString('hex')}`,
    ANTHROPIC_BASE_URL: simulator.url,
    ANTHROPIC_API_KEY: UPSTREAM_KEY,
    LOG_LEVEL: 'warn',
    GATEWAY_USAGE_FLUSH_MS: String(USAGE_FLUSH_MS),
    GATEWAY_SHUTDOWN_GRACE_MS: '10000',
    GATEWAY_RETRY_ATTEMPTS: '1',
    // Three gateways on a small machine: no translation thread each.
    GATEWAY_TRANSLATE_THREADS: '0',
    ...opts.env,
  };
  const command = gatewayCommand();
  // Past the relays: an operator's command reaches the database whatever the drill cuts.
  const cliEnv = { ...env, DATABASE_URL: databaseUrl, REDIS_URL };
  const created = spawnNodeSync(GATEWAY_MAIN, ['keys', 'create', '--customer', 'drill', '--rpm', String(DRILL_KEY_RPM)], { env: cliEnv, encoding: 'utf8' });
  if (created.status !== 0) throw new Error(`keys create failed: ${created.stderr}`);
  const key = created.stdout.trim();

  const fleet = await startLocalFleet({ instances: 3, command, env, check: DRILL_CHECK, startTimeoutMs: 120_000 });
  t.teardown(() => fleet.stop());
  return {
    fleet,
    key,
    instanceUrls: fleet.instances.map((i) => `http://127.0.0.1:${i.port}`),
    relay(store) {
      const relay = relays.get(store);
      if (relay === undefined) throw new Error(`the drill was started without a relay in front of ${store}`);
      return relay;
    },
    // Not a synchronous run: the load and the polling go on while the command runs.
    cli: async (...args) => {
      const run = await runNode(GATEWAY_MAIN, args, cliEnv);
      if (run.code !== 0) throw new Error(`model-gateway ${args.slice(0, 2).join(' ')} failed: ${run.stderr}`);
      return run.stdout.trim();
    },
    async usageRequestIds() {
      const { rows } = await pool.query<{ request_id: string }>('SELECT request_id FROM usage_records');
      return new Set(rows.map((r) => r.request_id));
    },
    async duplicateUsage() {
      const { rows } = await pool.query<{ request_id: string }>('SELECT request_id FROM usage_records GROUP BY 1 HAVING count(*) > 1');
      return rows.map((r) => r.request_id);
    },
    output: () =>
      [...fleet.instances.map((i) => `--- ${i.name} (:${i.port}) ---\n${i.tail()}`), `--- haproxy ---\n${fleet.haproxy.output()}`].join('\n'),
  };
}

// ---- The load ----

export type Kind = 'messages' | 'messages-stream' | 'chat' | 'chat-stream';
const KINDS: readonly Kind[] = ['messages', 'messages-stream', 'chat', 'chat-stream'];

export interface Outcome {
  readonly kind: Kind;
  /** performance.now() when sent and when its answer ended (or failed). */
  readonly startedAt: number;
  /** When the answer's headers came (a stream's first byte); null when none came. */
  readonly headersAt: number | null;
  readonly endedAt: number;
  readonly status: number | null;
  /** HAProxy's x-fleet-instance: which instance answered. */
  readonly instance: string | null;
  readonly requestId: string | null;
  /** Network error, or the reason the answer is not a success. */
  readonly error: string | null;
}

export const failed = (o: Outcome) => o.error !== null;

export interface Load {
  readonly outcomes: readonly Outcome[];
  /** Stops sending and waits for every request under way. */
  stop(): Promise<Outcome[]>;
}

/** `concurrency` clients, each sending the four kinds in turn, one after another, through `url`. */
export function startLoad(url: string, key: string, concurrency: number): Load {
  const agent = new Agent({ keepAliveTimeout: 10_000, connections: concurrency });
  const outcomes: Outcome[] = [];
  let stopped = false;
  const client = async (n: number) => {
    for (let i = n; !stopped; i++) outcomes.push(await send(agent, url, key, KINDS[i % KINDS.length]));
  };
  const clients = Array.from({ length: concurrency }, (_, n) => client(n));
  return {
    outcomes,
    async stop() {
      stopped = true;
      await Promise.all(clients);
      await agent.close();
      return outcomes;
    },
  };
}

async function send(agent: Agent, base: string, key: string, kind: Kind): Promise<Outcome> {
  const stream = kind.endsWith('-stream');
  const chat = kind.startsWith('chat');
  const path = chat ? '/gateway/openai/v1/chat/completions' : '/gateway/v1/messages';
  const content = `drill ${kind}`;
  const body = chat
    ? { model: 'claude-sonnet-4-6', stream, messages: [{ role: 'user', content }] }
    : { model: 'claude-sonnet-4-6', max_tokens: 64, stream, messages: [{ role: 'user', content }] };
  const startedAt = performance.now();
  let headersAt: number | null = null;
  const done = (status: number | null, headers: Record<string, unknown>, error: string | null): Outcome => ({
    kind,
    startedAt,
    headersAt,
    endedAt: performance.now(),
    status,
    instance: typeof headers['x-fleet-instance'] === 'string' ? headers['x-fleet-instance'] : null,
    // The gateway's own id (the messages surface passes the provider's back as request-id).
    requestId: typeof headers['x-request-id'] === 'string' ? headers['x-request-id'] : null,
    error,
  });
  let status: number | null = null;
  let headers: Record<string, unknown> = {};
  try {
    const res = await request(`${base}${path}`, {
      dispatcher: agent,
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    headersAt = performance.now();
    status = res.statusCode;
    headers = res.headers;
    const text = await res.body.text();
    if (status !== 200) return done(status, headers, `status ${status}: ${text.slice(0, 200)}`);
    return done(status, headers, stream ? incompleteStream(chat, text) : null);
  } catch (err) {
    return done(status, headers, `${(err as Error).name}: ${(err as Error).message}`);
  }
}

/** null when the stream ended with its dialect's final event. */
function incompleteStream(chat: boolean, text: string): string | null {
  const complete = chat ? text.trimEnd().endsWith('data: [DONE]') : /event: message_stop\ndata: [^\n]*\n\n$/.test(text);
  return complete ? null : `the stream ended without its final event (${text.length} bytes, ends ${JSON.stringify(text.slice(-80))})`;
}

// ---- Reporting ----

export function countBy<T>(items: readonly T[], keyOf: (item: T) => string | null): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of items) {
    const k = keyOf(item) ?? 'none';
    counts[k] = (counts[k] ?? 0) + 1;
  }
  return counts;
}

export function describe(o: Outcome, origin: number): string {
  return `${o.kind} sent at +${Math.round(o.startedAt - origin)} ms, ended +${Math.round(o.endedAt - origin)} ms on ${o.instance ?? '?'}: ${o.error}`;
}

/** The value of a metric line (labels included, exactly as exposed) on one instance; null when absent. */
export async function metricOf(instanceUrl: string, line: string): Promise<number | null> {
  const res = await request(`${instanceUrl}/metrics`);
  const text = await res.body.text();
  const found = text.split('\n').find((l) => l.startsWith(`${line} `));
  return found === undefined ? null : Number(found.slice(line.length + 1));
}

/** How long the client waited for what it waits on: the headers of a stream (its first byte), the whole answer otherwise. */
export function waitedMs(o: Outcome): number {
  const until = o.kind.endsWith('-stream') ? (o.headersAt ?? o.endedAt) : o.endedAt;
  return until - o.startedAt;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
