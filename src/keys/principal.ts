// Who a request acts for once its key is accepted; built once per key version and shared by every request.
import type { KeyRecord } from './key-store.js';
import { hasLimits, type RateLimits } from './rate-limits.js';
import type { Budget } from './budget.js';

export interface Principal {
  keyId: string;
  customerId: string;
  customerName: string;
  /** null: every model in the catalogue. */
  allowedModels: ReadonlySet<string> | null;
  rpm: number | null;
  tpm: number | null;
  /** The customer's limits in force for all its keys together (customerLimitsOf); null: none. */
  customerLimits: RateLimits | null;
  /** The key's own spend budget and its customer's (for all its keys together); null: none. */
  keyBudget: Budget | null;
  customerBudget: Budget | null;
}

/** The configured default limits of a customer by its name (GATEWAY_CUSTOMER_LIMITS), or null. */
export type CustomerDefaults = (customerName: string) => RateLimits | null;

const NO_DEFAULTS: CustomerDefaults = () => null;

/**
 * A customer's limits in force: its stored ones when either is set (the other dimension is then
 * unlimited), else the configured default for its name or `*`; null when that limits nothing either,
 * so a request of an unlimited key and customer skips the limiter.
 */
export function customerLimitsOf(stored: RateLimits, customerName: string, defaults: CustomerDefaults): RateLimits | null {
  if (hasLimits(stored)) return { rpm: stored.rpm, tpm: stored.tpm };
  const fallback = defaults(customerName);
  return hasLimits(fallback) ? fallback : null;
}

export function principalOf(record: KeyRecord, defaults: CustomerDefaults = NO_DEFAULTS): Principal {
  const customerLimits = customerLimitsOf({ rpm: record.customerRpm, tpm: record.customerTpm }, record.customerName, defaults);
  return Object.freeze({
    keyId: record.id,
    customerId: record.customerId,
    customerName: record.customerName,
    allowedModels: record.allowedModels === null ? null : new Set(record.allowedModels),
    rpm: record.rpm,
    tpm: record.tpm,
    customerLimits: customerLimits === null ? null : Object.freeze(customerLimits),
    keyBudget: record.budget,
    customerBudget: record.customerBudget,
  });
}

/** The key's allow-list, by catalogue id. No principal (a route that authenticates no key) limits nothing. */
export function mayUseModel(principal: Principal | null, modelId: string): boolean {
  return principal === null || principal.allowedModels === null || principal.allowedModels.has(modelId);
}
