// A key holder sending many distinct multi-megabyte model names leaves almost nothing behind: client
// strings are clipped before they are logged or cached, and every cache keyed by them is bounded in
// bytes. Measured as the heap after full garbage collections, before and after the flood.
import t from 'tap';
import { CLIP_MARKER } from '../../../src/lib/json/clip-text.js';
import { startHarness } from '../../helpers/harness.js';
import { bearer, call } from '../../helpers/http.js';
import { sample } from '../../soak/memory.js';

const NAMES = 256;
const NAME_BYTES = 1024 * 1024;
const CONCURRENCY = 4;
const MAX_GROWTH_MB = 32;

t.test(`${NAMES} distinct ${NAME_BYTES / 1048576} MiB model names keep the heap within ${MAX_GROWTH_MB} MB`, async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const { key } = await h.createKey();
  const urls = [`${h.url}/gateway/v1/messages`, `${h.url}/gateway/openai/v1/chat/completions`];
  const body = (i: number, size: number) => {
    // Distinct from the first character, so no two names share a cached prefix by accident.
    const name = `${i.toString(36).padStart(4, '0')}-${'m'.repeat(size)}`;
    return JSON.stringify({ model: name, max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] });
  };
  const answers: string[] = [];
  const send = async (i: number, size: number) => {
    const res = await call(urls[i % 2]!, { body: body(i, size), headers: bearer(key) });
    // Not in the catalogue; the error echoes a clipped name.
    if (res.status !== 404 || res.text.length > 1024) answers.push(`${res.status} ${res.text.slice(0, 200)}`);
  };

  // Warm-up: the same paths with short unknown names, so lazily built state is not counted as growth.
  for (let i = 0; i < 64; i++) await send(100_000 + i, 16);
  const before = await sample(0);

  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < NAMES) await send(next++, NAME_BYTES);
    }),
  );
  const after = await sample(NAMES);
  t.same(answers, [], 'every request was a 404 with a short body');

  const growth = after.heapUsedMb - before.heapUsedMb;
  t.ok(growth < MAX_GROWTH_MB, `heap grew ${growth.toFixed(1)} MB (${before.heapUsedMb} → ${after.heapUsedMb} MB) for ${(NAMES * NAME_BYTES) / 1048576} MiB of names`);
  const log = h.logText();
  t.ok(log.includes(CLIP_MARKER), 'the access lines carry the clipped names');
  t.ok(log.length < NAMES * 4096, `the log stays small (${log.length} bytes)`);
});
