// The memos and the clip that keep client-chosen strings from pinning memory.
import t from 'tap';
import { BoundedMemo, stringBytes } from '../../../../src/lib/json/bounded-memo.js';
import { CLIP_CHARS, CLIP_MARKER, clipText } from '../../../../src/lib/json/clip-text.js';
import { QuotedCache } from '../../../../src/lib/json/quote.js';

t.test('a memo never holds more than its byte budget, however many or large the inputs', async (t) => {
  let computed = 0;
  const memo = new BoundedMemo((s) => {
    computed++;
    return `<${s}>`;
  }, 16 * 1024);
  for (let i = 0; i < 10_000; i++) memo.get(`name-${i}-${'x'.repeat(i % 300)}`);
  t.ok(memo.bytes <= 16 * 1024, `held ${memo.bytes} bytes`);
  const big = 'y'.repeat(1024 * 1024);
  t.equal(memo.get(big), `<${big}>`, 'a huge input is still answered');
  const before = computed;
  memo.get(big);
  t.equal(computed, before + 1, '...but computed again each time, never kept');
  t.ok(memo.bytes <= 16 * 1024);
});

t.test('values that repeat are computed once until the budget is spent, then the memo starts over', async (t) => {
  const calls: string[] = [];
  const memo = new BoundedMemo((s) => {
    calls.push(s);
    return s.toUpperCase();
  }, 4096);
  for (let i = 0; i < 100; i++) memo.get('model-a');
  t.same(calls, ['model-a']);
  const cost = stringBytes('model-a') * 2 + 64;
  let filler = 0;
  while (memo.bytes + cost <= 4096) memo.get(`fill${filler++}`.padEnd(7));
  const size = memo.size;
  memo.get('one-more');
  t.equal(memo.size, 1, `full at ${size} entries: emptied whole, then the new entry kept`);
  memo.get('model-a');
  t.equal(calls.filter((c) => c === 'model-a').length, 2, 'the hot value is back after one call');
});

t.test('QuotedCache quotes as JSON.stringify does, prepared first, within its budget', async (t) => {
  const cache = new QuotedCache((s) => s.replace('secret', '[redacted]'), 8192);
  t.equal(cache.literal('a "b" secret'), JSON.stringify('a "b" [redacted]'));
  for (let i = 0; i < 1000; i++) cache.literal(`${i}`.repeat(50));
  t.ok(cache.bytes <= 8192);
});

t.test('clipText keeps short text, clips long text with a marker, never splits a surrogate pair', async (t) => {
  t.equal(clipText('claude-sonnet-4-6'), 'claude-sonnet-4-6');
  const long = 'm'.repeat(5 * 1024 * 1024);
  const clipped = clipText(long);
  t.equal(clipped, 'm'.repeat(CLIP_CHARS) + CLIP_MARKER);
  const emoji = 'a'.repeat(9) + '😀' + 'b'.repeat(20);
  t.equal(clipText(emoji, 10), 'a'.repeat(9) + CLIP_MARKER, 'the pair is dropped whole');
  t.equal(JSON.stringify(clipText(emoji, 11)), JSON.stringify('a'.repeat(9) + '😀' + CLIP_MARKER));
});
