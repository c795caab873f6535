// The key store contract. Async so a networked implementation (PostgreSQL) can slot in beside SQLite.
import type { Budget } from './budget.js';
import type { BudgetMode, BudgetPeriod } from './budget.js';

export type KeyStatus = 'active' | 'revoked';

export interface Customer {
  id: string;
  name: string;
  createdAt: string;
  /** The customer's own limits for all its keys together; null in both: the configured default applies. */
  rpm: number | null;
  tpm: number | null;
  /** The customer's spend budget for all its keys together; null: none. */
  budget: Budget | null;
}

/** A customer's own limits as set; null = none of its own on that dimension. */
export interface CustomerLimits {
  rpm: number | null;
  tpm: number | null;
}

export interface KeyRecord {
  id: string;
  customerId: string;
  customerName: string;
  name: string | null;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
  allowedModels: string[] | null;
  rpm: number | null;
  tpm: number | null;
  status: KeyStatus;
  revokedAt: string | null;
  /** The customer's stored limits (Customer.rpm, .tpm), read with the key so a limit change reaches caches as a key change. */
  customerRpm: number | null;
  customerTpm: number | null;
  /** The key's own spend budget; null: none. */
  budget: Budget | null;
  /** The customer's budget (Customer.budget), read with the key like its limits. */
  customerBudget: Budget | null;
}

export interface NewKey {
  /** One of customerName (created when new) or customerId (must exist). */
  customerName?: string;
  customerId?: string;
  name?: string | null;
  expiresAt?: string | null;
  allowedModels?: string[] | null;
  rpm?: number | null;
  tpm?: number | null;
  budget?: Budget | null;
  /**
   * Refuse the key (KeyLimitError) when the customer already holds this many active keys: counted and
   * inserted under one lock of the customer, so concurrent creations cannot pass it. null, 0 or absent: no cap.
   */
  maxActiveKeys?: number | null;
}

/**
 * An edit (key-changes.ts checks it): only the fields given change. A field absent (undefined) is kept as
 * stored, null removes the setting, a value replaces it.
 */
export interface KeyChanges {
  name?: string | null;
  expiresAt?: string | null;
  allowedModels?: string[] | null;
  rpm?: number | null;
  tpm?: number | null;
  budget?: BudgetChange | null;
}

/**
 * A change of a budget, applied to what is stored: the fields given replace theirs, the others are kept. A
 * budget set where there was none takes month and hard for what is not given; a period or mode alone
 * needs a budget already there (a store refuses it otherwise). null (in place of the change) removes it.
 */
export interface BudgetChange {
  amountNanoUsd?: number;
  period?: BudgetPeriod;
  mode?: BudgetMode;
}

/** A customer's own limits, changed field by field like a key's. */
export type CustomerLimitChanges = Partial<CustomerLimits>;

/** A key row as the authenticator needs it: the record, its secret hash, and its change version. */
export interface KeyChange {
  record: KeyRecord;
  secretHash: Buffer;
  version: number;
}

export interface KeyStore {
  createCustomer(name: string): Promise<Customer>;
  getCustomer(id: string): Promise<Customer | null>;
  getCustomerByName(name: string): Promise<Customer | null>;
  listCustomers(): Promise<Customer[]>;
  /**
   * Changes the customer's own limits given (null = none of its own; a limit not given is kept), in one
   * UPDATE. Every key of the customer counts as changed, in the same transaction, so running instances
   * reload them. Unknown id: KeyStoreError.
   */
  setCustomerLimits(customerId: string, limits: CustomerLimitChanges): Promise<Customer>;
  /**
   * Changes the customer's budget (null = none; a whole Budget replaces it; a BudgetChange changes only
   * its fields given), in one UPDATE, re-stamping its keys like setCustomerLimits. Unknown id, or a
   * period or mode alone where there is no budget: KeyStoreError.
   */
  setCustomerBudget(customerId: string, budget: BudgetChange | null): Promise<Customer>;
  /** Returns the full key; it exists nowhere else afterwards. */
  createKey(input: NewKey): Promise<{ record: KeyRecord; key: string }>;
  listKeys(filter?: { customerId?: string }): Promise<KeyRecord[]>;
  getKey(id: string): Promise<KeyRecord | null>;
  /**
   * Changes the fields given of an active key in one UPDATE (no read before the write, so concurrent edits
   * of different fields both hold) and stamps it as changed for every instance's cache. The key as stored
   * afterwards; null when there is no key with that id. Invalid changes, a revoked key, or a budget period
   * or mode alone where the key has no budget: KeyStoreError, nothing changed.
   */
  updateKey(id: string, changes: KeyChanges): Promise<KeyRecord | null>;
  /** true when this call revoked an active key; false when unknown or already revoked. */
  revokeKey(id: string): Promise<boolean>;
  findByPublicId(publicId: string): Promise<KeyChange | null>;
  /** Every key row changed after `version`, in version order; maxVersion is the highest seen (or `version`). */
  changesSince(version: number): Promise<{ rows: KeyChange[]; maxVersion: number }>;
  /** Records last use times; never moves a time backwards. Does not count as a change for caches. */
  touchLastUsed(entries: LastUse[]): Promise<void>;
}

/** One key's latest use, milliseconds since the epoch. */
export interface LastUse {
  id: string;
  at: number;
}

/** Where last-use times go: the key store itself, or a writer that takes them off the event loop. */
export type LastUseWriter = Pick<KeyStore, 'touchLastUsed'>;

export class KeyStoreError extends Error {
  override name = 'KeyStoreError';
}

/** A key refused because its customer already holds `limit` active keys (GATEWAY_MAX_KEYS_PER_CUSTOMER). */
export class KeyLimitError extends KeyStoreError {
  override name = 'KeyLimitError';
  constructor(
    readonly customerName: string,
    readonly limit: number,
  ) {
    super(`customer "${customerName}" already has ${limit} active keys, the most GATEWAY_MAX_KEYS_PER_CUSTOMER allows; revoke one first`);
  }
}

/** Throws KeyLimitError when `active` keys already reach the cap. The stores count under a lock, then call this. */
export function checkKeyCap(customerName: string, active: number, cap: number): void {
  if (active >= cap) throw new KeyLimitError(customerName, cap);
}
