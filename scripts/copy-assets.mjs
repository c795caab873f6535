// Copies non-TypeScript runtime assets (SQL migrations, dashboard static files) next to the compiled JS.
import { cpSync, existsSync } from 'node:fs';
const pairs = [
  ['src/stores/sqlite/migrations', 'dist/src/stores/sqlite/migrations'],
  ['src/admin/static', 'dist/src/admin/static'],
  ['src/stores/postgres/migrations', 'dist/src/stores/postgres/migrations'],
];
for (const [from, to] of pairs) if (existsSync(from)) cpSync(from, to, { recursive: true });
