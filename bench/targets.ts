// Starts the three processes under measurement and names the three ways to reach the simulator:
// directly, through the bare pass-through, and through the gateway.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'undici';
import type { ChildHandle } from './processes.js';
import { startChild } from './processes.js';
import { gatherProfiles, profileFlags } from './profiles.js';
import type { RequestSpec, Scenario } from './scenarios.js';

export type TargetName = 'direct' | 'passthrough' | 'gateway';
export const TARGETS: readonly TargetName[] = ['direct', 'passthrough', 'gateway'];

export const UPSTREAM_KEY = 'sk-bench-upstream-0123456789abcdef';
/** Upstream connections for the pass-through and the gateway: enough to hold every open stream. */
const UPSTREAM_CONNECTIONS = 4096;
/** Long enough for the 200-token streams; short non-streamed replies stop at max_tokens. */
const REPLY_TOKENS = 200;

export interface Processes {
  readonly simulator: ChildHandle;
  readonly passthrough: ChildHandle;
  readonly gateway: ChildHandle;
  readonly gatewayKey: string;
  /** Another gateway on the same database (so the same key works), with extra settings. */
  startGateway(env: Record<string, string>): Promise<ChildHandle>;
  close(): Promise<void>;
}

export interface ProcessOptions {
  logLevel: string;
  gatewayEnv: Record<string, string>;
  /** When set, the gateway and the pass-through write V8 CPU profiles here (gateway-<time>.cpuprofile …, bench/profiles.ts). */
  profileDir: string | null;
  /** Set in all three processes' environments (e.g. the bench's own switches; not gateway settings). */
  childEnv?: Record<string, string>;
  /** A file descriptor the gateway's log (stdout) goes to; by default nowhere. */
  gatewayStdout?: number;
  /** Node flags for the gateway after `npm start`'s (a later V8 flag wins: NODE_OPTIONS would not). */
  gatewayNodeFlags?: string[];
}

export async function startProcesses(opts: ProcessOptions): Promise<Processes> {
  const dataDir = mkdtempSync(join(tmpdir(), 'mgw-bench-'));
  const started: ChildHandle[] = [];
  const close = async () => {
    await Promise.all(started.map((c) => c.stop()));
    rmSync(dataDir, { recursive: true, force: true });
    // The processes wrote their profiles as they exited.
    if (opts.profileDir !== null && existsSync(opts.profileDir)) gatherProfiles(opts.profileDir);
  };
  try {
    const env = opts.childEnv;
    const simulator = await startChild('simulator', { args: { apiKey: UPSTREAM_KEY, replyTokens: REPLY_TOKENS }, env });
    started.push(simulator);
    const [passthrough, gateway] = await Promise.all([
      startChild('passthrough', { args: { upstream: simulator.url, connections: UPSTREAM_CONNECTIONS }, env, nodeFlags: profileFlagsOf(opts, 'passthrough') }),
      startChild('gateway', { env: { ...env, ...gatewayEnv(simulator.url, dataDir, opts) }, nodeFlags: [...profileFlagsOf(opts, 'gateway'), ...(opts.gatewayNodeFlags ?? [])], stdout: opts.gatewayStdout }),
    ]);
    started.push(passthrough, gateway);
    await waitReady(gateway.url, '/readyz');
    if (gateway.key === undefined) throw new Error('the gateway child sent no key');
    const startGateway = async (env: Record<string, string>) => {
      const extra = await startChild('gateway', { env: { ...gatewayEnv(simulator.url, dataDir, opts), ...env } });
      started.push(extra);
      await waitReady(extra.url, '/readyz');
      return extra;
    };
    return { simulator, passthrough, gateway, gatewayKey: gateway.key, startGateway, close };
  } catch (err) {
    await close();
    throw err;
  }
}

function profileFlagsOf(opts: ProcessOptions, name: string): string[] {
  return opts.profileDir === null ? [] : profileFlags(opts.profileDir, name);
}

export function gatewayEnv(upstream: string, dataDir: string, opts: ProcessOptions): Record<string, string> {
  return {
    DATABASE_URL: `file:${join(dataDir, 'gateway.db')}`,
    GATEWAY_DATA_DIR: dataDir,
    ANTHROPIC_BASE_URL: upstream,
    ANTHROPIC_API_KEY: UPSTREAM_KEY,
    GATEWAY_ADMIN_TOKEN: 'mgwadm_bench_admin_token_0123456789',
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: opts.logLevel,
    GATEWAY_UPSTREAM_CONNECTIONS: String(UPSTREAM_CONNECTIONS),
    // One address floods bad keys in the auth-rejected scenario: measure the 401 path, not the
    // per-address throttle's 429 (which is cheaper still).
    GATEWAY_AUTH_FAILURES_PER_MINUTE: '0',
    ...opts.gatewayEnv,
  };
}

/** Polls until the path answers 200 (the gateway's /readyz: database open, not draining). */
async function waitReady(url: string, path: string, timeoutMs = 30_000): Promise<void> {
  const client = new Client(url);
  const deadline = Date.now() + timeoutMs;
  try {
    for (;;) {
      try {
        const res = await client.request({ method: 'GET', path });
        await res.body.dump();
        if (res.statusCode === 200) return;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new Error(`${url}${path} was not ready within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    await client.close();
  }
}

/** Where load goes: the process answering (null for the simulator itself) and which requests it speaks. */
export interface Endpoint {
  url: string;
  proxy: ChildHandle | null;
  kind: TargetName;
}

export function targetOf(p: Processes, name: TargetName): Endpoint {
  if (name === 'direct') return { url: p.simulator.url, proxy: null, kind: name };
  const proxy = name === 'passthrough' ? p.passthrough : p.gateway;
  return { url: proxy.url, proxy, kind: name };
}

export function requestFor(scenario: Scenario, name: TargetName, mixIn = false): RequestSpec {
  const pair = mixIn ? scenario.mixIn! : scenario;
  return name === 'gateway' ? pair.gateway : pair.direct;
}
