// Dashboard users in PostgreSQL, shared by every instance.
import { newUserId, UserExistsError, type DashboardUser, type UserCredentials, type UserStore } from '../user-store.js';
import { sqlState, UNIQUE_VIOLATION, type WatchedPool } from './pool.js';

interface UserRow {
  id: string;
  customer_id: string;
  email: string;
  password_hash: string;
  created_at: Date;
  last_sign_in_at: Date | null;
}

function toUser(row: UserRow): DashboardUser {
  return {
    id: row.id,
    customerId: row.customer_id,
    email: row.email,
    createdAt: row.created_at.toISOString(),
    lastSignInAt: row.last_sign_in_at === null ? null : row.last_sign_in_at.toISOString(),
  };
}

export class PostgresUserStore implements UserStore {
  constructor(private readonly pool: WatchedPool) {}

  async create(customerId: string, email: string, passwordHash: string): Promise<DashboardUser> {
    try {
      const { rows } = await this.pool.query<UserRow>(
        'INSERT INTO dashboard_users (id, customer_id, email, password_hash, created_at) VALUES ($1, $2, $3, $4, $5) RETURNING *',
        [newUserId(), customerId, email, passwordHash, new Date()],
      );
      return toUser(rows[0]);
    } catch (err) {
      if (sqlState(err) === UNIQUE_VIOLATION) throw new UserExistsError(`a user with email ${email} already exists`);
      throw err;
    }
  }

  async credentialsFor(email: string): Promise<UserCredentials | null> {
    const { rows } = await this.pool.query<UserRow>('SELECT * FROM dashboard_users WHERE lower(email) = lower($1)', [email]);
    return rows.length === 0 ? null : { user: toUser(rows[0]), passwordHash: rows[0].password_hash };
  }

  async get(id: string): Promise<DashboardUser | null> {
    const { rows } = await this.pool.query<UserRow>('SELECT * FROM dashboard_users WHERE id = $1', [id]);
    return rows.length === 0 ? null : toUser(rows[0]);
  }

  async listByCustomer(customerId: string): Promise<DashboardUser[]> {
    const { rows } = await this.pool.query<UserRow>('SELECT * FROM dashboard_users WHERE customer_id = $1 ORDER BY email COLLATE "C"', [customerId]);
    return rows.map(toUser);
  }

  async remove(id: string): Promise<boolean> {
    return (await this.pool.query('DELETE FROM dashboard_users WHERE id = $1', [id])).rowCount === 1;
  }

  async replacePasswordHash(id: string, from: string, to: string): Promise<boolean> {
    const result = await this.pool.query('UPDATE dashboard_users SET password_hash = $1 WHERE id = $2 AND password_hash = $3', [to, id, from]);
    return result.rowCount === 1;
  }

  async recordSignIn(id: string, at: Date): Promise<void> {
    await this.pool.query('UPDATE dashboard_users SET last_sign_in_at = $1 WHERE id = $2', [at, id]);
  }
}
