import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { loadGatewayKey } from '../../../../src/apps/proxy/key-source.js';
import { ProxyUsageError } from '../../../../src/apps/proxy/usage-error.js';

const KEY = 'mgw_ABCDEFGHabcdefgh_0123456789abcdefghijABCDEFGHIJ0123456789abc';

t.test('the key comes from the environment or a file', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'mgw-proxy-key-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  t.same(loadGatewayKey(null, `  ${KEY}\n`), { key: KEY, warning: null }, 'from MODEL_GATEWAY_KEY, trimmed');

  const file = join(dir, 'key');
  writeFileSync(file, `${KEY}\n`, { mode: 0o600 });
  t.same(loadGatewayKey(file, undefined), { key: KEY, warning: null }, 'from a private file');
  t.same(loadGatewayKey(file, 'mgw_other_value').key, KEY, 'an explicit --key-file wins over the variable');

  chmodSync(file, 0o644);
  const loose = loadGatewayKey(file, undefined);
  t.equal(loose.key, KEY);
  t.match(loose.warning, /other users/, 'a readable key file is worth a warning');
});

t.test('missing or malformed keys fail without echoing anything', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'mgw-proxy-key-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const empty = join(dir, 'empty');
  writeFileSync(empty, '\n');
  const wrong = join(dir, 'wrong');
  writeFileSync(wrong, 'sk-ant-api03-secretvalue\n');
  const cases: [string | null, string | undefined, RegExp][] = [
    [null, undefined, /no gateway key: set MODEL_GATEWAY_KEY/],
    [null, '   ', /no gateway key/],
    [null, 'sk-ant-api03-secretvalue', /MODEL_GATEWAY_KEY is not a gateway key/],
    [null, `${KEY}x_y`, /not a gateway key/],
    [empty, KEY, /--key-file is empty/],
    [wrong, undefined, /--key-file is not a gateway key/],
    [join(dir, 'absent'), undefined, /cannot read --key-file \(ENOENT\)/],
  ];
  for (const [file, env, reason] of cases) {
    let caught: unknown;
    try {
      loadGatewayKey(file, env);
    } catch (err) {
      caught = err;
    }
    t.type(caught, ProxyUsageError);
    t.match((caught as Error).message, reason);
    t.notMatch((caught as Error).message, /secretvalue|mgw_[A-Za-z0-9]{8}/, 'no value echoed');
  }
});
