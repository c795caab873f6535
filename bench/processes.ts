// Starts the bench's child processes (simulator, pass-through, gateway), each in its own process so
// the load generator, the upstream and the proxy under test never share an event loop.
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Pause } from './gc-pauses.js';
import type { ChildCommand, ChildReply, ProcessStats, SimulatorSettings } from './ipc.js';
import { SERVE_NODE_FLAGS } from '../src/apps/serve/node-flags.js';

export type ChildName = 'simulator' | 'passthrough' | 'gateway';

export interface ChildOptions {
  /** JSON-encoded as the child's one argument. */
  args?: unknown;
  env?: Record<string, string>;
  /** Extra node flags, e.g. --cpu-prof. */
  nodeFlags?: string[];
  readyTimeoutMs?: number;
  /** A file descriptor for the child's stdout (the gateway's log); by default it goes nowhere. */
  stdout?: number;
}

export interface ChildHandle {
  readonly name: ChildName;
  readonly url: string;
  /** The gateway's bench key. */
  readonly key: string | undefined;
  readonly pid: number;
  reset(): Promise<void>;
  stats(): Promise<ProcessStats>;
  gc(): Promise<ProcessStats>;
  /** Its main thread's GC pauses since the last ask; empty unless it was started recording them. */
  gcPauses(): Promise<Pause[]>;
  /** Simulator only. */
  configure(settings: SimulatorSettings): Promise<void>;
  stop(): Promise<void>;
}

// Children are compiled next to this file: .js after `tsc`, .ts under the test runner's loader.
const EXT = extname(fileURLToPath(import.meta.url));

export async function startChild(name: ChildName, opts: ChildOptions = {}): Promise<ChildHandle> {
  const file = fileURLToPath(new URL(`./children/${name}${EXT}`, import.meta.url));
  // The proxies under test run as `npm start` runs the gateway (src/apps/serve/node-flags.ts); the simulator as node does.
  const served = name === 'simulator' ? [] : SERVE_NODE_FLAGS;
  const child = fork(file, [JSON.stringify(opts.args ?? {})], {
    env: { ...inheritedEnv(), ...opts.env, NODE_ENV: 'benchmark' },
    execArgv: [...process.execArgv, '--expose-gc', ...served, ...(opts.nodeFlags ?? [])],
    // The gateway's access log goes nowhere but is still produced: its cost is part of the number.
    stdio: ['ignore', opts.stdout ?? 'ignore', 'inherit', 'ipc'],
  });
  const ready = await waitReady(child, name, opts.readyTimeoutMs ?? 60_000);
  return handleFor(name, child, ready);
}

// The gateway's own settings never leak in from the shell that runs the bench; the rest (PATH, the
// test runner's TypeScript loader settings) does.
const GATEWAY_SETTINGS = /^(ANTHROPIC_|GATEWAY_|DATABASE_URL$|REDIS_URL$|PORT$|HOST$|LOG_LEVEL$)/;

function inheritedEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) if (value !== undefined && !GATEWAY_SETTINGS.test(name)) env[name] = value;
  return env;
}

function waitReady(child: ChildProcess, name: ChildName, timeoutMs: number): Promise<{ url: string; key?: string }> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`${name} did not start within ${timeoutMs} ms`)), timeoutMs);
    const onMessage = (raw: unknown) => {
      const msg = raw as ChildReply;
      if (msg.type === 'ready') done(() => resolve({ url: msg.url, key: msg.key }));
      else if (msg.type === 'failed') fail(new Error(`${name} failed to start: ${msg.message}`));
    };
    const onExit = (code: number | null) => fail(new Error(`${name} exited with code ${code} before it was ready`));
    const done = (then: () => void) => {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
      then();
    };
    const fail = (err: Error) => {
      done(() => reject(err));
      child.kill();
    };
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

function handleFor(name: ChildName, child: ChildProcess, ready: { url: string; key?: string }): ChildHandle {
  let nextId = 1;
  type Reply = Extract<ChildReply, { type: 'reply' }>;
  const pending = new Map<number, (reply: Reply) => void>();
  child.on('message', (raw: unknown) => {
    const msg = raw as ChildReply;
    if (msg.type !== 'reply') return;
    pending.get(msg.id)?.(msg);
    pending.delete(msg.id);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ask = (command: Omit<ChildCommand, 'id'>): Promise<Reply> =>
    new Promise((resolve, reject) => {
      if (!child.connected) return reject(new Error(`${name} is not running`));
      const id = nextId++;
      pending.set(id, resolve);
      child.send({ ...command, id } as ChildCommand);
    });
  const statsOf = async (command: Omit<ChildCommand, 'id'>) => {
    const { stats } = await ask(command);
    if (stats === null) throw new Error(`${name} sent no stats`);
    return stats;
  };
  return {
    name,
    url: ready.url,
    key: ready.key,
    pid: child.pid ?? 0,
    reset: async () => void (await ask({ op: 'reset' })),
    stats: () => statsOf({ op: 'stats' }),
    gc: () => statsOf({ op: 'gc' }),
    gcPauses: async () => (await ask({ op: 'gcPauses' })).pauses ?? [],
    configure: async (settings) => void (await ask({ op: 'configure', settings } as Omit<ChildCommand, 'id'>)),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      // Closing the channel asks the child to shut down cleanly (and write its CPU profile if any).
      child.disconnect();
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
