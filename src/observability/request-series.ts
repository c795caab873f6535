// The per-request hot path of the metrics: one finished request touches up to ten series. Label
// children are bound once per (surface, model) and per (model, customer) and kept in maps, so a
// request costs a few map lookups and increments instead of building label objects.
import { statusClass } from './label-bounds.js';
import type { CounterCell, CounterFamily, HistogramCell, HistogramFamily } from './metric-families.js';
import type { RequestObservation } from './request-observation.js';

type CounterChild = CounterCell;
type HistogramChild = HistogramCell;

export interface RequestMetricSet {
  requests: CounterFamily;
  duration: HistogramFamily;
  upstreamHeaders: HistogramFamily;
  ttft: HistogramFamily;
  tpot: HistogramFamily;
  tokens: CounterFamily;
}

export interface RequestLabelBounds {
  surface: (value: string) => string;
  model: (value: string) => string;
  customer: (value: string) => string;
  outcome: (value: string) => string;
}

/** Children bound to one (surface, model). */
interface ModelSeries {
  readonly surface: string;
  readonly model: string;
  readonly byCustomer: Map<string, CustomerSeries>;
  readonly duration: Map<string, HistogramChild>;
  readonly upstreamHeaders: HistogramChild;
  readonly ttft: HistogramChild;
  readonly tpot: HistogramChild;
}

/** Children bound to one (surface, model, customer). */
interface CustomerSeries {
  readonly customer: string;
  /** status class → outcome → counter */
  readonly requests: Map<string, Map<string, CounterChild>>;
  /** input, output, cache_read, cache_write (tokens carry no surface: shared across surfaces) */
  readonly tokens: readonly [CounterChild, CounterChild, CounterChild, CounterChild];
}

// Nested maps rather than one map keyed by a joined string: label values are the same string
// objects every time, so each lookup reuses a cached hash instead of hashing a fresh key.
export class RequestSeries {
  private readonly bySurface = new Map<string, Map<string, ModelSeries>>();

  constructor(
    private readonly m: RequestMetricSet,
    private readonly bound: RequestLabelBounds,
  ) {}

  observe(o: RequestObservation): void {
    const outcome = this.bound.outcome(o.outcome);
    const s = this.modelSeries(this.bound.surface(o.surface), this.bound.model(o.model));
    const c = this.customerSeries(s, this.bound.customer(o.customer));

    this.requestCounter(s, c, statusClass(o.status), outcome).inc();
    const traceId = o.traceId;
    if (traceId === null) this.durationHistogram(s, outcome).observe(o.durationSec);
    else this.durationHistogram(s, outcome).observeTraced(o.durationSec, traceId);
    if (o.upstreamHeadersSec !== null) s.upstreamHeaders.observe(o.upstreamHeadersSec);
    if (o.streamed && o.ttftSec !== null) {
      if (traceId === null) s.ttft.observe(o.ttftSec);
      else s.ttft.observeTraced(o.ttftSec, traceId);
    }
    // GenAI time per output token: generation after the first token, over the tokens after it.
    if (outcome === 'ok' && o.generationSec !== null && o.usage.output > 1) {
      s.tpot.observe(o.generationSec / (o.usage.output - 1));
    }
    const u = o.usage;
    if (u.input > 0) c.tokens[0].inc(u.input);
    if (u.output > 0) c.tokens[1].inc(u.output);
    if (u.cacheRead > 0) c.tokens[2].inc(u.cacheRead);
    if (u.cacheWrite > 0) c.tokens[3].inc(u.cacheWrite);
  }

  private modelSeries(surface: string, model: string): ModelSeries {
    let models = this.bySurface.get(surface);
    if (models === undefined) {
      models = new Map();
      this.bySurface.set(surface, models);
    }
    let s = models.get(model);
    if (s === undefined) {
      s = {
        surface,
        model,
        byCustomer: new Map(),
        duration: new Map(),
        upstreamHeaders: this.m.upstreamHeaders.child(surface, model),
        ttft: this.m.ttft.child(surface, model),
        tpot: this.m.tpot.child(surface, model),
      };
      models.set(model, s);
    }
    return s;
  }

  private customerSeries(s: ModelSeries, customer: string): CustomerSeries {
    let c = s.byCustomer.get(customer);
    if (c === undefined) {
      const tokens = (type: string) => this.m.tokens.child(type, s.model, customer);
      c = { customer, requests: new Map(), tokens: [tokens('input'), tokens('output'), tokens('cache_read'), tokens('cache_write')] };
      s.byCustomer.set(customer, c);
    }
    return c;
  }

  private requestCounter(s: ModelSeries, c: CustomerSeries, status: string, outcome: string): CounterChild {
    let byOutcome = c.requests.get(status);
    if (byOutcome === undefined) {
      byOutcome = new Map();
      c.requests.set(status, byOutcome);
    }
    let counter = byOutcome.get(outcome);
    if (counter === undefined) {
      counter = this.m.requests.child(s.surface, s.model, c.customer, status, outcome);
      byOutcome.set(outcome, counter);
    }
    return counter;
  }

  private durationHistogram(s: ModelSeries, outcome: string): HistogramChild {
    let h = s.duration.get(outcome);
    if (h === undefined) {
      h = this.m.duration.child(s.surface, s.model, outcome);
      s.duration.set(outcome, h);
    }
    return h;
  }
}
