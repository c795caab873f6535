// Customer users: the people of one customer who sign in to the dashboard with an email and a password.
import { randomBytes } from 'node:crypto';

export interface DashboardUser {
  id: string;
  customerId: string;
  email: string;
  createdAt: string;
  lastSignInAt: string | null;
}

/** A user with the stored password hash, for the sign-in check only; never sent to a client. */
export interface UserCredentials {
  user: DashboardUser;
  passwordHash: string;
}

export class UserExistsError extends Error {
  override name = 'UserExistsError';
}

/** Dashboard users; SQLite and PostgreSQL implement it (src/stores/). */
export interface UserStore {
  /** The email must be normalised by the caller (see normaliseEmail); emails are unique across customers. */
  create(customerId: string, email: string, passwordHash: string): Promise<DashboardUser>;
  credentialsFor(email: string): Promise<UserCredentials | null>;
  get(id: string): Promise<DashboardUser | null>;
  listByCustomer(customerId: string): Promise<DashboardUser[]>;
  /** Removing a user ends its sessions too, on every instance (they live in the same database). */
  remove(id: string): Promise<boolean>;
  /**
   * Stores `to` only while the stored hash is still `from`, so a rehash at sign-in can never undo a
   * password change that committed meanwhile. False when it was not replaced.
   */
  replacePasswordHash(id: string, from: string, to: string): Promise<boolean>;
  recordSignIn(id: string, at: Date): Promise<void>;
}

/** A new user's id: 96 random bits. */
export function newUserId(): string {
  return `usr_${randomBytes(12).toString('base64url')}`;
}

const EMAIL = /^[^\s@]+@[^\s@]+$/;

/** Lower-cased and trimmed, or null when it does not look like an email address. */
export function normaliseEmail(raw: string): string | null {
  const email = raw.trim().toLowerCase();
  return email.length <= 254 && EMAIL.test(email) ? email : null;
}
