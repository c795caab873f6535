// The one way a change is written to the admin trail, whichever door it came through (the command line,
// the admin API, the dashboard): the caller names who and from where (an AuditSource), what was done and
// the states before and after, built by ./audit-states.ts from an allow-list of fields, never a secret.
// A row is appended right after its change commits, in the same database; should that write fail, the call
// reports the failure (the change itself stands).
import { hostname } from 'node:os';
import type { AuditAction, AuditState, AuditStore } from '../../stores/audit-store.js';
import type { ApiRequest } from '../api/types.js';
import type { Actor } from '../auth/actor.js';

/** Who made a change and from which address. */
export interface AuditSource {
  actor: string;
  address: string | null;
}

export interface AuditChange {
  action: AuditAction;
  customerId: string | null;
  targetId: string | null;
  before?: AuditState | null;
  after?: AuditState | null;
}

export type AuditRecorder = Pick<AuditStore, 'append'>;

export async function recordAudit(store: AuditRecorder, source: AuditSource, change: AuditChange, at: Date = new Date()): Promise<void> {
  await store.append({
    at,
    actor: source.actor,
    address: source.address,
    action: change.action,
    customerId: change.customerId,
    targetId: change.targetId,
    before: change.before ?? null,
    after: change.after ?? null,
  });
}

/** The operator (whoever holds the admin token) or the customer user, by e-mail. */
export function actorName(actor: Actor): string {
  return actor.role === 'operator' ? 'operator' : actor.email;
}

/** A call of the admin API (the dashboard's included), by a signed-in caller. */
export function apiSource(req: Pick<ApiRequest, 'actor' | 'address'>): AuditSource {
  return { actor: req.actor === null ? 'anonymous' : actorName(req.actor), address: req.address };
}

/** A command of the CLI: whoever can run it on this host holds the database, so the host is the actor. */
export function cliSource(host: string = hostname()): AuditSource {
  return { actor: `cli@${host}`, address: null };
}
