// `model-gateway migrate`: applies the database's pending migrations and says in one line what it did.
// Safe to run from several hosts at once and beside running instances (src/stores/migrate-stores.ts).
import { migrateStores } from '../../stores/migrate-stores.js';
import { parseCommandArgs, processIo, runCommand, type CliIo } from '../args.js';

export interface MigrateEnv {
  databaseUrl: string;
}

const USAGE = 'migrate';

export async function runMigrate(argv: string[], env: MigrateEnv, io: CliIo = processIo): Promise<number> {
  return runCommand(io, 'migrate', async () => {
    parseCommandArgs(argv, {}, USAGE);
    const { applied } = await migrateStores(env.databaseUrl);
    io.out(`${migrationSummary(applied)}\n`);
    return 0;
  });
}

export function migrationSummary(applied: readonly number[]): string {
  if (applied.length === 0) return 'nothing to apply';
  return `applied ${applied.length} migration${applied.length === 1 ? '' : 's'} (${applied.join(', ')})`;
}
