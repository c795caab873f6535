// The cluster primary of `serve --workers N`: forks the workers (each one a whole gateway sharing the
// listening port), replaces a worker that dies, aggregates /metrics, holds the rate limits every worker
// counts against (limits-channel.ts), and on SIGTERM/SIGINT drains
// every worker before it exits. It serves no requests itself.
import cluster from 'node:cluster';
import type { Worker } from 'node:cluster';
import type { Logger } from 'pino';
import { serveClusterLimits } from '../../policy/ratelimit/cluster-limits-channel.js';
import { serveClusterMetrics } from '../../observability/cluster-metrics-channel.js';

export interface PrimaryOptions {
  workers: number;
  /** The workers' own drain time; they are killed if still alive this long (+5 s) after the signal. */
  graceMs: number;
  logger: Logger;
}

/** More deaths than this within CRASH_WINDOW_MS is a crash loop: stop instead of forking forever. */
const MAX_CRASHES = 5;
const CRASH_WINDOW_MS = 30_000;

export function runPrimary(opts: PrimaryOptions): Promise<number> {
  const { logger } = opts;
  serveClusterMetrics();
  serveClusterLimits(logger);
  let stopping = false;
  let listening = 0;
  const crashes: number[] = [];

  return new Promise((resolve) => {
    const fork = () => {
      const worker = cluster.fork();
      worker.once('listening', () => {
        if (++listening === opts.workers) logger.info({ workers: opts.workers }, 'all gateway workers listening');
      });
    };
    const stop = (signal: NodeJS.Signals, code: number) => {
      if (stopping) return;
      stopping = true;
      logger.info({ signal, workers: Object.keys(cluster.workers ?? {}).length }, 'stopping gateway workers');
      const workers = liveWorkers();
      if (workers.length === 0) return resolve(code);
      const killTimer = setTimeout(() => {
        for (const w of liveWorkers()) w.process.kill('SIGKILL');
      }, opts.graceMs + 5000);
      void Promise.all(workers.map((w) => new Promise((r) => w.once('exit', r)))).then(() => {
        clearTimeout(killTimer);
        resolve(code);
      });
      for (const w of workers) w.process.kill('SIGTERM');
    };
    cluster.on('exit', (worker, code, signal) => {
      if (stopping) return;
      listening = Math.max(0, listening - 1);
      const now = Date.now();
      crashes.push(now);
      while (crashes.length > 0 && crashes[0]! < now - CRASH_WINDOW_MS) crashes.shift();
      logger.error({ pid: worker.process.pid, code, signal }, 'gateway worker died');
      if (crashes.length > MAX_CRASHES) {
        logger.error({ crashes: crashes.length, windowMs: CRASH_WINDOW_MS }, 'gateway workers keep dying; giving up');
        return stop('SIGTERM', 1);
      }
      fork();
    });
    process.once('SIGTERM', () => stop('SIGTERM', 0));
    process.once('SIGINT', () => stop('SIGINT', 0));
    for (let i = 0; i < opts.workers; i++) fork();
  });
}

function liveWorkers(): Worker[] {
  return Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined && !w.isDead());
}
