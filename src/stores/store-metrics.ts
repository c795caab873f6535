// The database's side of /metrics: the pool's connections and failed calls, and the usage kept while the
// database does not answer (in memory, in the spill file, dropped beyond its bound). Read when scraped.
import { Counter, Gauge, type Registry } from 'prom-client';
import type { UsageWriter } from '../metering/usage-writer.js';
import type { Stores } from './stores.js';
import { METRIC_NAMES, type GatewayMetrics } from '../observability/metrics.js';

/**
 * Registers the gauges and returns what to call when the database stops or starts answering
 * (model_gateway_shared_store_up{store="postgres"}, shared with Redis's).
 */
export function observeStores(metrics: GatewayMetrics, stores: Stores, usage: UsageWriter): (up: boolean) => void {
  const registers = [metrics.registry];
  const pool = stores.poolStats?.bind(stores);
  new Gauge({
    name: METRIC_NAMES.usageBuffered,
    help: 'Usage rows in memory, waiting to be written to the database.',
    registers,
    collect() {
      this.set(usage.pending);
    },
  });
  new Gauge({
    name: METRIC_NAMES.usageSpilled,
    help: 'Usage rows in the spill file (the database did not take them yet).',
    registers,
    collect() {
      this.set(usage.spilledPending);
    },
  });
  countFrom(registers, METRIC_NAMES.usageDropped, 'Usage rows lost: beyond the memory buffer without a spill file, or beyond the spill file\'s bound.', {
    '': () => usage.stats.dropped,
  });
  if (pool === undefined) return () => {};

  new Gauge({
    name: METRIC_NAMES.dbPoolConnections,
    help: 'Database connections of this process, by state (in_use, idle).',
    labelNames: ['state'],
    registers,
    collect() {
      const s = pool();
      this.set({ state: 'in_use' }, s.open - s.idle);
      this.set({ state: 'idle' }, s.idle);
    },
  });
  new Gauge({
    name: METRIC_NAMES.dbPoolWaiting,
    help: 'Database calls waiting for a free connection.',
    registers,
    collect() {
      this.set(pool().waiting);
    },
  });
  countFrom(
    registers,
    METRIC_NAMES.dbCallErrors,
    'Failed database calls, by kind: unavailable (no answer in time, connection lost) or refused (the database answered with an error).',
    { unavailable: () => pool().unavailableCalls, refused: () => pool().failedCalls },
    'kind',
  );
  const report = (up: boolean) => metrics.sharedStoreUp('postgres', up);
  report(pool().up);
  return report;
}

/** A counter that follows running totals kept elsewhere (one series per entry of `reads`, by `label`). */
function countFrom(registers: Registry[], name: string, help: string, reads: Record<string, () => number>, label?: string): void {
  const last = new Map<string, number>();
  new Counter({
    name,
    help,
    labelNames: label === undefined ? [] : [label],
    registers,
    collect() {
      for (const [value, read] of Object.entries(reads)) {
        const now = read();
        const grew = now - (last.get(value) ?? 0);
        last.set(value, now);
        if (grew < 0) continue;
        if (label === undefined) this.inc(grew);
        else this.inc({ [label]: value }, grew);
      }
    },
  });
}
