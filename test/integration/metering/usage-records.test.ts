// Usage records from real traffic: the same tokens streamed or not, a record for a cancelled stream,
// and records that survive a graceful restart.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import t from 'tap';
import { startHarness } from '../../helpers/harness.js';
import { bearer, call, cancelMidStream } from '../../helpers/http.js';
import { waitFor } from '../../helpers/wait.js';

interface Row {
  request_id: string;
  surface: string;
  model: string;
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens: number;
  cache_write_tokens: number;
  status: number;
  outcome: string;
  key_id: string;
}

const rowsOf = (dbFile: string): Row[] => {
  const db = new Database(dbFile, { readonly: true });
  try {
    return db.prepare('SELECT * FROM usage_records ORDER BY id').all() as Row[];
  } finally {
    db.close();
  }
};

t.test('streamed and non-streamed requests of one conversation record the same tokens, on both surfaces', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const { key, id } = await h.createKey();
  // cache_control makes the simulator report cache tokens, so they are checked too.
  const messages = [{ role: 'user', content: [{ type: 'text', text: 'count my tokens please', cache_control: { type: 'ephemeral' } }] }];
  const messagesBody = (stream: boolean) => JSON.stringify({ model: 'claude-sonnet-4-6', max_tokens: 64, stream, messages });
  const chatBody = (stream: boolean) => JSON.stringify({ model: 'claude-sonnet-4-6', stream, messages: [{ role: 'user', content: 'count my tokens please' }] });
  for (const stream of [false, true]) {
    // The simulator's prompt cache is real: each pair meets it cold, so both write the same prefix.
    h.simulator.resetAccounts();
    t.equal((await call(`${h.url}/gateway/v1/messages`, { body: messagesBody(stream), headers: bearer(key) })).status, 200);
    t.equal((await call(`${h.url}/gateway/openai/v1/chat/completions`, { body: chatBody(stream), headers: bearer(key) })).status, 200);
  }
  const dbFile = join(h.dataDir, 'gateway.db');
  await waitFor(() => rowsOf(dbFile).length === 4, 30_000);
  const rows = rowsOf(dbFile);
  const tokens = (r: Row) => [r.input_tokens, r.output_tokens, r.cache_read_tokens, r.cache_write_tokens];
  const [msgPlain, chatPlain, msgStream, chatStream] = rows as [Row, Row, Row, Row];
  t.same(tokens(msgStream), tokens(msgPlain), 'messages surface: same tokens streamed and not');
  t.same(tokens(chatStream), tokens(chatPlain), 'chat surface: same tokens streamed and not');
  t.ok(msgPlain.cache_read_tokens + msgPlain.cache_write_tokens > 0, 'cache tokens are recorded');
  t.ok(rows.every((r) => r.key_id === id && r.status === 200 && r.outcome === 'ok' && r.output_tokens > 0));
  t.same(rows.map((r) => r.surface), ['messages', 'chat', 'messages', 'chat']);
});

t.test('a client that cancels mid-stream still gets a record with the tokens received', async (t) => {
  const h = await startHarness({ simulator: { replyTokens: 50000, tokensPerSecond: 400 } });
  t.teardown(() => h.close());
  const { key } = await h.createKey();
  await cancelMidStream(`${h.url}/gateway/openai/v1/chat/completions`, key, { model: 'claude-sonnet-4-6', max_tokens: 60000, stream: true, messages: [{ role: 'user', content: 'go on and on' }] });
  const dbFile = join(h.dataDir, 'gateway.db');
  await waitFor(() => rowsOf(dbFile).length === 1, 30_000);
  const [row] = rowsOf(dbFile) as [Row];
  t.equal(row.outcome, 'client_cancelled');
  t.ok(row.input_tokens > 0, 'input tokens from message_start are recorded');
});

t.test('records still in the buffer survive a graceful restart', async (t) => {
  // A flush interval far longer than the test: only the shutdown flush can write the records.
  const h = await startHarness({ env: { GATEWAY_USAGE_FLUSH_MS: '600000' } });
  const { key } = await h.createKey();
  const body = JSON.stringify({ model: 'claude-haiku-4-5-20251001', max_tokens: 32, messages: [{ role: 'user', content: 'remember me' }] });
  for (let i = 0; i < 3; i++) t.equal((await call(`${h.url}/gateway/v1/messages`, { body, headers: bearer(key) })).status, 200);
  const dbFile = join(h.dataDir, 'gateway.db');
  t.equal(rowsOf(dbFile).length, 0, 'nothing written yet');
  await h.built.close();
  t.equal(rowsOf(dbFile).length, 3, 'the shutdown flushed every pending record');
  await h.close();
});
