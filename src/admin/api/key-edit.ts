// PATCH /customers/:customerId/keys/:keyId: a key's settings changed after its creation. The body names
// only what changes (a field absent is kept, null removes the setting), checked field by field with the
// rules of a new key, so a bad value is a 400 naming its field. A customer user edits only its customer's
// keys and stays within its customer's limits and budget, as at creation.
import { GatewayError } from '../../dialects/errors/codes.js';
import { BudgetError } from '../../keys/budget.js';
import { expiry, keyName } from '../../keys/key-input.js';
import { KeyStoreError, type Customer, type KeyChanges, type KeyRecord, type KeyStore } from '../../keys/key-store.js';
import type { KeyCache } from '../../keys/key-cache.js';
import { customerLimitsOf, type CustomerDefaults } from '../../keys/principal.js';
import type { Actor } from '../auth/actor.js';
import type { AuditRecorder } from '../audit/record-audit.js';
import { keyUpdated } from '../audit/audit-changes.js';
import { apiSource, recordAudit } from '../audit/record-audit.js';
import { customerOr404 } from './customer-lookup.js';
import { budgetChange, changedPositiveInteger, optionalString, optionalStringList } from './input.js';
import { assertKeyBudgetWithinCustomer } from './key-budget-ceiling.js';
import { keyLimitProblem } from './key-limits.js';
import type { ApiReply, ApiRequest } from './types.js';
import { ok } from './types.js';
import { keyView } from './views.js';

type Body = Readonly<Record<string, unknown>>;

/** What an edit needs of the key routes' dependencies (key-handlers.ts, KeyDeps). */
export interface KeyEditDeps {
  keyStore: KeyStore;
  /** This process's cache, refreshed at once after an edit (the others read the change within their refresh). */
  keyCache: Pick<KeyCache, 'refresh'>;
  customerDefaults: CustomerDefaults;
  audit: AuditRecorder;
}

const FIELDS = ['name', 'expiresAt', 'allowedModels', 'rpm', 'tpm', 'budgetUsd', 'budgetPeriod', 'budgetMode'] as const;

function invalid(param: string, message: string): GatewayError {
  return new GatewayError('invalid_request', message, { param });
}

/** A check of key-input.ts (or budget.ts) run on one field: its refusal names that field. */
function checked<T>(param: string, check: () => T): T {
  try {
    return check();
  } catch (err) {
    if (err instanceof KeyStoreError || err instanceof BudgetError) throw invalid(param, `${err.message}.`);
    throw err;
  }
}

/** The changes a PATCH body asks for; `modelId` turns a model name into its catalogue id (or refuses it). */
export function keyChangesFromBody(body: Body, modelId: (name: string) => string, now: number = Date.now()): KeyChanges {
  const unknown = Object.keys(body).find((k) => !(FIELDS as readonly string[]).includes(k));
  if (unknown !== undefined) throw invalid(unknown.slice(0, 100), `${unknown.slice(0, 100)} is not a key setting; these are: ${FIELDS.join(', ')}.`);
  const present = (param: string) => body[param] !== undefined;
  const changes: KeyChanges = {};
  if (present('name')) changes.name = checked('name', () => keyName(optionalString(body, 'name', 200)));
  if (present('expiresAt')) changes.expiresAt = checked('expiresAt', () => expiry(optionalString(body, 'expiresAt', 64), now));
  if (present('allowedModels')) changes.allowedModels = optionalStringList(body, 'allowedModels', 200)?.map(modelId) ?? null;
  if (present('rpm')) changes.rpm = changedPositiveInteger(body, 'rpm');
  if (present('tpm')) changes.tpm = changedPositiveInteger(body, 'tpm');
  const budget = budgetChange(body, 'budget');
  if (budget !== undefined) changes.budget = budget;
  if (Object.keys(changes).length === 0) throw new GatewayError('invalid_request', `Nothing to change: give at least one of ${FIELDS.join(', ')}.`);
  return changes;
}

/** What a customer user may not do to its key: go past its customer's limits or budget (403, as at creation). */
function checkCustomerCeiling(deps: KeyEditDeps, actor: Actor, before: KeyRecord, changes: KeyChanges, customer: Customer): void {
  if (changes.rpm !== undefined || changes.tpm !== undefined) {
    const limits = { rpm: changes.rpm === undefined ? before.rpm : changes.rpm, tpm: changes.tpm === undefined ? before.tpm : changes.tpm };
    const problem = keyLimitProblem(limits, customerLimitsOf(customer, customer.name, deps.customerDefaults));
    if (problem !== null) throw new GatewayError('forbidden', problem.message, { param: problem.param });
  }
  assertKeyBudgetWithinCustomer(actor, changes.budget ?? null, customer.budget);
}

/** The admin API's key edit: checked, stored in one statement, applied by this instance at once, one audit row. */
export async function editKey(deps: KeyEditDeps, req: ApiRequest, modelId: (name: string) => string): Promise<ApiReply> {
  const customer = await customerOr404(deps.keyStore, req.params.customerId);
  const before = await deps.keyStore.getKey(req.params.keyId);
  // A key of another customer is "not found" here, exactly like a key that does not exist.
  if (before === null || before.customerId !== customer.id) throw new GatewayError('not_found', 'No such key.');
  if (before.status !== 'active') throw new GatewayError('conflict', 'This key is revoked: it cannot be changed.');
  const changes = keyChangesFromBody(req.body, modelId);
  if (req.actor?.role === 'customer') checkCustomerCeiling(deps, req.actor, before, changes, customer);
  let after: KeyRecord | null;
  try {
    after = await deps.keyStore.updateKey(before.id, changes);
  } catch (err) {
    // What only the stored row can tell (revoked meanwhile, no budget to change the period of).
    if (err instanceof KeyStoreError) throw new GatewayError('invalid_request', err.message);
    throw err;
  }
  if (after === null) throw new GatewayError('not_found', 'No such key.');
  await deps.keyCache.refresh();
  await recordAudit(deps.audit, apiSource(req), keyUpdated(before, after));
  return ok({ key: keyView(after) });
}
