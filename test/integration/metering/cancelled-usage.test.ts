// Finding N3: a stream the client cancels was metered at what the provider had reported when the client
// left (1 output token after 150 text deltas), and the tenant kept the text. Now it is metered at least at
// what was relayed: the output estimated from the text deltas relayed, the row marked as an estimate, and
// the budget settled at it.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import t from 'tap';
import { rawAnswerHead } from '../../helpers/raw-answer-head.js';
import { request } from 'undici';
import { startHarness } from '../../helpers/harness.js';
import { bearer } from '../../helpers/http.js';
import { waitFor } from '../../helpers/wait.js';
import { RelayedOutput } from '../../../src/dialects/anthropic/relayed-output.js';
import { cancelledUsage } from '../../../src/metering/cancelled-usage.js';
import { chatToAnthropic } from '../../../src/dialects/translators/chat-to-anthropic/translator.js';
import { messagesToAnthropic } from '../../../src/dialects/translators/messages-to-anthropic/translator.js';
import { responsesToAnthropic } from '../../../src/dialects/translators/responses-to-anthropic/translator.js';

const MODEL = 'claude-sonnet-4-6';

interface Row {
  output_tokens: number;
  input_tokens: number;
  cost_nano_usd: number;
  outcome: string;
  estimated: number;
}

/** Reads the stream until `deltas` text deltas came, then leaves: the characters of text received. */
async function readThenLeave(url: string, key: string, deltas: number): Promise<number> {
  const controller = new AbortController();
  const body = JSON.stringify({ model: MODEL, max_tokens: 4000, stream: true, messages: [{ role: 'user', content: 'write a lot' }] });
  const res = await request(url, { method: 'POST', headers: { ...bearer(key), 'content-type': 'application/json' }, body, signal: controller.signal });
  let text = '';
  let seen = 0;
  let chars = 0;
  for await (const chunk of res.body) {
    text += (chunk as Buffer).toString('utf8');
    let nl: number;
    while ((nl = text.indexOf('\n')) >= 0) {
      const line = text.slice(0, nl);
      text = text.slice(nl + 1);
      if (!line.startsWith('data: ')) continue;
      const event = JSON.parse(line.slice(6)) as { type: string; delta?: { type: string; text?: string } };
      if (event.type === 'content_block_delta' && event.delta?.type === 'text_delta') {
        seen++;
        chars += event.delta.text!.length;
      }
    }
    if (seen >= deltas) break;
  }
  controller.abort();
  return chars;
}

t.test('a stream cancelled after 150 text deltas is metered at the output relayed, marked as an estimate, and its budget settles at it', async (t) => {
  // A long reply, paced, so the client leaves long before the provider's final usage.
  const h = await startHarness({ simulator: { replyTokens: 3000, tokensPerSecond: 400 } });
  t.teardown(() => h.close());
  const amount = 1_000_000_000;
  const { key } = await h.createKey({ budget: { amountNanoUsd: amount, period: 'month', mode: 'hard' } });
  const chars = await readThenLeave(`${h.url}/gateway/v1/messages`, key, 150);
  t.ok(chars > 150, `the client received ${chars} characters of text`);

  const db = new Database(join(h.dataDir, 'gateway.db'), { readonly: true });
  t.teardown(() => db.close());
  let row: Row | undefined;
  await waitFor(() => {
    row = db.prepare("SELECT * FROM usage_records WHERE outcome = 'client_cancelled'").get() as Row | undefined;
    return row !== undefined;
  }, 10_000);
  t.ok(row!.output_tokens >= Math.ceil(chars / 4), `metered at ${row!.output_tokens} output tokens, at least the ${Math.ceil(chars / 4)} relayed`);
  t.ok(row!.output_tokens < 3000, 'not the whole reply: what was relayed');
  t.equal(row!.estimated, 1, 'the row says it is an estimate');
  t.equal(row!.cost_nano_usd, row!.input_tokens * 3000 + row!.output_tokens * 15_000, 'priced at the estimate');

  // The budget settled at the same cost: the next answer's remaining header counts it.
  const next = await request(`${h.url}/gateway/v1/messages`, {
    method: 'POST',
    headers: { ...bearer(key), 'content-type': 'application/json' },
    body: JSON.stringify({ model: MODEL, max_tokens: 1, messages: [{ role: 'user', content: 'hi' }] }),
  });
  await next.body.text();
  const remaining = Math.round(Number(next.headers['x-gateway-budget-remaining']) * 1e9);
  t.ok(remaining <= amount - row!.cost_nano_usd, `the budget counts the estimated cost (${remaining} left)`);
});

t.test("each surface's stream counts the text, thinking and tool-argument deltas it relayed, across chunk boundaries; cancelledUsage keeps the larger count", async (t) => {
  const stream =
    'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_1","usage":{"input_tokens":9,"output_tokens":1}}}\n\n' +
    'event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":""}}\n\n' +
    'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"abcdefgh"}}\n\n' +
    'event: content_block_delta\ndata: {"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"hello world!"}}\r\n\r\n' +
    'event: content_block_delta\ndata: {"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":"{\\"a\\":1}"}}\n\n' +
    'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"xyz"}}\n\n' +
    // Not yet closed by its blank line: an event counts once it is whole.
    'event: content_block_delta\ndata: {"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"unfinished"}}\n';
  const bytes = Buffer.from(stream);
  const head = rawAnswerHead();
  const meta = { model: MODEL, includeUsage: false, clientBody: {} };
  for (const translator of [messagesToAnthropic, chatToAnthropic, responsesToAnthropic]) {
    for (const size of [1, 7, 64, bytes.length]) {
      const translation = translator.stream(meta, head, {});
      for (let i = 0; i < bytes.length; i += size) translation.chunk(bytes.subarray(i, i + size));
      t.equal(translation.relayedTokens, Math.ceil((8 + 12 + 9) / 4), `${translator.client}: chunks of ${size} bytes`);
    }
  }
  const counter = new RelayedOutput();
  counter.event('{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"abcd"}}');
  counter.event('{"type":"message_delta","delta":{"text":"not a content delta"}}');
  t.equal(counter.chars, 4, 'only content_block_delta events count');
  const usage = { input: 9, output: 1, cacheRead: 0, cacheWrite: 0 };
  t.same(cancelledUsage(usage, 8, 100), { usage: { ...usage, output: 8 }, estimated: true });
  t.same(cancelledUsage({ ...usage, output: 20 }, 8, 100), { usage: { ...usage, output: 20 }, estimated: false }, 'the provider said more: its count stands');
  t.same(cancelledUsage(null, 8, 100), { usage: { input: 100, output: 8, cacheRead: 0, cacheWrite: 0 }, estimated: true }, 'no usage at all: input from the estimate');
});
