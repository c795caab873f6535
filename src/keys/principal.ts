// Who a request acts for once its key is accepted; built once per key version and shared by every request.
import type { KeyRecord } from './key-store.js';

export interface Principal {
  keyId: string;
  customerId: string;
  customerName: string;
  /** null: every model in the catalogue. */
  allowedModels: ReadonlySet<string> | null;
  rpm: number | null;
  tpm: number | null;
}

export function principalOf(record: KeyRecord): Principal {
  return Object.freeze({
    keyId: record.id,
    customerId: record.customerId,
    customerName: record.customerName,
    allowedModels: record.allowedModels === null ? null : new Set(record.allowedModels),
    rpm: record.rpm,
    tpm: record.tpm,
  });
}

/** The key's allow-list, by catalogue id. No principal (a route that authenticates no key) limits nothing. */
export function mayUseModel(principal: Principal | null, modelId: string): boolean {
  return principal === null || principal.allowedModels === null || principal.allowedModels.has(modelId);
}
