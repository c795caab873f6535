// `model-gateway serve` refuses to start with an empty or short admin token, from the environment or the
// generated file (a truncated file must not leave the admin API open), or without GATEWAY_ADMIN_TOKEN on a
// PostgreSQL database the fleet shares (each host would generate a token of its own): exit 1, one line on stderr.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { GATEWAY_MAIN, spawnNode } from '../../helpers/child-node.js';

const SHORT = 'mgwadm_0123456789abcdef01234567'; // 31 characters
const SHARED_DATABASE = 'postgres://postgres@127.0.0.1:5432/mgw_admin_token_refusal';
const SHARED_NEEDS_TOKEN = /GATEWAY_ADMIN_TOKEN is required with a postgres:\/\/ DATABASE_URL: set it \(at least 32 characters\) to the same value on every instance/;

// Each case starts a real process that compiles the gateway's sources first: slow on a busy machine.
t.setTimeout(300_000);

interface Case {
  name: string;
  /** GATEWAY_ADMIN_TOKEN, when set. */
  envToken?: string;
  /** Content of <data dir>/admin-token, when the file exists. */
  file?: string;
  args?: string[];
  /** DATABASE_URL, when not the test folder's SQLite file. */
  databaseUrl?: string;
  /** What the one line on stderr must say. */
  says: RegExp;
}

const cases: Case[] = [
  { name: 'GATEWAY_ADMIN_TOKEN set but empty', envToken: '', says: /GATEWAY_ADMIN_TOKEN is empty or shorter than 32 characters/ },
  { name: 'GATEWAY_ADMIN_TOKEN of 31 characters', envToken: SHORT, says: /GATEWAY_ADMIN_TOKEN is empty or shorter than 32 characters/ },
  { name: 'an empty admin-token file', file: '', says: /admin token file .*admin-token is empty or shorter than 32 characters/ },
  { name: 'a truncated admin-token file, several workers', file: `${SHORT}\n`, args: ['--workers', '2'], says: /admin token file .*admin-token is empty or shorter than 32 characters/ },
  // Refused before the database is touched: the URL's database need not exist.
  { name: 'GATEWAY_ADMIN_TOKEN unset, PostgreSQL', databaseUrl: SHARED_DATABASE, says: SHARED_NEEDS_TOKEN },
  { name: 'GATEWAY_ADMIN_TOKEN unset, PostgreSQL, several workers', databaseUrl: SHARED_DATABASE, args: ['--workers', '2'], says: SHARED_NEEDS_TOKEN },
];

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

function runServe(args: string[], env: Record<string, string | undefined>): Promise<Run> {
  const child = spawnNode(GATEWAY_MAIN, ['serve', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  // Should one start after all, it must not outlive the test.
  const killer = setTimeout(() => child.kill('SIGKILL'), 240_000);
  return new Promise((resolve) => {
    child.once('close', (status) => {
      clearTimeout(killer);
      resolve({ status, stdout, stderr });
    });
  });
}

// The cases run at once (each a process of its own), so the file's time is one start, not four.
t.jobs = cases.length;
for (const c of cases) {
  t.test(`serve refuses to start: ${c.name}`, { buffered: true }, async (t) => {
    const dir = t.testdir();
    const tokenFile = join(dir, 'admin-token');
    if (c.file !== undefined) writeFileSync(tokenFile, c.file, { mode: 0o600 });
    const env: Record<string, string | undefined> = {
      PATH: process.env.PATH,
      // The runner's loader setting: without it each child type-checks all it loads, minutes on a busy machine.
      TS_NODE_TRANSPILE_ONLY: process.env.TS_NODE_TRANSPILE_ONLY,
      DATABASE_URL: c.databaseUrl ?? `file:${join(dir, 'gateway.db')}`,
      GATEWAY_DATA_DIR: dir,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
    };
    if (c.envToken !== undefined) env.GATEWAY_ADMIN_TOKEN = c.envToken;
    const run = await runServe(c.args ?? [], env);
    t.equal(run.status, 1, 'exits 1');
    const lines = run.stderr.split('\n').filter((line) => line !== '');
    t.equal(lines.length, 1, `one line on stderr: ${run.stderr}`);
    t.match(lines[0], /^model-gateway: /);
    t.match(lines[0], c.says);
    t.notOk(run.stderr.includes(SHORT) || run.stdout.includes(SHORT), 'the short token is not printed');
    t.notMatch(run.stdout, /listening/, 'never listened');
    if (c.file !== undefined) t.equal(readFileSync(tokenFile, 'utf8'), c.file, 'the file is left for the operator to look at');
    else t.notOk(existsSync(tokenFile), 'no token file was generated');
  });
}
