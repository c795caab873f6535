// End to end: arbitrary Responses bodies (every item, part and tool type, near-valid and not) to a real
// gateway in front of the simulator, which validates like the provider. Every answer is a success or a
// 4xx in the chat error shape, never a 5xx; a stream ends with response.completed / .incomplete; and
// no request the translation built is refused upstream.
import fc from 'fast-check';
import t from 'tap';
import { Agent, request } from 'undici';
import { startHarness } from '../helpers/harness.js';

const PATH = '/gateway/openai/v1/responses';
const text = fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom('', ' ', 'hi', 'run: echo x', '__proto__'));
const id = fc.constantFrom('c1', 'c2', 'call|3', '', 'toolu_1');
const part = fc.oneof(
  fc.record({ type: fc.constantFrom('input_text', 'output_text', 'input_image', 'input_file', 'input_audio', 'refusal'), text }, { requiredKeys: ['type'] }),
  fc.record({ type: fc.constant('input_image'), image_url: fc.oneof(text, fc.constant('data:image/png;base64,iVBORw0KGgo='), fc.constant('https://example.com/a.png')), detail: fc.constantFrom('auto', 'high') }, { requiredKeys: ['type'] }),
  fc.record({ type: fc.constant('input_file'), file_data: fc.constantFrom('data:application/pdf;base64,JVBERi0x', 'JVBERi0x', 'x') }),
  fc.jsonValue({ maxDepth: 2 }),
);
const item = fc.oneof(
  fc.record({ type: fc.constant('message'), role: fc.constantFrom('user', 'assistant', 'system', 'developer', 'tool'), content: fc.oneof(text, fc.array(part, { maxLength: 3 })) }, { requiredKeys: ['role'] }),
  fc.record({ type: fc.constant('function_call'), call_id: id, name: fc.constantFrom('f', 'ns', 'bad name'), namespace: fc.constantFrom('ns'), arguments: fc.constantFrom('{}', '', '{"a":1}', '[1]', '{') }, { requiredKeys: ['type', 'call_id'] }),
  fc.record({ type: fc.constant('custom_tool_call'), call_id: id, name: fc.constantFrom('c', 'f'), input: text }, { requiredKeys: ['type'] }),
  fc.record({ type: fc.constantFrom('function_call_output', 'custom_tool_call_output'), call_id: id, output: fc.oneof(text, fc.array(part, { maxLength: 2 })) }, { requiredKeys: ['type'] }),
  fc.record({ type: fc.constant('reasoning'), summary: fc.constant([]), encrypted_content: fc.constantFrom('gAAA', 'mgw1.e30') }, { requiredKeys: ['type'] }),
  fc.record({ type: fc.constantFrom('item_reference', 'web_search_call', 'bogus'), id: text }),
  fc.jsonValue({ maxDepth: 2 }),
);
const tool = fc.oneof(
  fc.record({ type: fc.constant('function'), name: fc.constantFrom('f', 'g', 'bad name', ''), parameters: fc.oneof(fc.constant({ type: 'object', properties: { a: { type: 'string' } } }), fc.jsonValue({ maxDepth: 2 })), strict: fc.boolean() }, { requiredKeys: ['type'] }),
  fc.record({ type: fc.constant('custom'), name: fc.constantFrom('c', 'f'), format: fc.oneof(fc.constant({ type: 'text' }), fc.constant({ type: 'grammar', syntax: 'lark', definition: 'start: "x"' }), fc.jsonValue({ maxDepth: 1 })) }, { requiredKeys: ['type', 'name'] }),
  fc.record({ type: fc.constant('namespace'), name: fc.constantFrom('ns', 'a__b'), tools: fc.array(fc.record({ type: fc.constant('function'), name: fc.constantFrom('f', 'g') }), { maxLength: 2 }) }),
  fc.record({ type: fc.constantFrom('web_search', 'file_search', 'code_interpreter', 'local_shell', 'image_generation') }),
  fc.jsonValue({ maxDepth: 2 }),
);
const fields = fc.record(
  {
    input: fc.oneof(text, fc.array(item, { minLength: 1, maxLength: 5 }), fc.jsonValue({ maxDepth: 2 })),
    instructions: fc.oneof(text, fc.jsonValue({ maxDepth: 1 })),
    max_output_tokens: fc.oneof(fc.integer({ min: -2, max: 3000 }), fc.jsonValue({ maxDepth: 1 })),
    stream: fc.oneof(fc.boolean(), fc.jsonValue({ maxDepth: 1 })),
    temperature: fc.double({ min: -1, max: 3, noNaN: true }),
    top_p: fc.double({ min: -1, max: 2, noNaN: true }),
    tools: fc.oneof(fc.array(tool, { maxLength: 3 }), fc.jsonValue({ maxDepth: 2 })),
    tool_choice: fc.oneof(fc.constantFrom('auto', 'none', 'required'), fc.record({ type: fc.constantFrom('function', 'custom', 'web_search'), name: fc.constantFrom('f', 'c') }), fc.jsonValue({ maxDepth: 2 })),
    parallel_tool_calls: fc.oneof(fc.boolean(), fc.jsonValue({ maxDepth: 1 })),
    reasoning: fc.oneof(fc.record({ effort: fc.constantFrom('none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'), summary: fc.constantFrom('auto', 'detailed') }, { requiredKeys: [] }), fc.jsonValue({ maxDepth: 1 })),
    text: fc.oneof(fc.record({ format: fc.oneof(fc.constant({ type: 'json_schema', name: 'r', schema: { type: 'object' } }), fc.constant({ type: 'json_object' }), fc.jsonValue({ maxDepth: 1 })) }), fc.jsonValue({ maxDepth: 1 })),
    store: fc.oneof(fc.boolean(), fc.jsonValue({ maxDepth: 1 })),
    include: fc.oneof(fc.constant(['reasoning.encrypted_content']), fc.jsonValue({ maxDepth: 1 })),
    prompt_cache_key: fc.oneof(text, fc.jsonValue({ maxDepth: 1 })),
    previous_response_id: text,
    user: text,
  },
  { requiredKeys: [] },
);
const FIELD_NAMES = ['input', 'instructions', 'max_output_tokens', 'stream', 'temperature', 'top_p', 'tools', 'tool_choice', 'parallel_tool_calls', 'reasoning', 'text', 'store', 'include', 'prompt_cache_key', 'previous_response_id', 'user'];
/** A valid request with a few fields replaced by arbitrary values: most of these reach the upstream. */
const body = fc
  .tuple(fc.boolean(), fields, fc.subarray(FIELD_NAMES, { maxLength: 3 }))
  .map(([stream, f, chosen]) => {
    const out: Record<string, unknown> = { model: 'claude-sonnet-4-6', max_output_tokens: 3000, stream, input: 'hello' };
    for (const name of chosen) if (Object.hasOwn(f, name)) out[name] = (f as Record<string, unknown>)[name];
    return JSON.stringify(out);
  });

t.test('any Responses body: a success or a 4xx in the chat shape, and nothing translated is refused upstream', async (t) => {
  const h = await startHarness({ simulator: { replyTokens: 4 } });
  t.teardown(() => h.close());
  const { key } = await h.createKey();
  const client = new Agent({ connections: 4 });
  t.teardown(() => client.close());
  const statuses = new Map<number, number>();
  const rejectedUpstream: string[] = [];
  const upstreamPosts = () => h.simulator.received.filter((r) => r.method === 'POST').length;
  let seen = upstreamPosts();
  await fc.assert(
    fc.asyncProperty(body, async (payload) => {
      const res = await request(`${h.url}${PATH}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: payload, dispatcher: client });
      const answer = await res.body.text();
      if (res.statusCode >= 400 && upstreamPosts() > seen) rejectedUpstream.push(`${payload} → ${h.simulator.received.at(-1)?.body.toString('utf8')} → ${answer}`);
      seen = upstreamPosts();
      statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
      if (res.statusCode >= 500) return false;
      if (res.statusCode >= 400) {
        const e = JSON.parse(answer).error;
        return typeof e?.message === 'string' && typeof e?.type === 'string' && 'param' in e && 'code' in e;
      }
      if (String(res.headers['content-type']).startsWith('text/event-stream')) return /event: response\.(completed|incomplete)\n/.test(answer);
      return JSON.parse(answer).object === 'response';
    }),
    { numRuns: 300 },
  );
  t.same(rejectedUpstream, [], 'every translated request the upstream got was valid (the simulator validates like the provider)');
  t.pass(`answers: ${[...statuses].map(([k, n]) => `${k}×${n}`).join(', ')}`);
  t.ok((statuses.get(200) ?? 0) > 0, 'some requests succeeded');
});
