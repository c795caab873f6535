// The admin trail in PostgreSQL (audit-store.ts), shared by every instance: states as jsonb.
import type { AuditAction, AuditEntry, AuditQuery, AuditStore, NewAuditEntry } from '../audit-store.js';
import type { WatchedPool } from './pool.js';

interface AuditRow {
  id: string;
  at: Date;
  actor: string;
  address: string | null;
  action: string;
  customer_id: string | null;
  target_id: string | null;
  before_state: AuditEntry['before'];
  after_state: AuditEntry['after'];
}

function toEntry(row: AuditRow): AuditEntry {
  return {
    id: String(row.id),
    at: row.at.toISOString(),
    actor: row.actor,
    address: row.address,
    action: row.action as AuditAction,
    customerId: row.customer_id,
    targetId: row.target_id,
    before: row.before_state,
    after: row.after_state,
  };
}

const jsonOrNull = (state: NewAuditEntry['before']): string | null => (state === null ? null : JSON.stringify(state));

export class PostgresAuditStore implements AuditStore {
  constructor(private readonly pool: WatchedPool) {}

  async append(e: NewAuditEntry): Promise<void> {
    await this.pool.query(
      `INSERT INTO audit_log (at, actor, address, action, customer_id, target_id, before_state, after_state)
       VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8::jsonb)`,
      [e.at, e.actor, e.address, e.action, e.customerId, e.targetId, jsonOrNull(e.before), jsonOrNull(e.after)],
    );
  }

  async list(query: AuditQuery = {}): Promise<AuditEntry[]> {
    const where: string[] = [];
    const values: Array<Date | string | number> = [];
    if (query.sinceMs !== undefined) {
      values.push(new Date(query.sinceMs));
      where.push(`at >= $${values.length}`);
    }
    if (query.customerId !== undefined) {
      values.push(query.customerId);
      where.push(`customer_id = $${values.length}`);
    }
    if (query.limit !== undefined) values.push(Math.max(0, Math.floor(query.limit)));
    const limit = query.limit === undefined ? '' : ` LIMIT $${values.length}`;
    const sql = `SELECT * FROM audit_log${where.length === 0 ? '' : ` WHERE ${where.join(' AND ')}`} ORDER BY at DESC, id DESC${limit}`;
    return (await this.pool.query<AuditRow>(sql, values)).rows.map(toEntry);
  }

  async deleteOlderThan(cutoff: Date): Promise<number> {
    return (await this.pool.query('DELETE FROM audit_log WHERE at < $1', [cutoff])).rowCount ?? 0;
  }
}
