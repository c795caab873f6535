// How the fleet's costs scale: the same fixed-rate load (messages and chat in turn, one limited key, so
// the shared limiter decides every request, by a Redis script or from a lease one took) through HAProxy
// to a local fleet (src/apps/fleet, what `npm run fleet` runs) of 1 and then 3 `serve` instances on
// one PostgreSQL database and one Redis, in front of the simulator. Per request: each instance's CPU
// (/proc/<pid>/stat, all its threads, over the requests HAProxy sent it), PostgreSQL transactions and
// rows (pg_stat_database of the run's own database: pg_stat_statements is not loaded on these machines),
// Redis commands (INFO commandstats of a redis-server of the run's own), and the usage rows each write
// transaction carried (rows per distinct xmin in usage_records). CPU per request per instance must not
// grow with the instances (within 10%).
// Writes its section of bench/RESULTS.md; docs/scaling.md projects from these numbers.
//
// With --equal-load (and --rate-per-instance) the machine runs as many loaded instances for every size:
// the ones a smaller fleet lacks run beside it as companions (their own HAProxy, database, Redis and key,
// the same load per instance, not counted), so the comparison is the fleet's own cost, not how busy two
// shared cores are.
//
// With --side-by-side the fleets of every size run at the same time, each on stores of its own with the
// same load per instance, and are read over the same windows: the host's drift (its idle rate alone moves
// by a third between runs minutes apart) then falls on every size alike instead of on one.
//
// Requests arrive evenly spaced (bench/paced-load.ts), as from many independent clients; --arrivals bursts
// uses autocannon's rate limit instead, one burst a second from every connection, whose cost depends on
// how the load balancer shares each burst out.
//
// --rounds N measures every size N times in turn and takes the median of the rounds' growths: on a shared
// 2-core host one round's idle rate alone moves the figure by 20 %.
//
//   node dist/bench/tools/scaling.js [--sizes 1,3] [--seconds 20] [--rate 200] [--rate-per-instance [--equal-load]] [--side-by-side] [--arrivals even|bursts] [--connections 16]
//                                     [--rounds 1] [--warmup 3] [--idle 10] [--settle 11] [--results-file F] [--no-write]
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { createClient } from 'redis';
import { gatewayCommand, type GatewayCommand } from '../../src/apps/fleet/gateway-process.js';
import { requireHaproxy } from '../../src/apps/fleet/haproxy.js';
import { startLocalFleet, type LocalFleet } from '../../src/apps/fleet/local-fleet.js';
import { startSimulator } from '../../src/apps/simulator/index.js';
import { createTestDatabase } from '../../test/helpers/postgres.js';
import { runLoad } from '../load.js';
import { runPacedLoad } from '../paced-load.js';
import { median } from '../percentiles.js';
import { procCpuUs } from '../peers/peer.js';
import { readContextSwitches } from '../schedstat.js';
import { startPrivateRedis } from '../private-redis.js';
import { describeHost, hostRun, type HostRun } from '../host-run.js';
import { round } from '../results.js';
import { RESULTS_FILE, writeSection } from '../results-file.js';
import { MODEL, type RequestSpec } from '../scenarios.js';
import { Teardowns } from './fleet-accuracy.js';

/** Its sections of bench/RESULTS.md: one per mode, and one more per mode for autocannon's bursts. */
export const sectionOf = (o: Pick<ScalingOptions, 'ratePerInstance' | 'equalLoad' | 'sideBySide' | 'arrivals'>) =>
  (o.sideBySide ? 'scaling-side-by-side' : o.ratePerInstance ? (o.equalLoad ? 'scaling-equal-load' : 'scaling-rate-per-instance') : 'scaling') +
  (o.arrivals === 'bursts' ? '-bursts' : '');
/** CPU per request per instance with the most instances over that with the fewest: the target. */
export const CPU_GROWTH_LIMIT = 1.1;
const UPSTREAM_KEY = 'sk-scaling-upstream-0123456789abcdef';
/** The key's limit: never reached by the load, but set, so the shared limiter decides every request. */
const KEY_RPM = 100_000_000;

export interface ScalingOptions {
  /** Fleet sizes, measured one after another. */
  sizes: number[];
  seconds: number;
  /** Requests per second through HAProxy, the same for every size: below what one instance can take. */
  rate: number;
  /** The rate is per instance instead (×instances through HAProxy): each instance as busy whatever the size. */
  ratePerInstance: boolean;
  /** With ratePerInstance: companions make up the largest size's instances, so the machine is as loaded for every size. */
  equalLoad: boolean;
  /**
   * Every size's fleet runs at the same time as the others (stores of its own each, the same load per
   * instance), so all are measured on the machine as it is at that moment: a host that slows down mid-run
   * slows every size alike. Implies ratePerInstance.
   */
  sideBySide?: boolean;
  /**
   * How requests arrive: 'even', evenly spaced (open loop, `paced-load.ts`), as from many independent
   * clients; 'bursts', autocannon's rate limit, each connection's quota for the second sent back to back
   * at its start (one burst a second). Even when not given.
   */
  arrivals?: 'even' | 'bursts';
  /** Every size measured this many times in turn; the verdict is the median of the rounds' growths (1 when not given). */
  rounds?: number;
  connections: number;
  warmupSeconds: number;
  /** Without traffic, before the load: each instance's idle rates. */
  idleSeconds: number;
  /**
   * Waited before each reading: a usage flush (1 s) and PostgreSQL's statistics, which a backend that
   * goes idle reports up to 10 s later (PostgreSQL 15).
   */
  settleSeconds: number;
}

/**
 * A counter (CPU, transactions, commands) split in two: what the instances spend without traffic (key
 * polls, limiter heartbeats, timers: per instance and second, measured over an idle window just before
 * the load) and what each request adds on top; the raw figure is all of it over the requests.
 */
export interface Split {
  idlePerInstancePerSecond: number;
  perRequest: number;
  rawPerRequest: number;
}

export interface InstanceCost {
  name: string;
  requests: number;
  /** CPU µs. */
  cpu: Split;
}

export interface SizeResult {
  instances: number;
  /** Answered 200 / anything else, over the measured window. */
  ok: number;
  unexpected: number;
  /** What the unexpected were: the other statuses with their counts, and the requests that got no answer. */
  otherStatuses: Record<number, number>;
  errors: number;
  rps: number;
  p99Ms: number;
  perInstance: InstanceCost[];
  /** CPU µs of all instances together. */
  cpu: Split;
  /**
   * The instances' event loops going to sleep and being woken (voluntary context switches of their main
   * threads), and being preempted (involuntary): how many requests share a wake-up is much of what a
   * request costs.
   */
  wakeups: Split;
  preempted: Split;
  pgTransactions: Split;
  pgRowsInserted: Split;
  pgRowsUpdated: Split;
  /** As INFO commandstats counts them: a script's own commands included. */
  redisCommands: Split;
  /** EVALSHA / EVAL / FCALL calls: the round trips of the limiter's scripts. */
  redisScriptCalls: Split;
  /** Redis's own time in the scripts (commandstats usec of the script calls, their commands included), µs. */
  redisScriptUsec: Split;
  /** Raw calls per request of each command. */
  redisByCommand: Record<string, number>;
  usage: { rows: number; transactions: number; rowsPerTransaction: number; bytesPerRow: number };
}

export interface ScalingReport extends HostRun {
  options: ScalingOptions;
  sizes: SizeResult[];
  /** CPU per request per instance (what a request adds), most instances over fewest; null with one size. */
  cpuGrowth: number | null;
  /** The same with the idle cost spread over the requests. */
  rawCpuGrowth: number | null;
  /** Each round's two growths, in order (one round: the same as above). */
  roundGrowths: Array<{ cpu: number; raw: number }>;
}

function requestsFor(secret: string): RequestSpec[] {
  const headers = { authorization: `Bearer ${secret}`, 'content-type': 'application/json' };
  const messages = [{ role: 'user', content: 'how does it scale?' }];
  return [
    { method: 'POST', path: '/gateway/v1/messages', headers, body: JSON.stringify({ model: MODEL, max_tokens: 64, messages }) },
    { method: 'POST', path: '/gateway/openai/v1/chat/completions', headers, body: JSON.stringify({ model: MODEL, max_tokens: 64, messages }) },
  ];
}

function runCli(command: GatewayCommand, env: Record<string, string>, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(command.execPath, [...command.args, ...args], { env: { ...command.env, ...env } }, (err, stdout, stderr) =>
      err ? reject(new Error(`model-gateway ${args.slice(0, 2).join(' ')} failed: ${stderr}`)) : resolve(stdout.trim()),
    );
  });
}

function redisClient(url: string) {
  const client = createClient({ url });
  client.on('error', () => {});
  return client;
}
type RedisClient = ReturnType<typeof redisClient>;

/** Every counter the tool reads, flat: cpu:<instance>, sessions:<instance>, pg:<column>, redis:<command>, usage:<what>. */
type Counters = Record<string, number>;

const SCRIPT_COMMANDS = ['evalsha', 'eval', 'evalsha_ro', 'eval_ro', 'fcall', 'fcall_ro'];
/** Queries of the tool's own connection between two snapshots (the two of a snapshot): not the gateways'. */
const OWN_TRANSACTIONS_PER_SNAPSHOT = 2;

/** `cmdstat_evalsha:calls=12,usec=300,...` lines: calls and µs per command, INFO itself left out (it is the bench asking). */
export function commandCalls(info: string): Record<string, { calls: number; usec: number }> {
  const stats: Record<string, { calls: number; usec: number }> = {};
  for (const match of info.matchAll(/^cmdstat_([^:]+):calls=(\d+),usec=(\d+)/gm)) {
    if (match[1] !== 'info') stats[match[1]!] = { calls: Number(match[2]), usec: Number(match[3]) };
  }
  return stats;
}

async function snapshot(fleet: LocalFleet, db: pg.Client, redis: RedisClient): Promise<{ at: number; counters: Counters }> {
  const servers = await fleet.haproxy.servers();
  const [stats, usage, info] = await Promise.all([
    db.query<{ xact_commit: string; tup_inserted: string; tup_updated: string }>(
      'SELECT xact_commit, tup_inserted, tup_updated FROM pg_stat_database WHERE datname = current_database()',
    ),
    db.query<{ rows: string; transactions: string; bytes: string }>(
      `SELECT count(*) AS rows, count(DISTINCT xmin::text) AS transactions,
        (SELECT coalesce(sum(pg_total_relation_size(inhrelid)), 0) FROM pg_inherits WHERE inhparent = 'usage_records'::regclass) AS bytes
       FROM usage_records`,
    ),
    redis.info('commandstats'),
  ]);
  const counters: Counters = {};
  for (const inst of fleet.instances) {
    counters[`cpu:${inst.name}`] = procCpuUs(inst.pid!);
    const switches = readContextSwitches(inst.pid!);
    counters[`wakeups:${inst.name}`] = switches?.voluntary ?? NaN;
    counters[`preempted:${inst.name}`] = switches?.involuntary ?? NaN;
    counters[`sessions:${inst.name}`] = servers.find((x) => x.name === inst.name)?.sessions ?? 0;
  }
  for (const [column, value] of Object.entries(stats.rows[0]!)) counters[`pg:${column}`] = Number(value);
  for (const [command, { calls, usec }] of Object.entries(commandCalls(info))) {
    counters[`redis:${command}`] = calls;
    counters[`redis-usec:${command}`] = usec;
  }
  counters['usage:rows'] = Number(usage.rows[0]!.rows);
  counters['usage:transactions'] = Number(usage.rows[0]!.transactions);
  counters['usage:bytes'] = Number(usage.rows[0]!.bytes);
  return { at: performance.now(), counters };
}

/** Each counter's growth from `a` to `b` (a counter absent from `a` started at 0). */
export function growth(a: Counters, b: Counters): Counters {
  return Object.fromEntries(Object.entries(b).map(([k, v]) => [k, v - (a[k] ?? 0)]));
}

/** Splits a counter's growth under load into the idle rate (measured before) and what each request added. */
export function split(idle: number, idleSec: number, loaded: number, loadedSec: number, requests: number, instances: number): Split {
  const idlePerSecond = idle / idleSec;
  return {
    idlePerInstancePerSecond: round(idlePerSecond / instances, 3),
    perRequest: round((loaded - idlePerSecond * loadedSec) / requests, 4),
    rawPerRequest: round(loaded / requests, 4),
  };
}

const sumOf = (c: Counters, prefix: string, names?: readonly string[]) =>
  Object.entries(c).reduce((n, [k, v]) => (k.startsWith(prefix) && (names === undefined || names.includes(k.slice(prefix.length))) ? n + v : n), 0);

/** A fleet's own stores and key: a database, a Redis and a key of its own, so the counters read are that fleet's alone. */
interface Stores {
  env: Record<string, string>;
  secret: string;
  db: pg.Client;
  redis: RedisClient;
}

/** How a size's requests were answered: the 200s, and what the others were (statuses, no answer at all). */
export function answersOf(s: SizeResult): string {
  const others = Object.entries(s.otherStatuses).map(([status, n]) => `${n} × ${status}`);
  if (s.errors > 0) others.push(`${s.errors} without an answer`);
  return `${s.ok} answered 200, ${s.unexpected} not${others.length > 0 ? ` (${others.join(', ')})` : ''}`;
}

/** A fleet to run in one measurement: counted, or a companion that only loads the machine. */
interface FleetRun {
  instances: number;
  stores: Stores;
  counted: boolean;
}

/**
 * Starts the fleets, loads them all together (each at its own rate), and reads each counted fleet's
 * counters over the same idle and loaded windows: what one fleet costs next to what the others cost, on
 * the machine as it was at that moment.
 */
async function measureFleets(runs: FleetRun[], opts: ScalingOptions, command: GatewayCommand): Promise<SizeResult[]> {
  const fleets: LocalFleet[] = [];
  try {
    // Started together, so that what every process does at a fixed time after its start (V8's memory
    // reducer collects the heap about 15-20 s after start-up, 0.1-0.25 s of CPU) falls in the same window
    // for every fleet rather than in one fleet's idle reading alone.
    const started = await Promise.allSettled(runs.map((run) => startLocalFleet({ instances: run.instances, command, env: run.stores.env, startTimeoutMs: 180_000 })));
    for (const s of started) if (s.status === 'fulfilled') fleets.push(s.value);
    const failed = started.find((s) => s.status === 'rejected');
    if (failed !== undefined) throw (failed as PromiseRejectedResult).reason;
    // Per instance, the rate and (so that each sees requests come as a lone one would) the connections.
    const loadFor = (n: number) => (opts.ratePerInstance ? { overallRate: opts.rate * n, connections: opts.connections * n } : { overallRate: opts.rate, connections: opts.connections });
    const loadOne = (run: FleetRun, url: string, durationSec: number) => {
      const { overallRate, connections } = loadFor(run.instances);
      const spec = { url, durationSec, connections, requests: requestsFor(run.stores.secret), expectStatus: 200 };
      return opts.arrivals === 'bursts' ? runLoad({ ...spec, overallRate }) : runPacedLoad({ ...spec, rate: overallRate });
    };
    const load = (durationSec: number) => Promise.all(runs.map((run, i) => loadOne(run, fleets[i]!.url, durationSec)));
    const counted = [...runs.keys()].filter((i) => runs[i]!.counted);
    const snapshots = () => Promise.all(counted.map((i) => snapshot(fleets[i]!, runs[i]!.stores.db, runs[i]!.stores.redis)));
    // Connections, JIT, the key cache and the limiter's scripts warm before anything counts.
    if (opts.warmupSeconds > 0) await load(opts.warmupSeconds);
    const wait = (seconds: number) => new Promise((r) => setTimeout(r, seconds * 1000));
    await wait(opts.settleSeconds);
    const idleFrom = await snapshots();
    await wait(opts.idleSeconds);
    const before = await snapshots();
    const results = await load(opts.seconds);
    await wait(opts.settleSeconds);
    const after = await snapshots();
    return counted.map((i, c) => sizeResult(fleets[i]!, results[i]!, idleFrom[c]!, before[c]!, after[c]!));
  } finally {
    await Promise.all(fleets.map((f) => f.stop()));
  }
}

type Snapshot = Awaited<ReturnType<typeof snapshot>>;

/** One fleet's numbers from its three snapshots: idle from the first to the second, loaded from the second to the third. */
function sizeResult(fleet: LocalFleet, result: Awaited<ReturnType<typeof runLoad>>, idleFrom: Snapshot, before: Snapshot, after: Snapshot): SizeResult {
  const instances = fleet.instances.length;
  const idle = growth(idleFrom.counters, before.counters);
  const loaded = growth(before.counters, after.counters);
  for (const d of [idle, loaded]) d['pg:xact_commit']! -= OWN_TRANSACTIONS_PER_SNAPSHOT;
  const idleSec = (before.at - idleFrom.at) / 1000;
  const loadedSec = (after.at - before.at) / 1000;
  const answered = sumOf(loaded, 'sessions:');
  const splitOf = (pick: (c: Counters) => number, n = instances, req = answered) => split(pick(idle), idleSec, pick(loaded), loadedSec, req, n);
  const perInstance = fleet.instances.map((inst) => {
    const served = loaded[`sessions:${inst.name}`]!;
    return { name: inst.name, requests: served, cpu: splitOf((c) => c[`cpu:${inst.name}`]!, 1, served) };
  });
  const redisByCommand: Record<string, number> = {};
  for (const [k, v] of Object.entries(loaded)) if (k.startsWith('redis:') && v > 0) redisByCommand[k.slice(6)] = round(v / answered, 3);
  const usageRows = loaded['usage:rows']!;
  const usageTransactions = loaded['usage:transactions']!;
  return {
    instances,
    ok: result.ok,
    unexpected: result.unexpected,
    otherStatuses: result.otherStatuses,
    errors: result.errors,
    rps: round(result.rps, 0),
    p99Ms: round(result.latencyMs.summary().p99, 1),
    perInstance,
    cpu: splitOf((c) => sumOf(c, 'cpu:')),
    wakeups: splitOf((c) => sumOf(c, 'wakeups:')),
    preempted: splitOf((c) => sumOf(c, 'preempted:')),
    pgTransactions: splitOf((c) => c['pg:xact_commit']!),
    pgRowsInserted: splitOf((c) => c['pg:tup_inserted']!),
    pgRowsUpdated: splitOf((c) => c['pg:tup_updated']!),
    redisCommands: splitOf((c) => sumOf(c, 'redis:')),
    redisScriptCalls: splitOf((c) => sumOf(c, 'redis:', SCRIPT_COMMANDS)),
    redisScriptUsec: splitOf((c) => sumOf(c, 'redis-usec:', SCRIPT_COMMANDS)),
    redisByCommand,
    usage: { rows: usageRows, transactions: usageTransactions, rowsPerTransaction: round(usageTransactions > 0 ? usageRows / usageTransactions : NaN, 1),
      // On disk, table and indexes: what a month of rows costs (pages fill as rows come, so a short run reads a little high).
      bytesPerRow: round(after.counters['usage:bytes']! / after.counters['usage:rows']!, 0),
    },
  };
}

export async function runScaling(opts: ScalingOptions, log: (line: string) => void = () => {}): Promise<ScalingReport> {
  requireHaproxy();
  const host = hostRun();
  const teardowns = new Teardowns();
  try {
    const simulator = await startSimulator({ port: 0, host: '127.0.0.1', apiKey: UPSTREAM_KEY });
    teardowns.teardown(() => simulator.close());
    const baseEnv: Record<string, string> = {
      PATH: process.env.PATH ?? '',
      GATEWAY_ADMIN_TOKEN: `mgwadm_scaling_${randomBytes(16).toString('hex')}`,
      ANTHROPIC_BASE_URL: simulator.url,
      ANTHROPIC_API_KEY: UPSTREAM_KEY,
      // The access log is part of a request's cost in production: kept.
      LOG_LEVEL: 'info',
    };
    const command = gatewayCommand();
    const storesFor = async (customer: string): Promise<Stores> => {
      const redisServer = await startPrivateRedis();
      teardowns.teardown(() => redisServer.stop());
      const env = { ...baseEnv, DATABASE_URL: await createTestDatabase(teardowns), REDIS_URL: redisServer.url };
      const secret = await runCli(command, env, ['keys', 'create', '--customer', customer, '--rpm', String(KEY_RPM)]);
      const db = new pg.Client({ connectionString: env.DATABASE_URL });
      await db.connect();
      teardowns.teardown(() => db.end());
      const redis = redisClient(redisServer.url);
      await redis.connect();
      teardowns.teardown(() => redis.quit());
      return { env, secret, db, redis };
    };

    const most = Math.max(...opts.sizes);
    const sideBySide = opts.sideBySide === true;
    if (sideBySide) opts = { ...opts, ratePerInstance: true, equalLoad: false };
    // Side by side, every size has stores of its own (they run at once); in turn, one set serves every size.
    const stores = sideBySide ? await Promise.all(opts.sizes.map((n) => storesFor(`scaling-${n}`))) : [await storesFor('scaling')];
    const companions = !sideBySide && opts.ratePerInstance && opts.equalLoad ? await storesFor('companion') : null;
    const rounds: SizeResult[][] = [];
    for (let r = 0; r < (opts.rounds ?? 1); r++) {
      let sizes: SizeResult[];
      if (sideBySide) {
        log(`round ${r + 1}: fleets of ${opts.sizes.join(' and ')} side by side, ${opts.rate} requests/s per instance for ${opts.seconds} s`);
        sizes = await measureFleets(opts.sizes.map((instances, i) => ({ instances, stores: stores[i]!, counted: true })), opts, command);
      } else {
        sizes = [];
        for (const instances of opts.sizes) {
          log(`round ${r + 1}, ${instances} instance(s): ${opts.rate} requests/s${opts.ratePerInstance ? ' per instance' : ''} for ${opts.seconds} s${companions ? `, ${most - instances} companion(s) beside` : ''}`);
          const beside = companions && most > instances ? [{ instances: most - instances, stores: companions, counted: false }] : [];
          sizes.push(...(await measureFleets([{ instances, stores: stores[0]!, counted: true }, ...beside], opts, command)));
        }
      }
      for (const result of sizes) {
        log(`${result.instances} instance(s): ${result.cpu.perRequest} µs CPU per request (${result.cpu.rawPerRequest} with the idle cost, ${result.wakeups.rawPerRequest} wake-ups; idle ${result.perInstance.map((p) => round(p.cpu.idlePerInstancePerSecond / 1000, 1)).join(', ')} ms/s), ${result.redisCommands.perRequest} Redis commands and ${result.pgTransactions.perRequest} PostgreSQL transactions per request`);
      }
      rounds.push(sizes);
    }
    const growthOf = (sizes: SizeResult[]) => {
      const first = sizes[0]!;
      const last = sizes[sizes.length - 1]!;
      return { cpu: round(last.cpu.perRequest / first.cpu.perRequest, 3), raw: round(last.cpu.rawPerRequest / first.cpu.rawPerRequest, 3) };
    };
    const compared = opts.sizes.length > 1;
    const roundGrowths = compared ? rounds.map(growthOf) : [];
    // The table shows the round whose growth is the median, so the verdict and the table agree.
    const byGrowth = compared ? [...rounds.keys()].sort((a, b) => roundGrowths[a]!.cpu - roundGrowths[b]!.cpu) : [rounds.length - 1];
    const shown = rounds[byGrowth[Math.floor((byGrowth.length - 1) / 2)]!]!;
    return {
      ...host(),
      options: opts,
      sizes: shown,
      cpuGrowth: compared ? round(median(roundGrowths.map((g) => g.cpu)), 3) : null,
      rawCpuGrowth: compared ? round(median(roundGrowths.map((g) => g.raw)), 3) : null,
      roundGrowths,
    };
  } finally {
    await teardowns.run();
  }
}

const cell = (x: Split) => `${x.perRequest} (${x.rawPerRequest})`;

/** The markdown of the tool's section of bench/RESULTS.md. */
export function formatScaling(r: ScalingReport): string {
  const { seconds, rate, connections } = r.options;
  const rows = r.sizes.map((s) =>
    [
      s.instances,
      `${s.rps} (${s.unexpected} not 200)`,
      s.p99Ms,
      s.perInstance.map((p) => `${Math.round(p.cpu.perRequest)} (${Math.round(p.cpu.rawPerRequest)}), ${p.requests} req`).join(' · '),
      `${Math.round(s.cpu.perRequest)} (${Math.round(s.cpu.rawPerRequest)})`,
      cell(s.wakeups),
      cell(s.preempted),
      cell(s.pgTransactions),
      cell(s.pgRowsInserted),
      cell(s.pgRowsUpdated),
      cell(s.redisCommands),
      cell(s.redisScriptCalls),
      cell(s.redisScriptUsec),
      `${s.usage.rowsPerTransaction} (${s.usage.rows} / ${s.usage.transactions})`,
      s.usage.bytesPerRow,
    ].join(' | '),
  );
  const idle = r.sizes.map(
    (s) =>
      `${s.instances} instance(s), each without traffic: ${round(s.cpu.idlePerInstancePerSecond / 1000, 1)} ms CPU/s, ` +
      `${s.pgTransactions.idlePerInstancePerSecond} PostgreSQL transactions/s, ${s.redisCommands.idlePerInstancePerSecond} Redis commands/s. ` +
      `Redis calls per request by command: ${Object.entries(s.redisByCommand).map(([c, n]) => `${c} ${n}`).join(', ')}.`,
  );
  const verdict = (g: number | null) => (g === null ? 'n/a' : `**${g}** (target ≤ ${CPU_GROWTH_LIMIT}: ${g <= CPU_GROWTH_LIMIT ? 'met' : 'NOT met'})`);
  const growth =
    r.cpuGrowth === null
      ? 'One fleet size only: no comparison.'
      : `CPU per request per instance, ${r.sizes[r.sizes.length - 1]!.instances} instances over ${r.sizes[0]!.instances}: what a request adds ${verdict(r.cpuGrowth)}; ` +
        `with the idle cost spread over the requests ${r.rawCpuGrowth} (each instance's idle cost is per second, not per request: at a fixed rate more instances carry more of it).` +
        (r.roundGrowths.length > 1
          ? ` Medians of ${r.roundGrowths.length} rounds (each size measured once a round, ${r.options.sideBySide ? 'all at once' : 'in turn'}): ${r.roundGrowths.map((g) => g.cpu).join(', ')} (${r.roundGrowths.map((g) => g.raw).join(', ')} with the idle cost); the table is the median round's.`
          : '') +
        (r.options.ratePerInstance
          ? ''
          : ' With the same load in all, each instance is as many times less busy as there are instances, and a less busy Node process spends more CPU per request' +
            ' (fewer requests share each wake-up of its event loop): `--rate-per-instance` compares instances equally busy.');
  return [
    `## How the fleet scales: per-request costs with ${r.sizes.map((s) => s.instances).join(' and ')} instances, ${r.options.sideBySide ? 'the fleets side by side, the same load per instance' : r.options.ratePerInstance ? `the same load per instance${r.options.equalLoad ? ', the machine equally loaded' : ''}` : 'the same load in all'} (\`tools/scaling.ts\`)`,
    '',
    describeHost(r, ' shared with the load, HAProxy and the simulator'),
    `${rate} requests/s ${r.options.ratePerInstance ? 'per instance (times the instances through HAProxy)' : 'in all (whatever the instances)'} for ${seconds} s over ${connections} connections${r.options.ratePerInstance ? ' per instance' : ''} through HAProxy,`,
    r.options.arrivals === 'bursts'
      ? "arriving in bursts (autocannon's rate limit: each connection sends its quota for the second back to back, then waits for the next second),"
      : 'arriving evenly spaced (open loop, `paced-load.ts`: as from many independent clients),',
    'messages and chat in turn, not streamed, one key with an rpm limit so the limiter is on every request (Redis, or a lease the instance holds),',
    "to `serve` instances on one PostgreSQL database and a redis-server of the run's own, access log on. CPU: /proc/<pid>/stat of each instance (all threads) over the requests HAProxy sent it;",
    ...(r.options.sideBySide
      ? [
          `the fleets run at the same time (${r.sizes.reduce((n, s) => n + s.instances, 0)} instances in all), each with a database, a Redis, a key and an HAProxy of its own, and are measured over the same windows, so a host that slows down slows every size alike;`,
        ]
      : []),
    ...(r.options.equalLoad
      ? [
          `beside a smaller fleet, companions (${Math.max(...r.sizes.map((s) => s.instances))} instances in all, the same load each, with a database, a Redis, a key and an HAProxy of their own; not counted), so the machine is as loaded for every size;`,
        ]
      : []),
    "PostgreSQL: pg_stat_database deltas of the run's database (transactions committed, reads included; rows inserted and updated; pg_stat_statements is not loaded here); Redis: INFO commandstats deltas",
    '(the commands a script runs are counted as well as the script call); usage rows per write transaction: rows over distinct inserting transactions (xmin) in usage_records;',
    'event-loop wake-ups and preemptions: voluntary and involuntary context switches of each instance\'s main thread (/proc/<pid>/status): the fewer requests share a wake-up, the more each costs.',
    `Each cell: what one request adds, the idle rate of every instance (measured for ${r.options.idleSeconds} s before the load) taken out; in brackets, everything over the requests.`,
    '',
    '| instances | requests/s (errors) | p99 ms | CPU µs/request, each instance | CPU µs/request, all | event-loop wake-ups/request | preemptions/request | PG transactions/request | PG rows inserted/request | PG rows updated/request | Redis commands/request | Redis script calls/request | Redis µs in scripts/request | usage rows per transaction (rows / transactions) | usage bytes per row on disk |',
    '|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|',
    ...rows.map((row) => `| ${row} |`),
    '',
    ...idle,
    '',
    growth,
  ].join('\n');
}

function arrivalsOf(value: string): 'even' | 'bursts' {
  if (value === 'even' || value === 'bursts') return value;
  throw new Error(`--arrivals is even or bursts, got "${value}"`);
}

if (/bench\/tools\/scaling\.(js|ts)$/.test(process.argv[1] ?? '')) {
  const { values } = parseArgs({
    options: {
      sizes: { type: 'string', default: '1,3' },
      seconds: { type: 'string', default: '20' },
      rate: { type: 'string', default: '200' },
      connections: { type: 'string', default: '16' },
      warmup: { type: 'string', default: '3' },
      idle: { type: 'string', default: '10' },
      settle: { type: 'string', default: '11' },
      'results-file': { type: 'string' },
      'rate-per-instance': { type: 'boolean', default: false },
      'equal-load': { type: 'boolean', default: false },
      'side-by-side': { type: 'boolean', default: false },
      rounds: { type: 'string', default: '1' },
      arrivals: { type: 'string', default: 'even' },
      'no-write': { type: 'boolean', default: false },
    },
  });
  const report = await runScaling(
    {
      sizes: values.sizes.split(',').map(Number),
      seconds: Number(values.seconds),
      rate: Number(values.rate),
      ratePerInstance: values['rate-per-instance'],
      equalLoad: values['equal-load'],
      sideBySide: values['side-by-side'],
      rounds: Number(values.rounds),
      arrivals: arrivalsOf(values.arrivals),
      connections: Number(values.connections),
      warmupSeconds: Number(values.warmup),
      idleSeconds: Number(values.idle),
      settleSeconds: Number(values.settle),
    },
    (line) => process.stderr.write(`[scaling] ${line}\n`),
  );
  const section = formatScaling(report);
  console.log(section);
  if (!values['no-write']) writeSection(values['results-file'] ?? RESULTS_FILE, sectionOf(report.options), section);
}
