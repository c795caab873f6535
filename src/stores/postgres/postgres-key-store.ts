// KeyStore on PostgreSQL, shared by every gateway instance. Same semantics as the SQLite store (key
// format, secret hashing, customers created on first key); the change feed differs: the cursor that
// changesSince hands back is a transaction horizon, not a row version (key-change-feed.ts says why).
import type pg from 'pg';
import { displayPrefix, generateKey, hashSecret, randomBase62 } from '../../keys/key-format.js';
import { validCustomerName, validateKeySettings } from '../../keys/key-input.js';
import { needsStoredBudget, validBudgetChange, validCustomerLimitChanges, validateKeyChanges } from '../../keys/key-changes.js';
import { budgetColumns, budgetFromColumns } from '../../keys/budget.js';
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
  type NewKey,
} from '../../keys/key-store.js';
import { budgetAssignments, keyAssignments, limitAssignments, setClause, type Assignment } from '../change-assignments.js';
import { editRefusal } from '../edit-refusal.js';
import { CHANGE_STAMP_VALUES, FEED_TRANSACTION, NOTIFY_KEY_CHANGE, READ_HORIZON, STAMP_CHANGE, nextCursor } from './key-change-feed.js';
import { inTransaction, sqlState, UNIQUE_VIOLATION, type Queryable, type WatchedPool } from './pool.js';

interface CustomerRow {
  id: string;
  name: string;
  created_at: Date;
  /** bigint columns arrive as text from node-postgres. */
  rpm: string | null;
  tpm: string | null;
  budget_nano_usd: string | null;
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
  created_at: Date;
  last_used_at: Date | null;
  expires_at: Date | null;
  allowed_models: string[] | null;
  /** bigint columns arrive as text from node-postgres. */
  rpm: string | null;
  tpm: string | null;
  status: 'active' | 'revoked';
  revoked_at: Date | null;
  version: string;
  customer_rpm: string | null;
  customer_tpm: string | null;
  budget_nano_usd: string | null;
  budget_period: string | null;
  budget_mode: string | null;
  customer_budget_nano_usd: string | null;
  customer_budget_period: string | null;
  customer_budget_mode: string | null;
}

const KEY_COLUMNS = `k.id, k.customer_id, c.name AS customer_name, k.name, k.prefix, k.secret_hash, k.created_at,
  k.last_used_at, k.expires_at, k.allowed_models, k.rpm, k.tpm, k.status, k.revoked_at, k.version,
  c.rpm AS customer_rpm, c.tpm AS customer_tpm, k.budget_nano_usd, k.budget_period, k.budget_mode,
  c.budget_nano_usd AS customer_budget_nano_usd, c.budget_period AS customer_budget_period, c.budget_mode AS customer_budget_mode`;
const SELECT_KEYS = `SELECT ${KEY_COLUMNS} FROM api_keys k JOIN customers c ON c.id = k.customer_id`;
/** Byte order, as SQLite sorts text, whatever collation the database was created with. */
const BYTE_ORDER = 'COLLATE "C"';

const iso = (d: Date | null): string | null => (d === null ? null : d.toISOString());
const count = (n: string | null): number | null => (n === null ? null : Number(n));

function toCustomer(row: CustomerRow): Customer {
  return {
    id: row.id,
    name: row.name,
    createdAt: row.created_at.toISOString(),
    rpm: count(row.rpm),
    tpm: count(row.tpm),
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
    createdAt: row.created_at.toISOString(),
    lastUsedAt: iso(row.last_used_at),
    expiresAt: iso(row.expires_at),
    allowedModels: row.allowed_models,
    rpm: count(row.rpm),
    tpm: count(row.tpm),
    status: row.status,
    revokedAt: iso(row.revoked_at),
    customerRpm: count(row.customer_rpm),
    customerTpm: count(row.customer_tpm),
    budget: budgetFromColumns(row.budget_nano_usd, row.budget_period, row.budget_mode),
    customerBudget: budgetFromColumns(row.customer_budget_nano_usd, row.customer_budget_period, row.customer_budget_mode),
  };
}

function toChange(row: KeyRow): KeyChange {
  return { record: toRecord(row), secretHash: row.secret_hash, version: Number(row.version) };
}

/** The latest time per key, in id order: one row per key in the UPDATE, and every instance locks rows in the same order. */
export function lastUseUpdates(entries: ReadonlyArray<{ id: string; at: number }>): { ids: string[]; times: string[] } {
  const latest = new Map<string, number>();
  for (const { id, at } of entries) latest.set(id, Math.max(at, latest.get(id) ?? at));
  const ids = [...latest.keys()].sort();
  return { ids, times: ids.map((id) => new Date(latest.get(id)!).toISOString()) };
}

/**
 * The revocation statement alone, on a connection inside a transaction the caller owns; revokeKey wraps
 * it. Exposed so tests can hold two revocations open and commit them in either order.
 */
export async function revokeOn(client: Queryable, id: string, at: Date = new Date()): Promise<boolean> {
  const result = await client.query(
    `UPDATE api_keys SET status = 'revoked', revoked_at = $1, ${STAMP_CHANGE} WHERE id = $2 AND status = 'active'`,
    [at, id],
  );
  if (result.rowCount !== 1) return false;
  await client.query(NOTIFY_KEY_CHANGE);
  return true;
}

export class PostgresKeyStore implements KeyStore {
  constructor(private readonly pool: WatchedPool) {}

  async createCustomer(name: string): Promise<Customer> {
    const valid = validCustomerName(name);
    try {
      return await this.insertCustomer(this.pool, valid);
    } catch (err) {
      if (sqlState(err) === UNIQUE_VIOLATION) throw new KeyStoreError(`customer "${valid}" already exists`);
      throw err;
    }
  }

  async getCustomer(id: string): Promise<Customer | null> {
    return this.customerWhere(this.pool, 'id', id);
  }

  async getCustomerByName(name: string): Promise<Customer | null> {
    return this.customerWhere(this.pool, 'name', name.trim());
  }

  async listCustomers(): Promise<Customer[]> {
    const { rows } = await this.pool.query<CustomerRow>(`SELECT * FROM customers ORDER BY name ${BYTE_ORDER}`);
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
   * Sets columns of a customer in one UPDATE and stamps its keys as changed, in one transaction.
   * `budgetRequired`: the change keeps the stored amount, so only a customer with one.
   */
  private async updateCustomer(customerId: string, assignments: Assignment[], budgetRequired: boolean): Promise<Customer> {
    const { sql, values } = setClause(assignments, (n) => `$${n}`, 2);
    const guard = budgetRequired ? ' AND budget_nano_usd IS NOT NULL' : '';
    return inTransaction(this.pool, async (client) => {
      // FOR UPDATE, not the weaker lock the UPDATE alone takes, waits for a createKey of this customer
      // (its foreign key check holds a key-share lock) and makes later ones wait: either that key is
      // stamped below, or it is written after this commits and read with the new settings.
      await client.query('SELECT 1 FROM customers WHERE id = $1 FOR UPDATE', [customerId]);
      const { rows } = await client.query<CustomerRow>(`UPDATE customers SET ${sql} WHERE id = $1${guard} RETURNING *`, [customerId, ...values]);
      if (rows.length === 0) {
        const exists = (await this.customerWhere(client, 'id', customerId)) !== null;
        throw new KeyStoreError(exists ? 'the customer has no budget: give an amount' : `no customer with id ${customerId}`);
      }
      // The keys carry the customer's settings to every cache: stamped as changed, they are read again.
      const stamped = await client.query(`UPDATE api_keys SET ${STAMP_CHANGE} WHERE customer_id = $1`, [customerId]);
      if ((stamped.rowCount ?? 0) > 0) await client.query(NOTIFY_KEY_CHANGE);
      return toCustomer(rows[0]);
    });
  }

  async createKey(input: NewKey): Promise<{ record: KeyRecord; key: string }> {
    const settings = validateKeySettings(input);
    const { key, publicId, secret } = generateKey();
    const record = await inTransaction(this.pool, async (client) => {
      const customer = await this.customerFor(client, input);
      if (input.maxActiveKeys) await this.checkCapLocked(client, customer, input.maxActiveKeys);
      await client.query(
        `INSERT INTO api_keys (id, customer_id, name, prefix, secret_hash, created_at, expires_at, allowed_models,
           rpm, tpm, budget_nano_usd, budget_period, budget_mode, status, version, changed_xid)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, 'active', ${CHANGE_STAMP_VALUES})`,
        [
          publicId,
          customer.id,
          settings.name,
          displayPrefix(publicId),
          hashSecret(secret),
          new Date(),
          settings.expiresAt,
          settings.allowedModels,
          settings.rpm,
          settings.tpm,
          ...budgetColumns(settings.budget),
        ],
      );
      await client.query(NOTIFY_KEY_CHANGE);
      return (await this.keyRow(client, publicId)) as KeyRow;
    });
    return { record: toRecord(record), key };
  }

  async listKeys(filter: { customerId?: string } = {}): Promise<KeyRecord[]> {
    const order = `ORDER BY k.created_at, k.id ${BYTE_ORDER}`;
    const { rows } =
      filter.customerId === undefined
        ? await this.pool.query<KeyRow>(`${SELECT_KEYS} ${order}`)
        : await this.pool.query<KeyRow>(`${SELECT_KEYS} WHERE k.customer_id = $1 ${order}`, [filter.customerId]);
    return rows.map(toRecord);
  }

  async getKey(id: string): Promise<KeyRecord | null> {
    const row = await this.keyRow(this.pool, id);
    return row ? toRecord(row) : null;
  }

  async updateKey(id: string, changes: KeyChanges): Promise<KeyRecord | null> {
    const valid = validateKeyChanges(changes);
    const { sql, values } = setClause(keyAssignments(valid, (ids) => ids), (n) => `$${n}`, 2);
    const guard = needsStoredBudget(valid.budget) ? ' AND budget_nano_usd IS NOT NULL' : '';
    const row = await inTransaction(this.pool, async (client) => {
      const changed = await client.query(`UPDATE api_keys SET ${sql}, ${STAMP_CHANGE} WHERE id = $1 AND status = 'active'${guard}`, [id, ...values]);
      if (changed.rowCount === 1) await client.query(NOTIFY_KEY_CHANGE);
      return { changed: changed.rowCount === 1, row: await this.keyRow(client, id) };
    });
    if (row.changed) return toRecord(row.row as KeyRow);
    if (row.row === null) return null;
    throw editRefusal(toRecord(row.row));
  }

  async revokeKey(id: string): Promise<boolean> {
    return inTransaction(this.pool, (client) => revokeOn(client, id));
  }

  async findByPublicId(publicId: string): Promise<KeyChange | null> {
    const row = await this.keyRow(this.pool, publicId);
    return row ? toChange(row) : null;
  }

  /**
   * The rows changed by transactions between `cursor` and the horizon (key-change-feed.ts), in per-row
   * version order. The returned maxVersion is the next cursor: a transaction id, not a row version.
   */
  async changesSince(cursor: number): Promise<{ rows: KeyChange[]; maxVersion: number }> {
    return inTransaction(
      this.pool,
      async (client) => {
        const { rows: [{ horizon }] } = await client.query<{ horizon: string }>(READ_HORIZON);
        const { rows } = await client.query<KeyRow>(
          `${SELECT_KEYS} WHERE k.changed_xid > $1 AND k.changed_xid < $2 ORDER BY k.version`,
          [cursor, horizon],
        );
        return { rows: rows.map(toChange), maxVersion: nextCursor(cursor, horizon) };
      },
      FEED_TRANSACTION,
    );
  }

  async touchLastUsed(entries: Array<{ id: string; at: number }>): Promise<void> {
    if (entries.length === 0) return;
    const { ids, times } = lastUseUpdates(entries);
    await this.pool.query(
      `UPDATE api_keys k SET last_used_at = u.at
       FROM unnest($1::text[], $2::timestamptz[]) AS u(id, at)
       WHERE k.id = u.id AND (k.last_used_at IS NULL OR k.last_used_at < u.at)`,
      [ids, times],
    );
  }

  /**
   * Counts the customer's active keys under a lock of its row (FOR UPDATE, as updateCustomer takes): a
   * concurrent creation for the same customer waits here until this transaction commits, and its count
   * (a new snapshot per statement) then includes this key, so the cap holds across instances.
   */
  private async checkCapLocked(client: pg.PoolClient, customer: Customer, cap: number): Promise<void> {
    await client.query('SELECT 1 FROM customers WHERE id = $1 FOR UPDATE', [customer.id]);
    const { rows } = await client.query<{ n: number }>("SELECT count(*)::int AS n FROM api_keys WHERE customer_id = $1 AND status = 'active'", [customer.id]);
    checkKeyCap(customer.name, rows[0]!.n, cap);
  }

  private async keyRow(db: Queryable, id: string): Promise<KeyRow | null> {
    const { rows } = await db.query<KeyRow>(`${SELECT_KEYS} WHERE k.id = $1`, [id]);
    return rows[0] ?? null;
  }

  /**
   * Inside the createKey transaction: the named customer is created when new; a given id must exist. Two
   * instances creating the same new customer at once both end up with the one row (ON CONFLICT).
   */
  private async customerFor(client: pg.PoolClient, input: NewKey): Promise<Customer> {
    if (input.customerId !== undefined) {
      const customer = await this.customerWhere(client, 'id', input.customerId);
      if (!customer) throw new KeyStoreError(`no customer with id ${input.customerId}`);
      return customer;
    }
    if (input.customerName === undefined) throw new KeyStoreError('a key needs a customer');
    const name = validCustomerName(input.customerName);
    await client.query(
      'INSERT INTO customers (id, name, created_at) VALUES ($1, $2, $3) ON CONFLICT (name) DO NOTHING',
      [`cus_${randomBase62(16)}`, name, new Date()],
    );
    return (await this.customerWhere(client, 'name', name)) as Customer;
  }

  private async customerWhere(db: Queryable, column: 'id' | 'name', value: string): Promise<Customer | null> {
    const { rows } = await db.query<CustomerRow>(`SELECT * FROM customers WHERE ${column} = $1`, [value]);
    return rows.length === 0 ? null : toCustomer(rows[0]);
  }

  private async insertCustomer(db: Queryable, name: string): Promise<Customer> {
    const { rows } = await db.query<CustomerRow>(
      'INSERT INTO customers (id, name, created_at) VALUES ($1, $2, $3) RETURNING *',
      [`cus_${randomBase62(16)}`, name, new Date()],
    );
    return toCustomer(rows[0]);
  }
}
