// Opens the database for one short task (a CLI command) and always closes it afterwards.
import { openDatabase, type Db } from './open.js';

export async function withDatabase<T>(databaseUrl: string, task: (db: Db) => Promise<T>): Promise<T> {
  const db = openDatabase(databaseUrl);
  try {
    return await task(db);
  } finally {
    db.close();
  }
}
