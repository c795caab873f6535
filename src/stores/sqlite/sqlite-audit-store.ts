// The admin trail in SQLite (audit-store.ts): times in epoch milliseconds, states as JSON text.
import type { Statement } from 'better-sqlite3';
import type { AuditAction, AuditEntry, AuditQuery, AuditStore, NewAuditEntry } from '../audit-store.js';
import type { Db } from './open.js';

interface AuditRow {
  id: number;
  at: number;
  actor: string;
  address: string | null;
  action: string;
  customer_id: string | null;
  target_id: string | null;
  before_state: string | null;
  after_state: string | null;
}

function toEntry(row: AuditRow): AuditEntry {
  return {
    id: String(row.id),
    at: new Date(row.at).toISOString(),
    actor: row.actor,
    address: row.address,
    action: row.action as AuditAction,
    customerId: row.customer_id,
    targetId: row.target_id,
    before: row.before_state === null ? null : (JSON.parse(row.before_state) as AuditEntry['before']),
    after: row.after_state === null ? null : (JSON.parse(row.after_state) as AuditEntry['after']),
  };
}

const jsonOrNull = (state: NewAuditEntry['before']): string | null => (state === null ? null : JSON.stringify(state));

export class SqliteAuditStore implements AuditStore {
  private readonly sql: {
    insert: Statement<[number, string, string | null, string, string | null, string | null, string | null, string | null]>;
    deleteBefore: Statement<[number]>;
  };

  constructor(private readonly db: Db) {
    this.sql = {
      insert: db.prepare(
        'INSERT INTO audit_log (at, actor, address, action, customer_id, target_id, before_state, after_state) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      ),
      deleteBefore: db.prepare('DELETE FROM audit_log WHERE at < ?'),
    };
  }

  async append(e: NewAuditEntry): Promise<void> {
    this.sql.insert.run(e.at.getTime(), e.actor, e.address, e.action, e.customerId, e.targetId, jsonOrNull(e.before), jsonOrNull(e.after));
  }

  async list(query: AuditQuery = {}): Promise<AuditEntry[]> {
    const where: string[] = [];
    const values: Array<string | number> = [];
    if (query.sinceMs !== undefined) {
      where.push('at >= ?');
      values.push(query.sinceMs);
    }
    if (query.customerId !== undefined) {
      where.push('customer_id = ?');
      values.push(query.customerId);
    }
    const limit = query.limit === undefined ? '' : ` LIMIT ${Math.max(0, Math.floor(query.limit))}`;
    const sql = `SELECT * FROM audit_log${where.length === 0 ? '' : ` WHERE ${where.join(' AND ')}`} ORDER BY at DESC, id DESC${limit}`;
    return (this.db.prepare(sql).all(...values) as AuditRow[]).map(toEntry);
  }

  async deleteOlderThan(cutoff: Date): Promise<number> {
    return this.sql.deleteBefore.run(cutoff.getTime()).changes;
  }
}
