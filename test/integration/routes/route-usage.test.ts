// Accounting per route, through a real gateway in front of two simulated accounts: every usage row
// names the provider that served it, and a route with prices of its own (a regional endpoint) is
// charged at those, the other route at the model's.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import t from 'tap';
import { LIST_PRICES } from '../../../src/metering/list-prices.js';
import type { ModelPrices } from '../../../src/metering/prices.js';
import { startHarness } from '../../helpers/harness.js';
import { bearer, call } from '../../helpers/http.js';
import { waitFor } from '../../helpers/wait.js';
import { messagesBody, startAccounts } from './fixtures/accounts.js';

interface Row {
  provider: string | null;
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens: number;
  cache_write_tokens: number;
  cost_nano_usd: number;
}

// Odd digits, so a cost at the wrong route's prices shows.
const EU_PRICES = { input: '3.301', output: '16.507', cacheWrite: '4.127', cacheRead: '0.331' };
const EU: ModelPrices = { input: 3301, output: 16507, cacheWrite: 4127, cacheRead: 331 };
const costAt = (r: Row, p: ModelPrices) => r.input_tokens * p.input + r.output_tokens * p.output + r.cache_write_tokens * p.cacheWrite + r.cache_read_tokens * p.cacheRead;

t.test('every usage row names its provider, and a route with prices of its own is charged at them', async (t) => {
  const accounts = await startAccounts(t, [{ id: 'us' }, { id: 'eu', prices: EU_PRICES }]);
  const h = await startHarness({ env: { ...accounts.env, GATEWAY_USAGE_FLUSH_MS: '10' } });
  t.teardown(() => h.close());
  const key = (await h.createKey()).key;
  for (let i = 0; i < 10; i++) t.equal((await call(`${h.url}/gateway/v1/messages`, { body: messagesBody(), headers: bearer(key) })).status, 200);
  const read = (): Row[] => {
    const db = new Database(join(h.dataDir, 'gateway.db'), { readonly: true });
    try {
      return db.prepare('SELECT provider, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, cost_nano_usd FROM usage_records').all() as Row[];
    } finally {
      db.close();
    }
  };
  await waitFor(() => read().length === 10, 10_000);
  const rows = read();
  t.same(new Set(rows.map((r) => r.provider)), new Set(['us', 'eu']), 'both accounts served, each row naming its own');
  for (const r of rows) {
    t.ok(r.input_tokens > 0, 'tokens were reported');
    t.equal(r.cost_nano_usd, costAt(r, r.provider === 'eu' ? EU : LIST_PRICES['claude-sonnet-4-6']), `${r.provider}: charged at ${r.provider === 'eu' ? 'the route' : 'the model'}'s prices`);
  }
  const perProvider = await h.runtime.stores.usage.query();
  t.same(perProvider.map((r) => [r.provider, r.requests]).sort(), [['eu', accounts.counts().eu], ['us', accounts.counts().us]], 'the rollup groups by provider');
});
