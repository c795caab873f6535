import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { REPO_ROOT } from '../../helpers/repo-root.js';
import { adminTokenOf, ensureAdminToken, MIN_ADMIN_TOKEN_LENGTH } from '../../../src/config/admin-token.js';
import { ConfigError } from '../../../src/config/config-error.js';
import { loadConfig } from '../../../src/config/config.js';

const LONG_ENOUGH = 'x'.repeat(MIN_ADMIN_TOKEN_LENGTH);

/** The error `start` throws, or null. */
function refusal(start: () => unknown): Error | null {
  try {
    start();
    return null;
  } catch (err) {
    return err as Error;
  }
}

t.test('GATEWAY_ADMIN_TOKEN set but blank is kept as blank, to be refused, not read as unset', async (t) => {
  t.equal(loadConfig({}).adminToken, null);
  t.equal(loadConfig({ GATEWAY_ADMIN_TOKEN: '' }).adminToken, '');
  t.equal(loadConfig({ GATEWAY_ADMIN_TOKEN: '  \n' }).adminToken, '');
  t.equal(loadConfig({ GATEWAY_ADMIN_TOKEN: ` ${LONG_ENOUGH}\n` }).adminToken, LONG_ENOUGH);
});

t.test('a configured token shorter than 32 characters is refused', async (t) => {
  const dir = t.testdir();
  for (const token of ['', 'x', 'x'.repeat(MIN_ADMIN_TOKEN_LENGTH - 1)]) {
    const err = refusal(() => ensureAdminToken(token, dir));
    t.ok(err instanceof ConfigError, `${token.length} characters refused`);
    t.match(err?.message, /^GATEWAY_ADMIN_TOKEN is empty or shorter than 32 characters/);
  }
  t.same(ensureAdminToken(LONG_ENOUGH, dir), { token: LONG_ENOUGH, path: null, generated: false });
  t.same(readdirSync(dir), [], 'no file is generated beside a configured token');
});

t.test("a placeholder token, such as the example Secret's, cannot start a gateway (finding N5)", async (t) => {
  const dir = t.testdir();
  const secret = readFileSync(join(REPO_ROOT, 'deploy/kubernetes/secret.example.yaml'), 'utf8');
  const placeholder = /GATEWAY_ADMIN_TOKEN: (\S+)/.exec(secret)![1];
  t.ok(placeholder.length >= MIN_ADMIN_TOKEN_LENGTH, 'long enough to pass the length rule alone');
  for (const token of [placeholder, 'replace-me-with-a-long-random-admin-token', 'my-PLACEHOLDER-token-0123456789abcdef']) {
    t.match(refusal(() => ensureAdminToken(token, dir))?.message, /^GATEWAY_ADMIN_TOKEN looks like a placeholder/, token);
  }
  t.same(readdirSync(dir), [], 'nothing generated instead');
});

t.test('an empty, blank or short token file is refused, named, and left as it was', async (t) => {
  for (const content of ['', '\n', '   ', 'mgwadm_truncat']) {
    const dir = t.testdir();
    const path = join(dir, 'admin-token');
    writeFileSync(path, content, { mode: 0o600 });
    const err = refusal(() => ensureAdminToken(null, dir));
    t.ok(err instanceof ConfigError, `${JSON.stringify(content)} refused`);
    const message = err?.message ?? '';
    t.ok(message.includes(path), 'the message names the file');
    t.notOk(message.includes('\n'), 'one line');
    if (content.trim() !== '') t.notOk(message.includes(content.trim()), 'the short token itself is not repeated');
    t.equal(readFileSync(path, 'utf8'), content, 'not overwritten');
  }
});

t.test('a generated token is long, private, written whole and read back the same on the next start', async (t) => {
  const dir = join(t.testdir(), 'nested');
  const first = ensureAdminToken(null, dir);
  t.equal(first.generated, true);
  t.ok(first.token.length >= MIN_ADMIN_TOKEN_LENGTH);
  t.equal(readFileSync(first.path!, 'utf8'), `${first.token}\n`);
  t.equal(statSync(first.path!).mode & 0o777, 0o600);
  t.same(readdirSync(dir), ['admin-token'], 'no temporary file is left behind');
  const second = ensureAdminToken(null, dir);
  t.same(second, { token: first.token, path: first.path, generated: false });
});

t.test('with a PostgreSQL database the fleet shares, the token must come from GATEWAY_ADMIN_TOKEN', async (t) => {
  const dir = t.testdir({ 'admin-token': `${LONG_ENOUGH}\n` });
  const shared = (env: Record<string, string>) => loadConfig({ DATABASE_URL: 'postgres://gw@db.internal:5432/gateway', GATEWAY_DATA_DIR: dir, ...env });
  const err = refusal(() => adminTokenOf(shared({})));
  t.ok(err instanceof ConfigError);
  t.equal(err?.message, 'GATEWAY_ADMIN_TOKEN is required with a postgres:// DATABASE_URL: set it (at least 32 characters) to the same value on every instance');
  t.match(refusal(() => adminTokenOf(shared({ GATEWAY_ADMIN_TOKEN: 'short' })))?.message, /^GATEWAY_ADMIN_TOKEN is empty or shorter than 32 characters/);
  t.same(adminTokenOf(shared({ GATEWAY_ADMIN_TOKEN: LONG_ENOUGH })), { token: LONG_ENOUGH, path: null, generated: false });
  // A host's own SQLite file keeps the generated (here: existing) token file.
  t.same(adminTokenOf(loadConfig({ DATABASE_URL: `file:${join(dir, 'gateway.db')}` })), { token: LONG_ENOUGH, path: join(dir, 'admin-token'), generated: false });
});
