// N gateway instances on this machine behind one HAProxy: what `npm run fleet` runs and what the fault
// drills (test/fleet/) exercise. The instances share whatever DATABASE_URL and REDIS_URL the caller's
// environment names; each keeps one port for its whole life, so a restarted one comes back where
// HAProxy looks for it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.js';
import { GatewayProcess, type GatewayCommand } from './gateway-process.js';
import { startHaproxy, type RunningHaproxy } from './haproxy.js';
import { DEFAULT_CHECK, drainDelayFor, type HealthCheck } from './haproxy-config.js';

const INSTANCE_HOST = '127.0.0.1';

export interface LocalFleetOptions {
  readonly instances: number;
  readonly command: GatewayCommand;
  /** Every instance's environment (PORT and HOST are the fleet's). */
  readonly env: Readonly<Record<string, string>>;
  /** Where HAProxy listens; port 0 picks a free one. */
  readonly bindHost?: string;
  readonly bindPort?: number;
  readonly check?: HealthCheck;
  /** Instances in their own process groups (the interactive command: Ctrl-C reaches the fleet alone). */
  readonly detached?: boolean;
  readonly onLine?: (instance: string, line: string) => void;
  readonly startTimeoutMs?: number;
}

export interface LocalFleet {
  /** The one URL clients use: HAProxy. */
  readonly url: string;
  readonly instances: readonly GatewayProcess[];
  readonly haproxy: RunningHaproxy;
  readonly check: HealthCheck;
  /** GATEWAY_DRAIN_DELAY_MS of every instance, derived from the check settings. */
  readonly drainDelayMs: number;
  /** Waits until HAProxy sends traffic to this instance (its checks passed `rise` times). */
  untilInRotation(instance: GatewayProcess, timeoutMs?: number): Promise<number>;
  /** One step of a rolling restart: SIGTERM, wait for the exit, start again, wait until HAProxy has it back. */
  restart(instance: GatewayProcess): Promise<RestartTiming>;
  /** Instances SIGTERM'd and waited for (they drain), then HAProxy stopped, then the temporary folder removed. */
  stop(): Promise<void>;
}

export interface RestartTiming {
  exitCode: number | null;
  stoppedMs: number;
  listeningMs: number;
  inRotationMs: number;
}

export async function startLocalFleet(opts: LocalFleetOptions): Promise<LocalFleet> {
  const check = opts.check ?? DEFAULT_CHECK;
  const drainDelayMs = drainDelayFor(check);
  const dir = mkdtempSync(join(tmpdir(), 'mgw-fleet-'));
  const ports: number[] = [];
  for (let i = 0; i < opts.instances; i++) ports.push(await freePort(INSTANCE_HOST, ports));
  const env = { ...opts.env, HOST: INSTANCE_HOST, GATEWAY_DRAIN_DELAY_MS: String(drainDelayMs) };
  const instances = ports.map(
    (port, i) =>
      new GatewayProcess({ name: `gw${i + 1}`, port, command: opts.command, env, detached: opts.detached, onLine: opts.onLine, startTimeoutMs: opts.startTimeoutMs }),
  );
  let haproxy: RunningHaproxy | null = null;
  const stopAll = async () => {
    await Promise.all(instances.map((i) => i.stop('SIGTERM')));
    await haproxy?.stop();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const started = await Promise.allSettled(instances.map((i) => i.start()));
    const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (failed !== undefined) throw failed.reason;
    const bindHost = opts.bindHost ?? '127.0.0.1';
    haproxy = await startHaproxy(dir, {
      bindHost,
      bindPort: opts.bindPort || (await freePort(bindHost, ports)),
      servers: instances.map((i) => ({ name: i.name, host: INSTANCE_HOST, port: i.port })),
      check,
      statsSocket: join(dir, 'haproxy.sock'),
    });
  } catch (err) {
    await stopAll();
    throw err;
  }
  const lb = haproxy;
  // Rise checks one interval apart, the first up to an interval away, and slow answers on a busy machine.
  const riseBudgetMs = check.interMs * (check.rise + 1) + 10_000;
  const untilInRotation = (instance: GatewayProcess, timeoutMs = riseBudgetMs) => lb.waitFor(instance.name, 'UP', timeoutMs);
  await Promise.all(instances.map((i) => untilInRotation(i))).catch(async (err: unknown) => {
    await stopAll();
    throw err;
  });

  let stopping: Promise<void> | null = null;
  return {
    url: lb.url,
    instances,
    haproxy: lb,
    check,
    drainDelayMs,
    untilInRotation,
    async restart(instance) {
      const t0 = performance.now();
      const exitCode = await instance.stop('SIGTERM');
      const stoppedMs = performance.now() - t0;
      await instance.start();
      const listeningMs = performance.now() - t0;
      await untilInRotation(instance);
      return { exitCode, stoppedMs, listeningMs, inRotationMs: performance.now() - t0 };
    },
    stop() {
      stopping ??= stopAll();
      return stopping;
    },
  };
}
