// Customer > Usage: requests, tokens and cost per day, per model and per key over a date range, from the
// usage records.
import { GatewayError } from '../../dialects/errors/codes.js';
import type { KeyStore } from '../../keys/key-store.js';
import type { UsageStore } from '../../metering/usage-store.js';
import { dayOf } from '../../metering/usage-store.js';
import { customerOr404 } from './customer-lookup.js';
import { dayParam } from './input.js';
import type { ApiRequest, ApiRoute } from './types.js';
import { ok } from './types.js';
import { summariseUsage } from './usage-summary.js';
import { withCostUsd } from '../../metering/usage-cost-json.js';

const DAY_MS = 86_400_000;
const DEFAULT_DAYS = 30;
const MAX_DAYS = 366;

export function usageRoutes(keyStore: KeyStore, usageStore: UsageStore): ApiRoute[] {
  return [{ method: 'GET', pattern: '/customers/:customerId/usage', access: 'customer', handler: (req) => usage(keyStore, usageStore, req) }];
}

async function usage(keyStore: KeyStore, usageStore: UsageStore, req: ApiRequest) {
  const customer = await customerOr404(keyStore, req.params.customerId);
  const to = dayParam(req.query, 'to', dayOf(Date.now()));
  const from = dayParam(req.query, 'from', dayOf(Date.parse(`${to}T00:00:00Z`) - (DEFAULT_DAYS - 1) * DAY_MS));
  const span = (Date.parse(to) - Date.parse(from)) / DAY_MS + 1;
  if (span < 1) throw new GatewayError('invalid_request', 'from must not be after to.', { param: 'from' });
  if (span > MAX_DAYS) throw new GatewayError('invalid_request', `The range may span at most ${MAX_DAYS} days.`, { param: 'from' });
  const keyId = req.query.get('keyId') || undefined;
  if (keyId !== undefined) {
    const key = await keyStore.getKey(keyId);
    if (key === null || key.customerId !== customer.id) throw new GatewayError('not_found', 'No such key.');
  }
  const rows = await usageStore.query({ customerId: customer.id, keyId, since: from, until: to });
  // Per key: one sum per key of the customer (those without requests in the range are left out).
  const keys = keyId === undefined ? await keyStore.listKeys({ customerId: customer.id }) : [];
  const perKey = await Promise.all(
    keys.map(async (k) => ({ keyId: k.id, name: k.name, prefix: k.prefix, ...withCostUsd(await usageStore.totals({ customerId: customer.id, keyId: k.id, since: from, until: to })) })),
  );
  return ok({ customerId: customer.id, keyId: keyId ?? null, ...summariseUsage(rows, from, to), byKey: perKey.filter((k) => k.requests > 0) });
}
