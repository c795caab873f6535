// The two routing runs of issue 31's performance goals, on simulated accounts with a stepped clock
// (the gateway's wall clock and every simulator's move together), so minutes of offered load take
// seconds and the result is the same on every machine:
//
// - capacity: accounts of a given rpm each, offered a steady rate for some minutes, one request at
//   a time at its moment: how many the client saw served, refused (429) or failed;
// - cache: sessions (metadata.user_id) each with a prompt of its own under a cache_control
//   breakpoint, over accounts whose prompt cache is per account: the share of input read from cache.
//
// Used by bench/tools/routes.ts (the report) and test/integration/routes/route-runs.test.ts (short runs).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulator, type Simulator } from '../../../src/apps/simulator/index.js';
import { startHarness, type Harness } from '../../../test/helpers/harness.js';
import { bearer, call } from '../../../test/helpers/http.js';

export const ROUTED_MODEL = 'claude-sonnet-4-6';

/** A clock that moves only when told: the gateway's and the simulators' time. */
export class SteppedClock {
  private readonly base = Date.now();
  private offsetMs = 0;
  readonly now = (): number => this.base + this.offsetMs;
  /** Sets the time to `ms` after the start (never backwards). */
  at(ms: number): void {
    this.offsetMs = Math.max(this.offsetMs, ms);
  }
}

export interface RoutedGateway {
  readonly h: Harness;
  readonly key: string;
  readonly sims: readonly Simulator[];
  close(): Promise<void>;
}

/** A gateway whose one model has a route on each of `accounts` simulated accounts (each its own simulator). */
export async function startRoutedGateway(accounts: number, opts: { rpmEach?: number; clock?: SteppedClock }): Promise<RoutedGateway> {
  const sims: Simulator[] = [];
  const env: Record<string, string> = {};
  const providers: unknown[] = [];
  for (let i = 0; i < accounts; i++) {
    const id = `account-${i + 1}`;
    const apiKey = `sk-bench-${id}-0123456789abcdef`;
    const limits = opts.rpmEach === undefined ? undefined : { requestsPerMinute: opts.rpmEach };
    const sim = await startSimulator({ port: 0, host: '127.0.0.1', accounts: [{ id, apiKey, limits }], ...(opts.clock === undefined ? {} : { now: opts.clock.now }) });
    sims.push(sim);
    env[`BENCH_ROUTE_KEY_${i + 1}`] = apiKey;
    providers.push({ id, type: 'anthropic', baseUrl: sim.url, apiKeyEnv: `BENCH_ROUTE_KEY_${i + 1}` });
  }
  const dir = mkdtempSync(join(tmpdir(), 'mgw-route-runs-'));
  writeFileSync(join(dir, 'models.json'), JSON.stringify({ providers, models: [{ id: ROUTED_MODEL, routes: providers.map((p) => ({ provider: (p as { id: string }).id })) }] }));
  const h = await startHarness({ env: { ...env, GATEWAY_MODELS_FILE: join(dir, 'models.json') }, ...(opts.clock === undefined ? {} : { wallClock: opts.clock.now }) });
  const key = (await h.createKey()).key;
  return {
    h,
    key,
    sims,
    async close() {
      await h.close();
      await Promise.all(sims.map((s) => s.close()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface CapacityResult {
  accounts: number;
  rpmEach: number;
  offeredRpm: number;
  minutes: number;
  offered: number;
  served: number;
  /** 429s the client saw. */
  refused: number;
  /** Any other answer that was not a 200. */
  failed: number;
  /** 429s the accounts answered (each failed over or refused). */
  upstream429: number;
}

/** `offeredRpm` for `minutes` of simulated time, each request at its moment, one at a time. */
export async function runCapacity(opts: { accounts: number; rpmEach: number; offeredRpm: number; minutes: number }): Promise<CapacityResult> {
  const clock = new SteppedClock();
  const g = await startRoutedGateway(opts.accounts, { rpmEach: opts.rpmEach, clock });
  const body = JSON.stringify({ model: ROUTED_MODEL, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] });
  const offered = Math.round(opts.offeredRpm * opts.minutes);
  const result: CapacityResult = { ...opts, offered, served: 0, refused: 0, failed: 0, upstream429: 0 };
  try {
    for (let i = 0; i < offered; i++) {
      clock.at((i * 60_000) / opts.offeredRpm);
      const { status } = await call(`${g.h.url}/gateway/v1/messages`, { body, headers: bearer(g.key) });
      if (status === 200) result.served++;
      else if (status === 429) result.refused++;
      else result.failed++;
    }
    const metrics = (await g.h.runtime.metrics.render()).body;
    for (const line of metrics.split('\n')) if (line.startsWith('model_gateway_route_attempts_total{') && line.includes('outcome="rate_limited"')) result.upstream429 += Number(line.slice(line.lastIndexOf(' ') + 1));
  } finally {
    await g.close();
  }
  return result;
}

export interface CacheResult {
  accounts: number;
  sessions: number;
  requestsPerSession: number;
  inputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  /** Cache reads as a share of all input (uncached + reads + writes). */
  readShare: number;
}

/** A prompt of its own per session, long enough that its cached part dominates the input. */
function sessionBody(session: number, turn: number): string {
  const system = [{ type: 'text', text: `You are the assistant of session ${session}. ${'Background the model keeps reading. '.repeat(200)}`, cache_control: { type: 'ephemeral' } }];
  return JSON.stringify({ model: ROUTED_MODEL, max_tokens: 16, system, metadata: { user_id: `session-${session}` }, messages: [{ role: 'user', content: `turn ${turn}` }] });
}

/** Every session's requests interleaved (turn by turn), as concurrent users would send them. */
export async function runCacheShare(opts: { accounts: number; sessions: number; requestsPerSession: number }): Promise<CacheResult> {
  const g = await startRoutedGateway(opts.accounts, {});
  const result: CacheResult = { ...opts, inputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, readShare: 0 };
  try {
    for (let turn = 0; turn < opts.requestsPerSession; turn++) {
      for (let s = 0; s < opts.sessions; s++) {
        const res = await call(`${g.h.url}/gateway/v1/messages`, { body: sessionBody(s, turn), headers: bearer(g.key) });
        if (res.status !== 200) throw new Error(`session ${s} turn ${turn}: ${res.status} ${res.text}`);
        const usage = res.json().usage as { input_tokens: number; cache_read_input_tokens?: number; cache_creation_input_tokens?: number };
        result.inputTokens += usage.input_tokens;
        result.cacheReadTokens += usage.cache_read_input_tokens ?? 0;
        result.cacheWriteTokens += usage.cache_creation_input_tokens ?? 0;
      }
    }
  } finally {
    await g.close();
  }
  result.readShare = result.cacheReadTokens / (result.inputTokens + result.cacheReadTokens + result.cacheWriteTokens);
  return result;
}
