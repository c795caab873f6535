import t from 'tap';
import { createMetrics } from '../../../src/observability/metrics.js';

const sample = (body: string, name: string, labels: string) => {
  const line = body.split('\n').find((l) => l.startsWith(`${name}{${labels}}`));
  return line === undefined ? null : Number(line.slice(line.lastIndexOf(' ') + 1));
};

t.test('spend in micro-dollars by model and customer, unpriced requests by model, labels bounded', async (t) => {
  const m = createMetrics({ knownModels: () => new Set(['claude-sonnet-4-6']), knownCustomers: () => new Set(['acme']), collectProcessMetrics: false });
  m.spent('claude-sonnet-4-6', 'acme', { nanoUsd: 1_500, priced: true });
  m.spent('claude-sonnet-4-6', 'acme', { nanoUsd: 2_000_000, priced: true });
  m.spent('made-up-model', 'someone-new', { nanoUsd: 7_000, priced: true });
  m.spent('claude-sonnet-4-6', 'none', { nanoUsd: 0, priced: true });
  m.spent('claude-sonnet-4-6', 'acme', { nanoUsd: 0, priced: false });
  m.spent('made-up-model', 'acme', { nanoUsd: 0, priced: false });
  const { body } = await m.render();
  t.equal(sample(body, 'model_gateway_spend_microdollars_total', 'model="claude-sonnet-4-6",customer="acme"'), 2001.5);
  t.equal(sample(body, 'model_gateway_spend_microdollars_total', 'model="other",customer="other"'), 7, 'unknown model and customer names become other');
  t.equal(sample(body, 'model_gateway_spend_microdollars_total', 'model="claude-sonnet-4-6",customer="none"'), null, 'no series for a zero cost');
  t.equal(sample(body, 'model_gateway_unpriced_requests_total', 'model="claude-sonnet-4-6"'), 1);
  t.equal(sample(body, 'model_gateway_unpriced_requests_total', 'model="other"'), 1);
  t.match(body, /# TYPE model_gateway_spend_microdollars_total counter/);
});
