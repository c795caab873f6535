// The last-use UPDATE on one connection: the key store's, and the usage write thread's (which writes
// them off the event loop). Its own small file so the thread loads no more of the key store than this.
import type { Db } from './open.js';
import type { LastUse } from '../../keys/key-store.js';

/** Writes last-use times in one transaction, done when it returns; a time never moves backwards. */
export function lastUsedRowsWriter(db: Db): (entries: LastUse[]) => void {
  const touch = db.prepare<[string, string, string]>(
    'UPDATE api_keys SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at < ?)',
  );
  const writeAll = db.transaction((entries: LastUse[]) => {
    for (const { id, at } of entries) {
      const iso = new Date(at).toISOString();
      touch.run(iso, id, iso);
    }
  });
  return (entries) => {
    if (entries.length > 0) writeAll(entries);
  };
}
