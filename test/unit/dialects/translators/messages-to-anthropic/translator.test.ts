// The messages surface's translator: the client's bytes go as they came; only a fallback rewrites the
// request, from the client's parsed body, for the fallback model.
import t from 'tap';
import { rawAnswerHead } from '../../../../helpers/raw-answer-head.js';
import { DEFAULT_MODELS } from '../../../../../src/catalog/model.js';
import { messagesToAnthropic } from '../../../../../src/dialects/translators/messages-to-anthropic/translator.js';

const byId = new Map(DEFAULT_MODELS.map((m) => [m.id, m]));
const sonnet = byId.get('claude-sonnet-4-6')!;
const opus = byId.get('claude-opus-4-7')!;
const translator = messagesToAnthropic;

function clientOf(text: string, query = '') {
  return { body: Buffer.from(text), json: JSON.parse(text) as Record<string, unknown>, query, strict: false, headers: {} };
}

t.test('the model asked for gets the client bytes, unchanged', async (t) => {
  // Odd spacing and member order survive: nothing is re-serialised.
  const text = '{ "model":"claude-sonnet-4-6","max_tokens":5 ,"stream":true,"messages":[{"role":"user","content":"x"}]}';
  const client = clientOf(text, '?beta=true');
  const out = translator.request(client, sonnet, false);
  if (!out.ok) throw new Error('refused');
  t.equal(out.body, client.body, 'the same Buffer');
  t.equal(out.model, 'claude-sonnet-4-6', 'the model the body names');
  t.equal(out.forwarded, true, 'headers are forwarded, not built');
  t.equal(out.stream, true);
  t.same(out.warnings, []);
});

t.test('a fallback: model replaced, unaccepted sampling fields left out, the rest kept', async (t) => {
  const text = JSON.stringify({ model: 'claude-sonnet-4-6', max_tokens: 5, temperature: 0.3, top_p: 0.9, top_k: 4, messages: [{ role: 'user', content: 'x' }] });
  const toOpus = translator.request(clientOf(text), opus, true);
  if (!toOpus.ok) throw new Error('refused');
  t.same(JSON.parse(String(toOpus.body)), { model: 'claude-opus-4-7', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] });
  const toSonnet = translator.request(clientOf(text), sonnet, true);
  if (!toSonnet.ok) throw new Error('refused');
  t.equal(JSON.parse(String(toSonnet.body)).temperature, 0.3, 'accepted fields stay');
});

t.test('a fallback keeps a __proto__ member as data', async (t) => {
  const out = translator.request(clientOf('{"__proto__":{"polluted":1},"model":"x"}'), sonnet, true);
  if (!out.ok) throw new Error('refused');
  t.equal(({} as Record<string, unknown>).polluted, undefined);
  t.match(String(out.body), /"__proto__":\{"polluted":1\}/);
});

t.test('answers pass back with the provider headers a client should see, and usage read on the side', async (t) => {
  const head = rawAnswerHead({ 'Request-Id': 'req_1', 'content-type': 'application/json', 'anthropic-ratelimit-requests-limit': '5', 'x-should-retry': ['true', 'false'] });
  const headers: Record<string, string | number | string[]> = {};
  const body = Buffer.from('{"id":"msg_1","type":"message","usage":{"input_tokens":3,"output_tokens":4}}');
  const answer = translator.success(200, body, { model: 'claude-sonnet-4-6', includeUsage: false, clientBody: null }, head, headers);
  t.equal(answer.body, body, 'the same bytes');
  t.equal(answer.usage?.input, 3);
  t.equal(answer.usage?.output, 4);
  t.same(headers, { 'request-id': 'req_1', 'content-type': 'application/json', 'x-should-retry': ['true', 'false'], 'content-length': body.length }, 'the shared account limits stay behind; a name in any case, a repeated header as a list');
});

t.test('a stream that ends before message_stop is closed with an error event; after it, nothing is owed', async (t) => {
  const head = rawAnswerHead();
  const cut = translator.stream({ model: 'm', includeUsage: false, clientBody: null }, head, {});
  const start = Buffer.from('event: message_start\ndata: {"type":"message_start","message":{"usage":{"input_tokens":2,"output_tokens":1}}}\n\n');
  t.equal(cut.chunk(start), start, 'bytes unchanged');
  t.match(cut.close('complete', null), /^event: error\n/);
  t.equal(cut.complete, false);
  t.equal(cut.usage?.input, 2);

  const whole = translator.stream({ model: 'm', includeUsage: false, clientBody: null }, head, {});
  whole.chunk(start);
  whole.chunk(Buffer.from('event: message_stop\ndata: {"type":"message_stop"}\n\n'));
  t.equal(whole.close('source_failed', new Error('reset')), '', 'a complete message owes nothing');
  t.equal(whole.complete, true);
  t.equal(whole.providerError, null);

  const erring = translator.stream({ model: 'm', includeUsage: false, clientBody: null }, head, {});
  erring.chunk(start);
  erring.chunk(Buffer.from('event: error\ndata: {"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}\n\n'));
  t.equal(erring.close('complete', null), '', 'the provider\'s error event already ended it');
  t.equal(erring.providerError, 'rate_limit_error', 'its type kept for the route');
});
