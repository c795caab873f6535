// KeyStore on the embedded SQLite database (better-sqlite3 is synchronous; the methods are async for the interface).
import type { Statement } from 'better-sqlite3';
import type { Db } from './open.js';
import { displayPrefix, generateKey, hashSecret, randomBase62 } from '../../keys/key-format.js';
import { validCustomerName, validateKeySettings } from '../../keys/key-input.js';
import { needsStoredBudget, validBudgetChange, validCustomerLimitChanges, validateKeyChanges } from '../../keys/key-changes.js';
import { budgetColumns, budgetFromColumns } from '../../keys/budget.js';
import { budgetAssignments, keyAssignments, limitAssignments, setClause, type Assignment } from '../change-assignments.js';
import { editRefusal } from '../edit-refusal.js';
import { lastUsedRowsWriter } from './last-used-rows.js';
import {
  checkKeyCap,
  KeyStoreError,
  type BudgetChange,
  type Customer,
  type CustomerLimitChanges,
  type KeyChange,
  type KeyChanges,
  type KeyRecord,
  type KeyStore,
  type LastUse,
  type NewKey,
} from '../../keys/key-store.js';

interface CustomerRow {
  id: string;
  name: string;
  created_at: string;
  rpm: number | null;
  tpm: number | null;
  budget_nano_usd: number | null;
  budget_period: string | null;
  budget_mode: string | null;
}

interface KeyRow {
  id: string;
  customer_id: string;
  customer_name: string;
  name: string | null;
  prefix: string;
  secret_hash: Buffer;
  created_at: string;
  last_used_at: string | null;
  expires_at: string | null;
  allowed_models: string | null;
  rpm: number | null;
  tpm: number | null;
  status: 'active' | 'revoked';
  revoked_at: string | null;
  version: number;
  customer_rpm: number | null;
  customer_tpm: number | null;
  budget_nano_usd: number | null;
  budget_period: string | null;
  budget_mode: string | null;
  customer_budget_nano_usd: number | null;
  customer_budget_period: string | null;
  customer_budget_mode: string | null;
}

const SELECT_KEYS = `SELECT k.*, c.name AS customer_name, c.rpm AS customer_rpm, c.tpm AS customer_tpm,
  c.budget_nano_usd AS customer_budget_nano_usd, c.budget_period AS customer_budget_period, c.budget_mode AS customer_budget_mode
  FROM api_keys k JOIN customers c ON c.id = k.customer_id`;
/** Each change takes a version above every existing row's; writers are serialised, so versions follow commit order. */
const NEXT_VERSION = `(SELECT COALESCE(MAX(version), 0) + 1 FROM api_keys)`;

function toCustomer(row: CustomerRow): Customer {
  return {
    id: row.id,
    name: row.name,
    createdAt: row.created_at,
    rpm: row.rpm,
    tpm: row.tpm,
    budget: budgetFromColumns(row.budget_nano_usd, row.budget_period, row.budget_mode),
  };
}

function toRecord(row: KeyRow): KeyRecord {
  return {
    id: row.id,
    customerId: row.customer_id,
    customerName: row.customer_name,
    name: row.name,
    prefix: row.prefix,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    expiresAt: row.expires_at,
    allowedModels: row.allowed_models === null ? null : (JSON.parse(row.allowed_models) as string[]),
    rpm: row.rpm,
    tpm: row.tpm,
    status: row.status,
    revokedAt: row.revoked_at,
    customerRpm: row.customer_rpm,
    customerTpm: row.customer_tpm,
    budget: budgetFromColumns(row.budget_nano_usd, row.budget_period, row.budget_mode),
    customerBudget: budgetFromColumns(row.customer_budget_nano_usd, row.customer_budget_period, row.customer_budget_mode),
  };
}

function toChange(row: KeyRow): KeyChange {
  return { record: toRecord(row), secretHash: row.secret_hash, version: row.version };
}

export class SqliteKeyStore implements KeyStore {
  private readonly sql: {
    customerByName: Statement<[string], CustomerRow>;
    customerById: Statement<[string], CustomerRow>;
    insertCustomer: Statement<[string, string, string]>;
    keyById: Statement<[string], KeyRow>;
    changesSince: Statement<[number], KeyRow>;
  };
  private readonly writeLastUsed: (entries: LastUse[]) => void;

  constructor(private readonly db: Db) {
    this.sql = {
      customerByName: db.prepare('SELECT * FROM customers WHERE name = ?'),
      customerById: db.prepare('SELECT * FROM customers WHERE id = ?'),
      insertCustomer: db.prepare('INSERT INTO customers (id, name, created_at) VALUES (?, ?, ?)'),
      keyById: db.prepare(`${SELECT_KEYS} WHERE k.id = ?`),
      changesSince: db.prepare(`${SELECT_KEYS} WHERE k.version > ? ORDER BY k.version`),
    };
    this.writeLastUsed = lastUsedRowsWriter(db);
  }

  async createCustomer(name: string): Promise<Customer> {
    const valid = validCustomerName(name);
    try {
      return this.insertCustomer(valid);
    } catch (err) {
      if ((err as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') {
        throw new KeyStoreError(`customer "${valid}" already exists`);
      }
      throw err;
    }
  }

  async getCustomer(id: string): Promise<Customer | null> {
    const row = this.sql.customerById.get(id);
    return row ? toCustomer(row) : null;
  }

  async getCustomerByName(name: string): Promise<Customer | null> {
    const row = this.sql.customerByName.get(name.trim());
    return row ? toCustomer(row) : null;
  }

  async listCustomers(): Promise<Customer[]> {
    const rows = this.db.prepare('SELECT * FROM customers ORDER BY name').all() as CustomerRow[];
    return rows.map(toCustomer);
  }

  async setCustomerLimits(customerId: string, limits: CustomerLimitChanges): Promise<Customer> {
    return this.updateCustomer(customerId, limitAssignments(validCustomerLimitChanges(limits)), false);
  }

  async setCustomerBudget(customerId: string, budget: BudgetChange | null): Promise<Customer> {
    const change = validBudgetChange(budget);
    if (change === undefined) throw new KeyStoreError('no budget change given');
    return this.updateCustomer(customerId, budgetAssignments(change), needsStoredBudget(change));
  }

  /**
   * Sets columns of a customer in one UPDATE and stamps its keys as changed, in one transaction, so caches
   * read them again. `budgetRequired`: the change keeps the stored amount, so only a customer with one.
   */
  private updateCustomer(customerId: string, assignments: Assignment[], budgetRequired: boolean): Customer {
    const { sql, values } = setClause(assignments, () => '?');
    const guard = budgetRequired ? ' AND budget_nano_usd IS NOT NULL' : '';
    const set = this.db.transaction(() => {
      const changed = this.db.prepare(`UPDATE customers SET ${sql} WHERE id = ?${guard}`).run(...values, customerId);
      if (changed.changes !== 1) {
        const row = this.sql.customerById.get(customerId);
        throw new KeyStoreError(row ? 'the customer has no budget: give an amount' : `no customer with id ${customerId}`);
      }
      // One row at a time: versions are unique, and one UPDATE of many rows reads NEXT_VERSION only once.
      const ids = this.db.prepare('SELECT id FROM api_keys WHERE customer_id = ? ORDER BY id').pluck().all(customerId) as string[];
      const stamp = this.db.prepare(`UPDATE api_keys SET version = ${NEXT_VERSION} WHERE id = ?`);
      for (const id of ids) stamp.run(id);
      return toCustomer(this.sql.customerById.get(customerId) as CustomerRow);
    });
    return set.immediate();
  }

  async createKey(input: NewKey): Promise<{ record: KeyRecord; key: string }> {
    const settings = validateKeySettings(input);
    const { key, publicId, secret } = generateKey();
    // IMMEDIATE: the write lock is taken before the count, so no other creation (in any process) can
    // slip in between the count and the insert.
    const create = this.db.transaction(() => {
      const customer = this.customerFor(input);
      if (input.maxActiveKeys) checkKeyCap(customer.name, this.activeKeysOf(customer.id), input.maxActiveKeys);
      this.db
        .prepare(
          `INSERT INTO api_keys (id, customer_id, name, prefix, secret_hash, created_at, expires_at,
             allowed_models, rpm, tpm, budget_nano_usd, budget_period, budget_mode, status, version)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'active', ${NEXT_VERSION})`,
        )
        .run(
          publicId,
          customer.id,
          settings.name,
          displayPrefix(publicId),
          hashSecret(secret),
          new Date().toISOString(),
          settings.expiresAt,
          settings.allowedModels === null ? null : JSON.stringify(settings.allowedModels),
          settings.rpm,
          settings.tpm,
          ...budgetColumns(settings.budget),
        );
      return toRecord(this.sql.keyById.get(publicId) as KeyRow);
    });
    return { record: create.immediate(), key };
  }

  async listKeys(filter: { customerId?: string } = {}): Promise<KeyRecord[]> {
    const rows = (
      filter.customerId === undefined
        ? this.db.prepare(`${SELECT_KEYS} ORDER BY k.created_at, k.id`).all()
        : this.db.prepare(`${SELECT_KEYS} WHERE k.customer_id = ? ORDER BY k.created_at, k.id`).all(filter.customerId)
    ) as KeyRow[];
    return rows.map(toRecord);
  }

  async getKey(id: string): Promise<KeyRecord | null> {
    const row = this.sql.keyById.get(id);
    return row ? toRecord(row) : null;
  }

  async updateKey(id: string, changes: KeyChanges): Promise<KeyRecord | null> {
    const valid = validateKeyChanges(changes);
    const { sql, values } = setClause(keyAssignments(valid, (ids) => JSON.stringify(ids)), () => '?');
    const guard = needsStoredBudget(valid.budget) ? ' AND budget_nano_usd IS NOT NULL' : '';
    const update = this.db.transaction(() => {
      const changed = this.db
        .prepare(`UPDATE api_keys SET ${sql}, version = ${NEXT_VERSION} WHERE id = ? AND status = 'active'${guard}`)
        .run(...values, id);
      const row = this.sql.keyById.get(id);
      if (changed.changes === 1) return toRecord(row as KeyRow);
      if (row === undefined) return null;
      throw editRefusal(toRecord(row));
    });
    return update.immediate();
  }

  async revokeKey(id: string): Promise<boolean> {
    const result = this.db
      .prepare(
        `UPDATE api_keys SET status = 'revoked', revoked_at = ?, version = ${NEXT_VERSION}
         WHERE id = ? AND status = 'active'`,
      )
      .run(new Date().toISOString(), id);
    return result.changes === 1;
  }

  async findByPublicId(publicId: string): Promise<KeyChange | null> {
    const row = this.sql.keyById.get(publicId);
    return row ? toChange(row) : null;
  }

  async changesSince(version: number): Promise<{ rows: KeyChange[]; maxVersion: number }> {
    const rows = this.sql.changesSince.all(version).map(toChange);
    const maxVersion = rows.length === 0 ? version : rows[rows.length - 1].version;
    return { rows, maxVersion };
  }

  async touchLastUsed(entries: LastUse[]): Promise<void> {
    this.writeLastUsed(entries);
  }

  private activeKeysOf(customerId: string): number {
    return this.db.prepare("SELECT count(*) FROM api_keys WHERE customer_id = ? AND status = 'active'").pluck().get(customerId) as number;
  }

  /** Inside the createKey transaction: the named customer is created when new; a given id must exist. */
  private customerFor(input: NewKey): Customer {
    if (input.customerId !== undefined) {
      const row = this.sql.customerById.get(input.customerId);
      if (!row) throw new KeyStoreError(`no customer with id ${input.customerId}`);
      return toCustomer(row);
    }
    if (input.customerName === undefined) throw new KeyStoreError('a key needs a customer');
    const name = validCustomerName(input.customerName);
    const row = this.sql.customerByName.get(name);
    return row ? toCustomer(row) : this.insertCustomer(name);
  }

  private insertCustomer(name: string): Customer {
    const customer = { id: `cus_${randomBase62(16)}`, name, createdAt: new Date().toISOString(), rpm: null, tpm: null, budget: null };
    this.sql.insertCustomer.run(customer.id, customer.name, customer.createdAt);
    return customer;
  }
}
