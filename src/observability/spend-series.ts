// model_gateway_spend_microdollars_total{model, customer} and the requests of unpriced models. Bound
// children in nested maps, like request-series.ts: a request costs two map lookups and an increment.
import type { RequestCost } from '../metering/cost.js';
import type { CounterCell, CounterFamily } from './metric-families.js';

export interface SpendLabelBounds {
  model: (value: string) => string;
  customer: (value: string) => string;
}

export class SpendSeries {
  private readonly byModel = new Map<string, { spend: Map<string, CounterCell>; unpriced: CounterCell | null }>();

  constructor(
    private readonly spend: CounterFamily,
    private readonly unpriced: CounterFamily,
    private readonly bound: SpendLabelBounds,
  ) {}

  observe(model: string, customer: string, cost: RequestCost): void {
    const label = this.bound.model(model);
    const m = this.modelSeries(label);
    if (!cost.priced) {
      m.unpriced ??= this.unpriced.child(label);
      m.unpriced.inc();
      return;
    }
    if (cost.nanoUsd <= 0) return;
    const name = this.bound.customer(customer);
    let cell = m.spend.get(name);
    if (cell === undefined) {
      cell = this.spend.child(label, name);
      m.spend.set(name, cell);
    }
    // Prometheus samples are doubles anyway; the exact amounts live in the usage store.
    cell.inc(cost.nanoUsd / 1000);
  }

  private modelSeries(model: string) {
    let m = this.byModel.get(model);
    if (m === undefined) this.byModel.set(model, (m = { spend: new Map(), unpriced: null }));
    return m;
  }
}
