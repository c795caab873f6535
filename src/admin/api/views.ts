// What the admin API shows of stored records: never a secret, never a hash.
import type { Customer, KeyRecord } from '../../keys/key-store.js';
import { keyStatus, type ShownKeyStatus } from '../../keys/key-status.js';
import type { DashboardUser } from '../../stores/user-store.js';
import { customerLimitsOf, type CustomerDefaults } from '../../keys/principal.js';
import type { RateLimits } from '../../keys/rate-limits.js';
import { budgetView, type BudgetView } from '../../policy/budgets/budget-view.js';

/** A key as the API shows it: the record without its customer fields, its status as shown (keyStatus). */
export type KeyView = Omit<KeyRecord, 'customerId' | 'customerName' | 'customerRpm' | 'customerTpm' | 'status' | 'budget' | 'customerBudget'> & {
  status: ShownKeyStatus;
  /** The key's own spend budget, the amount in USD; null: none. */
  budget: BudgetView | null;
};

export function keyView(record: KeyRecord, now: number = Date.now()): KeyView {
  return {
    id: record.id,
    name: record.name,
    prefix: record.prefix,
    createdAt: record.createdAt,
    lastUsedAt: record.lastUsedAt,
    expiresAt: record.expiresAt,
    allowedModels: record.allowedModels,
    rpm: record.rpm,
    tpm: record.tpm,
    status: keyStatus(record, now),
    revokedAt: record.revokedAt,
    budget: budgetView(record.budget),
  };
}

export interface CustomerView {
  id: string;
  name: string;
  createdAt: string;
  /** Its own limits as stored; null in both: the configured default applies. */
  rpm: number | null;
  tpm: number | null;
  /** Its spend budget for all its keys together, the amount in USD; null: none. */
  budget: BudgetView | null;
}

export function customerView(c: Customer): CustomerView {
  return { id: c.id, name: c.name, createdAt: c.createdAt, rpm: c.rpm, tpm: c.tpm, budget: budgetView(c.budget) };
}

/** A customer as its pages show it: also the limits in force, its own or the configured default (null: none). */
export interface CustomerLimitsView extends CustomerView {
  limitsInForce: RateLimits | null;
}

export function customerLimitsView(c: Customer, defaults: CustomerDefaults): CustomerLimitsView {
  return { ...customerView(c), limitsInForce: customerLimitsOf(c, c.name, defaults) };
}

export type UserView = Pick<DashboardUser, 'id' | 'email' | 'createdAt' | 'lastSignInAt'>;

export function userView(u: DashboardUser): UserView {
  return { id: u.id, email: u.email, createdAt: u.createdAt, lastSignInAt: u.lastSignInAt };
}
