// Minimal counter, gauge and histogram families for the gateway's hot path. prom-client's own
// metrics hash a label object on every increment (a finished request cost ~7 µs); a child here is
// a plain object holding numbers, so an increment is a field update. The families still plug into
// a prom-client Registry (exposition text, getMetricsAsJSON, and so AggregatorRegistry for
// node:cluster) by offering the same `get()` shape prom-client's own metrics return.
import type { Metric, Registry } from 'prom-client';

export type Aggregator = 'sum' | 'max' | 'min' | 'first' | 'average' | 'omit';
type Labels = Record<string, string | number>;

/** One exported sample, as prom-client's metrics describe theirs. */
export interface Sample {
  labels: Labels;
  value: number;
  metricName?: string;
  /** Shown only in the OpenMetrics exposition (timestamp in seconds). */
  exemplar?: { labelSet: Labels; value: number; timestamp: number };
}

/** The latest observation of a bucket that came with a trace id. */
interface Exemplar {
  traceId: string;
  value: number;
  /** Seconds since the epoch. */
  timestamp: number;
}

export interface FamilySnapshot {
  name: string;
  help: string;
  type: 'counter' | 'gauge' | 'histogram';
  aggregator: Aggregator;
  values: Sample[];
}

export class CounterCell {
  value = 0;
  inc(by = 1): void {
    this.value += by;
  }
}

export class GaugeCell {
  value = 0;
  inc(): void {
    this.value += 1;
  }
  dec(): void {
    this.value -= 1;
  }
  set(v: number): void {
    this.value = v;
  }
}

export class HistogramCell {
  /** Non-cumulative count per bound; the last slot is +Inf. */
  readonly counts: Float64Array;
  sum = 0;
  count = 0;
  /** Per bucket, its latest traced observation; allocated by the first one (never, with tracing off). */
  exemplars: Array<Exemplar | undefined> | null = null;
  constructor(private readonly bounds: readonly number[]) {
    this.counts = new Float64Array(bounds.length + 1);
  }
  observe(v: number): void {
    this.bucketOf(v);
  }
  /** An observation of a traced request: its bucket keeps the trace id as its exemplar. */
  observeTraced(v: number, traceId: string): void {
    const i = this.bucketOf(v);
    if (i < 0) return;
    (this.exemplars ??= new Array<Exemplar | undefined>(this.counts.length))[i] = { traceId, value: v, timestamp: Date.now() / 1000 };
  }
  /** Counts v; its bucket's index, or -1 when v is not a number. */
  private bucketOf(v: number): number {
    if (!Number.isFinite(v)) return -1; // a broken clock must not poison the sum
    const b = this.bounds;
    let i = 0;
    while (i < b.length && v > b[i]) i++;
    this.counts[i] += 1;
    this.sum += v;
    this.count += 1;
    return i;
  }
}

abstract class Family<Cell> {
  private readonly cells = new Map<string, { labels: Labels; cell: Cell }>();
  abstract readonly type: FamilySnapshot['type'];

  constructor(
    readonly name: string,
    readonly help: string,
    readonly labelNames: readonly string[],
    readonly aggregator: Aggregator = 'sum',
  ) {}

  /** The cell for these label values (in labelNames order), created on first use. Bind it once. */
  child(...values: string[]): Cell {
    const key = values.join('\u0000');
    let entry = this.cells.get(key);
    if (entry === undefined) {
      if (values.length !== this.labelNames.length) throw new Error(`${this.name}: expected ${this.labelNames.length} label values`);
      const labels: Labels = {};
      this.labelNames.forEach((n, i) => (labels[n] = values[i]));
      entry = { labels, cell: this.newCell() };
      this.cells.set(key, entry);
    }
    return entry.cell;
  }

  /** Registers with a prom-client Registry, which reads families only through get(). */
  registerIn(registry: Registry): this {
    // The cast is the one seam with prom-client: its Metric type lists its own classes, while
    // the Registry needs only name, type, aggregator and get().
    registry.registerMetric(this as unknown as Metric);
    return this;
  }

  async get(): Promise<FamilySnapshot> {
    const values: Sample[] = [];
    for (const { labels, cell } of this.cells.values()) this.samplesOf(labels, cell, values);
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }

  reset(): void {
    this.cells.clear();
  }

  protected abstract newCell(): Cell;
  protected abstract samplesOf(labels: Labels, cell: Cell, into: Sample[]): void;
}

/** Counters and gauges export one sample per cell: its value. */
abstract class ScalarFamily<Cell extends { value: number }> extends Family<Cell> {
  protected samplesOf(labels: Labels, cell: Cell, into: Sample[]): void {
    into.push({ labels, value: cell.value });
  }
}

export class CounterFamily extends ScalarFamily<CounterCell> {
  readonly type = 'counter';
  protected newCell = (): CounterCell => new CounterCell();
}

export class GaugeFamily extends ScalarFamily<GaugeCell> {
  readonly type = 'gauge';
  protected newCell = (): GaugeCell => new GaugeCell();
}

export class HistogramFamily extends Family<HistogramCell> {
  readonly type = 'histogram';
  private readonly bounds: readonly number[];

  constructor(name: string, help: string, labelNames: readonly string[], bounds: readonly number[]) {
    super(name, help, labelNames, 'sum');
    if (labelNames.includes('le')) throw new Error('le is reserved for histogram buckets');
    this.bounds = [...bounds].sort((a, b) => a - b);
  }

  protected newCell(): HistogramCell {
    return new HistogramCell(this.bounds);
  }

  // A bound child that never saw a value exports nothing: no empty series for, say, time to
  // first token on a surface that never streams.
  protected samplesOf(labels: Labels, cell: HistogramCell, into: Sample[]): void {
    if (cell.count === 0) return;
    const bucket = `${this.name}_bucket`;
    let cumulative = 0;
    const exemplars = cell.exemplars;
    for (let i = 0; i < this.bounds.length; i++) {
      cumulative += cell.counts[i];
      into.push(withExemplar({ labels: { ...labels, le: this.bounds[i] }, value: cumulative, metricName: bucket }, exemplars?.[i]));
    }
    into.push(withExemplar({ labels: { ...labels, le: '+Inf' }, value: cell.count, metricName: bucket }, exemplars?.[this.bounds.length]));
    into.push({ labels, value: cell.sum, metricName: `${this.name}_sum` });
    into.push({ labels, value: cell.count, metricName: `${this.name}_count` });
  }
}

/** OpenMetrics exemplars name the trace by `trace_id`, the label Grafana and Prometheus look for. */
function withExemplar(sample: Sample, exemplar: Exemplar | undefined): Sample {
  if (exemplar !== undefined) sample.exemplar = { labelSet: { trace_id: exemplar.traceId }, value: exemplar.value, timestamp: exemplar.timestamp };
  return sample;
}

/**
 * A gauge whose samples are read from their source at each scrape (a state that changes without an
 * event, such as a cool-down running out), not kept in cells.
 */
export class CollectedGaugeFamily {
  readonly type = 'gauge';
  private source: () => Sample[] = () => [];

  constructor(
    readonly name: string,
    readonly help: string,
    readonly labelNames: readonly string[],
    readonly aggregator: Aggregator = 'max',
  ) {}

  /** Where the samples come from from now on. */
  collectFrom(source: () => Sample[]): void {
    this.source = source;
  }

  registerIn(registry: Registry): this {
    registry.registerMetric(this as unknown as Metric);
    return this;
  }

  async get(): Promise<FamilySnapshot> {
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values: this.source() };
  }

  reset(): void {}
}
