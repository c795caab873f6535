// Dashboard users in SQLite.
import type { Statement } from 'better-sqlite3';
import { newUserId, UserExistsError, type DashboardUser, type UserCredentials, type UserStore } from '../user-store.js';
import type { Db } from './open.js';

interface UserRow {
  id: string;
  customer_id: string;
  email: string;
  password_hash: string;
  created_at: string;
  last_sign_in_at: string | null;
}

function toUser(row: UserRow): DashboardUser {
  return { id: row.id, customerId: row.customer_id, email: row.email, createdAt: row.created_at, lastSignInAt: row.last_sign_in_at };
}

export class SqliteUserStore implements UserStore {
  private readonly sql: {
    insert: Statement<[string, string, string, string, string]>;
    byEmail: Statement<[string], UserRow>;
    byId: Statement<[string], UserRow>;
    byCustomer: Statement<[string], UserRow>;
    remove: Statement<[string]>;
    signedIn: Statement<[string, string]>;
    replaceHash: Statement<[string, string, string]>;
  };

  constructor(db: Db) {
    this.sql = {
      insert: db.prepare('INSERT INTO dashboard_users (id, customer_id, email, password_hash, created_at) VALUES (?, ?, ?, ?, ?)'),
      byEmail: db.prepare('SELECT * FROM dashboard_users WHERE email = ?'),
      byId: db.prepare('SELECT * FROM dashboard_users WHERE id = ?'),
      byCustomer: db.prepare('SELECT * FROM dashboard_users WHERE customer_id = ? ORDER BY email'),
      remove: db.prepare('DELETE FROM dashboard_users WHERE id = ?'),
      signedIn: db.prepare('UPDATE dashboard_users SET last_sign_in_at = ? WHERE id = ?'),
      replaceHash: db.prepare('UPDATE dashboard_users SET password_hash = ? WHERE id = ? AND password_hash = ?'),
    };
  }

  /** The email must be normalised by the caller (see normaliseEmail); emails are unique across customers. */
  async create(customerId: string, email: string, passwordHash: string): Promise<DashboardUser> {
    const id = newUserId();
    try {
      this.sql.insert.run(id, customerId, email, passwordHash, new Date().toISOString());
    } catch (err) {
      if ((err as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') throw new UserExistsError(`a user with email ${email} already exists`);
      throw err;
    }
    return toUser(this.sql.byId.get(id) as UserRow);
  }

  async credentialsFor(email: string): Promise<UserCredentials | null> {
    const row = this.sql.byEmail.get(email);
    return row ? { user: toUser(row), passwordHash: row.password_hash } : null;
  }

  async get(id: string): Promise<DashboardUser | null> {
    const row = this.sql.byId.get(id);
    return row ? toUser(row) : null;
  }

  async listByCustomer(customerId: string): Promise<DashboardUser[]> {
    return this.sql.byCustomer.all(customerId).map(toUser);
  }

  /** Deleting a user ends its sessions too (foreign key cascade). */
  async remove(id: string): Promise<boolean> {
    return this.sql.remove.run(id).changes === 1;
  }

  /**
   * Stores `to` only while the stored hash is still `from`, so a rehash at sign-in can never undo a
   * password change that committed meanwhile. False when it was not replaced.
   */
  async replacePasswordHash(id: string, from: string, to: string): Promise<boolean> {
    return this.sql.replaceHash.run(to, id, from).changes === 1;
  }

  async recordSignIn(id: string, at: Date): Promise<void> {
    this.sql.signedIn.run(at.toISOString(), id);
  }
}

