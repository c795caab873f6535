// A key's status as people are shown it. 'expired' is never stored: expiry is a date, so an active key
// becomes expired by the clock alone, and every view works it out the same way here.
import type { KeyRecord, KeyStatus } from './key-store.js';

export type ShownKeyStatus = KeyStatus | 'expired';

export function keyStatus(record: Pick<KeyRecord, 'status' | 'expiresAt'>, now: number): ShownKeyStatus {
  if (record.status === 'active' && record.expiresAt !== null && Date.parse(record.expiresAt) <= now) return 'expired';
  return record.status;
}
