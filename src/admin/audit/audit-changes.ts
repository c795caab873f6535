// The changes the admin trail records, one builder each, shared by the command line and the admin API
// so both write the same row for the same change. The states kept before and after are the fields an
// operator reads to see what changed, picked one by one, so a secret, a hash or a password can never slip
// in with a record that gains a field later.
import type { Customer, KeyRecord } from '../../keys/key-store.js';
import { budgetView } from '../../policy/budgets/budget-view.js';
import type { AuditState } from '../../stores/audit-store.js';
import type { DashboardUser } from '../../stores/user-store.js';
import type { AuditChange } from './record-audit.js';

/** A key's settings (its prefix is public: the CLI lists it); the stored status, not "expired" as of now. */
function keyState(k: KeyRecord): AuditState {
  return {
    name: k.name,
    prefix: k.prefix,
    expiresAt: k.expiresAt,
    allowedModels: k.allowedModels,
    rpm: k.rpm,
    tpm: k.tpm,
    budget: budgetView(k.budget),
    status: k.status,
  };
}

function customerState(c: Customer): AuditState {
  return { name: c.name, rpm: c.rpm, tpm: c.tpm, budget: budgetView(c.budget) };
}

export function keyCreated(k: KeyRecord): AuditChange {
  return { action: 'key.create', customerId: k.customerId, targetId: k.id, after: keyState(k) };
}

/**
 * A key's settings changed (a hook for `keys update` and the API's PATCH, which another branch adds:
 * record this with the key as read before the change and as stored after it).
 */
export function keyUpdated(before: KeyRecord, after: KeyRecord): AuditChange {
  return { action: 'key.update', customerId: before.customerId, targetId: before.id, before: keyState(before), after: keyState(after) };
}

export function keyRevoked(before: KeyRecord, after: KeyRecord): AuditChange {
  return { action: 'key.revoke', customerId: before.customerId, targetId: before.id, before: keyState(before), after: keyState(after) };
}

export function customerCreated(c: Customer): AuditChange {
  return { action: 'customer.create', customerId: c.id, targetId: c.id, after: customerState(c) };
}

export function customerLimitsChanged(before: Customer, after: Customer): AuditChange {
  return { action: 'customer.limits', customerId: before.id, targetId: before.id, before: { rpm: before.rpm, tpm: before.tpm }, after: { rpm: after.rpm, tpm: after.tpm } };
}

export function customerBudgetChanged(before: Customer, after: Customer): AuditChange {
  return { action: 'customer.budget', customerId: before.id, targetId: before.id, before: { budget: budgetView(before.budget) }, after: { budget: budgetView(after.budget) } };
}

export function userCreated(u: DashboardUser): AuditChange {
  return { action: 'user.create', customerId: u.customerId, targetId: u.id, after: { email: u.email } };
}

export function userDeleted(u: DashboardUser): AuditChange {
  return { action: 'user.delete', customerId: u.customerId, targetId: u.id, before: { email: u.email } };
}

/** That the password changed, never to what; how many other sessions of the user it ended. */
export function passwordChanged(u: DashboardUser, otherSessionsEnded: number): AuditChange {
  return { action: 'user.password', customerId: u.customerId, targetId: u.id, after: { otherSessionsEnded } };
}
