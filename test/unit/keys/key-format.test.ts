import t from 'tap';
import {
  displayPrefix,
  generateKey,
  hashSecret,
  parseKey,
  randomBase62,
  secretMatches,
} from '../../../src/keys/key-format.js';

t.test('generated keys parse back to their parts', async (t) => {
  for (let i = 0; i < 50; i++) {
    const { key, publicId, secret } = generateKey();
    t.match(key, /^mgw_[0-9A-Za-z]{16}_[0-9A-Za-z]{43}$/);
    t.same(parseKey(key), { publicId, secret });
    t.match(publicId, /^[0-9A-Za-z]{16}$/);
  }
});

t.test('parseKey rejects everything that is not exactly the format', async (t) => {
  const { key, publicId, secret } = generateKey();
  const bad = [
    '',
    'mgw_',
    `sk-ant-${secret}`,
    `mgw_${publicId}`,
    `mgw_${publicId}_`,
    `mgw_${publicId}_${secret}x`,
    `mgw_${publicId}_${secret.slice(1)}`,
    `mgw_${publicId.slice(1)}_${secret}`,
    `MGW_${publicId}_${secret}`,
    `mgw_${publicId}_${secret.slice(0, 42)}-`,
    `mgw_${publicId}_${secret.slice(0, 42)}_`,
    ` ${key}`,
    `${key}\n`,
    `Bearer ${key}`,
  ];
  for (const raw of bad) t.equal(parseKey(raw), null, JSON.stringify(raw));
});

t.test('random base62 is uniform enough and of the asked length', async (t) => {
  const s = randomBase62(62 * 200);
  t.equal(s.length, 62 * 200);
  const counts = new Map<string, number>();
  for (const c of s) counts.set(c, (counts.get(c) ?? 0) + 1);
  t.equal(counts.size, 62, 'every character appears');
  for (const [c, n] of counts) t.ok(n > 100 && n < 320, `${c} appears ${n} times of an expected 200`);
});

t.test('the stored hash matches only the same secret', async (t) => {
  const a = generateKey();
  const b = generateKey();
  const stored = hashSecret(a.secret);
  t.equal(stored.length, 32);
  t.ok(secretMatches(a.secret, stored));
  t.notOk(secretMatches(b.secret, stored));
  t.notOk(secretMatches(a.secret, stored.subarray(0, 16)), 'a truncated hash never matches');
  t.equal(displayPrefix(a.publicId), `mgw_${a.publicId}`);
  t.notOk(displayPrefix(a.publicId).includes(a.secret.slice(0, 8)));
});
