// Why a key edit changed no row although the key exists, in the words both stores use: the UPDATE's
// conditions (an active key; a budget to keep the amount of) are the only ones that can fail.
import { KeyStoreError, type KeyRecord } from '../keys/key-store.js';

export function editRefusal(record: KeyRecord): KeyStoreError {
  if (record.status !== 'active') return new KeyStoreError(`key ${record.id} is revoked: it cannot be changed`);
  return new KeyStoreError(`key ${record.id} has no budget: give an amount with the period or mode`);
}
