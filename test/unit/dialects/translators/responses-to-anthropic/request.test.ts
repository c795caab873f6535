// The Responses request translation, table-driven: every input item, content part and tool type, the
// stateless parameters, and a clear 400 naming the parameter for each malformed item or tool.
import t from 'tap';
import type { ModelTraits } from '../../../../../src/dialects/model-traits.js';
import { translateResponsesRequest } from '../../../../../src/dialects/translators/responses-to-anthropic/request.js';
import { encodeThinking } from '../../../../../src/dialects/translators/responses-to-anthropic/thinking-carrier.js';

const SONNET: ModelTraits = { id: 'claude-sonnet-4-6', defaultMaxTokens: 4096, maxOutputTokens: 64000, accepts: { temperature: true, topP: true, topK: true } };
const OPUS: ModelTraits = { id: 'claude-opus-4-7', defaultMaxTokens: 4096, maxOutputTokens: 128000, accepts: { temperature: false, topP: false, topK: false } };
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

function ok(body: Record<string, unknown>, model = SONNET, options: { strict?: boolean; sessionHeader?: string } = {}) {
  const r = translateResponsesRequest({ model: model.id, ...body }, model, { strict: options.strict ?? false, sessionHeader: options.sessionHeader });
  if (!r.ok) throw new Error(`refused: ${r.message} (${r.param})`);
  return r;
}

function refused(body: Record<string, unknown>, model = SONNET) {
  const r = translateResponsesRequest({ model: model.id, ...body }, model, { strict: false });
  if (r.ok) throw new Error('expected a refusal');
  return r;
}

const warningsOf = (r: { warnings: Array<{ kind: string; detail: string }> }) => r.warnings.map((w) => `${w.kind}:${w.detail}`);

t.test('input as a string, and instructions', async (t) => {
  const r = ok({ input: 'Hi', instructions: 'Be brief.' });
  t.same(r.request.messages, [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }]);
  t.same(r.request.system, [{ type: 'text', text: 'Be brief.' }]);
  t.equal(r.request.max_tokens, 4096);
  t.same(warningsOf(r), ['max_tokens_defaulted:max_output_tokens']);
  t.equal(r.stream, false);
});

t.test('message items of all four roles, string or parts', async (t) => {
  const r = ok({
    instructions: 'first',
    max_output_tokens: 100,
    input: [
      { type: 'message', role: 'developer', content: 'second' },
      { role: 'user', content: [{ type: 'input_text', text: 'look' }, { type: 'input_image', image_url: `data:image/png;base64,${PNG}` }, { type: 'input_image', image_url: 'https://example.com/a.png', detail: 'auto' }] },
      { role: 'system', content: [{ type: 'input_text', text: 'third' }] },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'I see', annotations: [] }] },
      { role: 'user', content: [{ type: 'input_file', filename: 'a.pdf', file_data: 'data:application/pdf;base64,JVBERi0x' }, { type: 'input_file', file_url: 'https://example.com/b.pdf' }] },
    ],
  });
  t.same(r.request.system, [{ type: 'text', text: 'first' }, { type: 'text', text: 'second' }, { type: 'text', text: 'third' }]);
  t.same(r.request.messages, [
    { role: 'user', content: [{ type: 'text', text: 'look' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } }, { type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } }] },
    { role: 'assistant', content: [{ type: 'text', text: 'I see' }] },
    { role: 'user', content: [{ type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0x' } }, { type: 'document', source: { type: 'url', url: 'https://example.com/b.pdf' } }] },
  ]);
  t.same(warningsOf(r), []);
});

t.test('function_call and function_call_output items, ids sanitised the same way on both sides', async (t) => {
  const r = ok({
    max_output_tokens: 100,
    tools: [{ type: 'function', name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } }],
    input: [
      { role: 'user', content: 'Weather?' },
      { type: 'function_call', call_id: 'call|1', name: 'get_weather', arguments: '{"city":"Paris"}' },
      { type: 'function_call', call_id: 'toolu_2', name: 'get_weather', arguments: '' },
      { type: 'function_call_output', call_id: 'toolu_2', output: [{ type: 'input_text', text: 'rain' }] },
      { type: 'function_call_output', call_id: 'call|1', output: 'sun' },
      { role: 'user', content: 'thanks' },
    ],
  });
  t.same(r.request.messages, [
    { role: 'user', content: [{ type: 'text', text: 'Weather?' }] },
    { role: 'assistant', content: [{ type: 'tool_use', id: 'call_1', name: 'get_weather', input: { city: 'Paris' } }, { type: 'tool_use', id: 'toolu_2', name: 'get_weather', input: {} }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_2', content: [{ type: 'text', text: 'rain' }] }, { type: 'tool_result', tool_use_id: 'call_1', content: 'sun' }, { type: 'text', text: 'thanks' }] },
  ]);
  t.same(warningsOf(r), ['tool_id_rewritten:input[1].call_id']);
});

t.test('reasoning items carry their thinking block back whole', async (t) => {
  const thinking = { type: 'thinking' as const, thinking: 'Let me think.', signature: 'sig-abc' };
  const r = ok({
    max_output_tokens: 100,
    input: [
      { role: 'user', content: 'Q' },
      { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'Let me think.' }], encrypted_content: encodeThinking(thinking) },
      { type: 'reasoning', id: 'rs_2', summary: [], encrypted_content: encodeThinking({ type: 'redacted_thinking', data: 'opaque' }) },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'A' }] },
      { role: 'user', content: 'Q2' },
      { type: 'reasoning', id: 'rs_3', summary: [{ type: 'summary_text', text: 'only a summary' }] },
    ],
  });
  t.same(r.request.messages[1], { role: 'assistant', content: [thinking, { type: 'redacted_thinking', data: 'opaque' }, { type: 'text', text: 'A' }] });
  t.equal(r.request.messages.length, 3, 'a reasoning item without its content is left out');
  t.same(warningsOf(r), ['message_dropped:input[5]']);
});

t.test('custom (freeform) tools, namespace tools and their calls', async (t) => {
  const r = ok({
    max_output_tokens: 100,
    tools: [
      { type: 'custom', name: 'apply_patch', description: 'Patch files', format: { type: 'grammar', syntax: 'lark', definition: 'start: "x"' } },
      { type: 'custom', name: 'note' },
      { type: 'namespace', name: 'mcp_fs', description: 'files', tools: [{ type: 'function', name: 'read', parameters: { type: 'object', properties: { path: { type: 'string' } } } }] },
    ],
    input: [
      { role: 'user', content: 'go' },
      { type: 'custom_tool_call', call_id: 'c1', name: 'apply_patch', input: '*** Begin Patch' },
      { type: 'function_call', call_id: 'c2', name: 'read', namespace: 'mcp_fs', arguments: '{"path":"a"}' },
      { type: 'custom_tool_call_output', call_id: 'c1', output: 'done' },
      { type: 'function_call_output', call_id: 'c2', output: 'text' },
    ],
  });
  t.same(r.request.tools!.map((x) => x.name), ['apply_patch', 'note', 'mcp_fs__read']);
  t.same(r.request.tools![1]!.input_schema, { type: 'object', properties: { input: { type: 'string' } }, required: ['input'] });
  t.match(r.request.tools![0]!.input_schema, { properties: { input: { type: 'string', description: /lark grammar:\nstart: "x"/ } } });
  t.same(r.request.messages[1]!.content, [
    { type: 'tool_use', id: 'c1', name: 'apply_patch', input: { input: '*** Begin Patch' } },
    { type: 'tool_use', id: 'c2', name: 'mcp_fs__read', input: { path: 'a' } },
  ]);
  t.same(warningsOf(r), ['field_ignored:tools[0].format']);
});

t.test('hosted tools are left out with a warning, never a failure', async (t) => {
  const r = ok({
    max_output_tokens: 100,
    input: 'x',
    tools: [{ type: 'web_search' }, { type: 'function', name: 'f' }, { type: 'file_search', vector_store_ids: [] }, { type: 'code_interpreter', container: { type: 'auto' } }, { type: 'local_shell' }],
    tool_choice: { type: 'web_search' },
  });
  t.same(r.request.tools!.map((x) => x.name), ['f']);
  t.same(r.request.tool_choice, { type: 'auto' });
  t.same(warningsOf(r), ['tool_dropped:web_search', 'tool_dropped:file_search', 'tool_dropped:code_interpreter', 'tool_dropped:local_shell', 'field_ignored:tool_choice']);
  const none = ok({ max_output_tokens: 100, input: 'x', tools: [{ type: 'web_search' }] });
  t.equal(none.request.tools, undefined, 'no tools left: none sent');
});

t.test('tool_choice, parallel_tool_calls', async (t) => {
  const tools = [{ type: 'function', name: 'a' }, { type: 'function', name: 'b' }, { type: 'custom', name: 'c' }];
  const cases: Array<[unknown, boolean | undefined, unknown, string[]]> = [
    ['auto', undefined, { type: 'auto' }, ['a', 'b', 'c']],
    ['none', false, { type: 'none' }, ['a', 'b', 'c']],
    ['required', false, { type: 'any', disable_parallel_tool_use: true }, ['a', 'b', 'c']],
    [{ type: 'function', name: 'b' }, undefined, { type: 'tool', name: 'b' }, ['a', 'b', 'c']],
    [{ type: 'custom', name: 'c' }, undefined, { type: 'tool', name: 'c' }, ['a', 'b', 'c']],
    [{ type: 'allowed_tools', mode: 'required', tools: [{ type: 'function', name: 'a' }] }, undefined, { type: 'any' }, ['a']],
    [undefined, false, { type: 'auto', disable_parallel_tool_use: true }, ['a', 'b', 'c']],
  ];
  for (const [choice, parallel, expected, names] of cases) {
    const r = ok({ max_output_tokens: 10, input: 'x', tools, tool_choice: choice, parallel_tool_calls: parallel });
    t.same(r.request.tool_choice, expected, JSON.stringify(choice));
    t.same(r.request.tools!.map((x) => x.name), names);
  }
});

t.test('sampling per model, max_output_tokens, user, reasoning effort, text.format', async (t) => {
  const r = ok({ input: 'x', max_output_tokens: 99999, temperature: 1.5, top_p: 0.9, safety_identifier: 'user-42', text: { format: { type: 'json_schema', name: 'r', schema: { type: 'object' } } } });
  t.equal(r.request.max_tokens, 64000);
  t.equal(r.request.temperature, 1);
  t.equal(r.request.top_p, 0.9);
  t.same(r.request.metadata, { user_id: 'user-42' });
  t.same(r.request.output_config, { format: { type: 'json_schema', schema: { type: 'object' } } });
  t.same(warningsOf(r), ['max_tokens_capped:max_output_tokens', 'temperature_clamped:temperature']);
  const opus = ok({ input: 'x', max_output_tokens: 100, temperature: 0.5, user: 'someone@example.com' }, OPUS);
  t.equal(opus.request.temperature, undefined);
  t.same(warningsOf(opus), ['sampling_field_dropped:temperature', 'field_ignored:user']);

  const thinking = ok({ input: 'x', max_output_tokens: 20000, temperature: 0.5, reasoning: { effort: 'medium', summary: 'auto' } });
  t.same(thinking.request.thinking, { type: 'enabled', budget_tokens: 8192 });
  t.equal(thinking.request.temperature, undefined, 'thinking takes only the default temperature');
  t.same(warningsOf(thinking), ['sampling_field_dropped:temperature']);
  t.same(ok({ input: 'x', max_output_tokens: 5000, reasoning: { effort: 'high' } }).request.thinking, { type: 'enabled', budget_tokens: 4999 }, 'the budget stays below max_tokens');
  t.same(warningsOf(ok({ input: 'x', max_output_tokens: 1000, reasoning: { effort: 'low' } })), ['field_ignored:reasoning.effort'], 'no room for thinking');
  t.equal(ok({ input: 'x', max_output_tokens: 100, reasoning: { effort: 'none' } }).request.thinking, undefined);
  t.same(warningsOf(ok({ input: 'x', max_output_tokens: 100, text: { format: { type: 'json_object' } } })), ['field_ignored:text.format']);
  const old: ModelTraits = { ...SONNET, id: 'claude-3-5-haiku-20241022' };
  t.same(warningsOf(ok({ input: 'x', max_output_tokens: 100, text: { format: { type: 'json_schema', schema: { type: 'object' } } } }, old)), ['field_ignored:text.format'], 'a model without structured output');
});

t.test('stateless: store, include, prompt_cache_key and session-id, stateful parameters refused', async (t) => {
  const r = ok({ input: 'x', max_output_tokens: 10, store: true, include: ['reasoning.encrypted_content'], prompt_cache_key: 'conv-1', metadata: { a: 'b' }, stream: true });
  t.same(warningsOf(r), ['field_ignored:store']);
  t.equal(r.sessionKey, 'conv-1');
  t.equal(r.stream, true);
  t.equal(r.request.stream, true);
  t.equal(ok({ input: 'x', max_output_tokens: 10 }, SONNET, { sessionHeader: 's-9' }).sessionKey, 's-9');
  t.equal(ok({ input: 'x', max_output_tokens: 10, store: false, truncation: 'disabled' }).warnings.length, 0, 'defaults change nothing');
  t.same(warningsOf(ok({ input: 'x', max_output_tokens: 10, include: ['message.output_text.logprobs'], truncation: 'auto', seed: 3 })), ['field_ignored:truncation', 'field_ignored:seed', 'field_ignored:include']);
  for (const name of ['previous_response_id', 'conversation']) {
    const e = refused({ input: 'x', [name]: 'resp_1' });
    t.equal(e.param, name);
    t.equal(e.code, 'unsupported_parameter');
  }
});

t.test('strict mode refuses any change', async (t) => {
  const r = translateResponsesRequest({ model: SONNET.id, input: 'x', store: true, max_output_tokens: 10 }, SONNET, { strict: true });
  t.notOk(r.ok);
  t.match(r, { param: 'store', message: /strict mode/ });
});

t.test('every malformed item or tool is a 400 naming the parameter', async (t) => {
  const fc = (extra: Record<string, unknown>) => ({ type: 'function_call', call_id: 'c', name: 'f', arguments: '{}', ...extra });
  const cases: Array<[Record<string, unknown>, string]> = [
    [{}, 'input'],
    [{ input: [] }, 'input'],
    [{ input: 42 }, 'input'],
    [{ input: [7] }, 'input[0]'],
    [{ input: [{ type: 'bogus' }] }, 'input[0].type'],
    [{ input: [{ type: 'item_reference', id: 'msg_1' }] }, 'input[0].type'],
    [{ input: [{ role: 'tool', content: 'x' }] }, 'input[0].role'],
    [{ input: [{ role: 'user', content: '' }] }, 'input[0].content'],
    [{ input: [{ role: 'user', content: [{ type: 'input_text' }] }] }, 'input[0].content[0].text'],
    [{ input: [{ role: 'user', content: [{ type: 'input_image', image_url: 'ftp://x' }] }] }, 'input[0].content[0].image_url'],
    [{ input: [{ role: 'user', content: [{ type: 'input_image', file_id: 'file_1' }] }] }, 'input[0].content[0].file_id'],
    [{ input: [{ role: 'user', content: [{ type: 'input_file', file_data: 'data:text/plain;base64,eA==' }] }] }, 'input[0].content[0].file_data'],
    [{ input: [{ role: 'user', content: [{ type: 'input_file', filename: 'x' }] }] }, 'input[0].content[0]'],
    [{ input: [{ role: 'user', content: [{ type: 'input_audio' }] }] }, 'input[0].content[0]'],
    [{ input: [{ role: 'system', content: [{ type: 'input_image', image_url: 'https://x' }] }] }, 'input[0].content[0].type'],
    [{ input: [{ role: 'assistant', content: 'hi' }] }, 'input[0]'],
    [{ input: [{ role: 'user', content: 'x' }, fc({ arguments: '{bad' })] }, 'input[1].arguments'],
    [{ input: [{ role: 'user', content: 'x' }, fc({ arguments: '[1]' })] }, 'input[1].arguments'],
    [{ input: [{ role: 'user', content: 'x' }, fc({ call_id: '' })] }, 'input[1].call_id'],
    [{ input: [{ role: 'user', content: 'x' }, fc({})] }, 'input[1].call_id'],
    [{ input: [{ role: 'user', content: 'x' }, fc({}), fc({})] }, 'input[2].call_id'],
    [{ input: [{ role: 'user', content: 'x' }, { type: 'function_call_output', call_id: 'nope', output: 'x' }] }, 'input[1].call_id'],
    [{ input: [{ role: 'user', content: 'x' }, { type: 'custom_tool_call', call_id: 'c', name: 'n', input: 5 }] }, 'input[1].input'],
    [{ input: [{ role: 'user', content: 'x' }, { type: 'reasoning', encrypted_content: 'gAAAAB-not-ours' }] }, 'input[1].encrypted_content'],
    [{ input: 'x', tools: 'all' }, 'tools'],
    [{ input: 'x', tools: [{ name: 'f' }] }, 'tools[0].type'],
    [{ input: 'x', tools: [{ type: 'function', name: 'bad name' }] }, 'tools[0].name'],
    [{ input: 'x', tools: [{ type: 'function', name: 'f', parameters: { type: 'array' } }] }, 'tools[0].parameters.type'],
    [{ input: 'x', tools: [{ type: 'function', name: 'f' }, { type: 'function', name: 'f' }] }, 'tools'],
    [{ input: 'x', tools: [{ type: 'custom', name: 'c', format: { type: 'regex' } }] }, 'tools[0].format.type'],
    [{ input: 'x', tools: [{ type: 'namespace', name: 'ns', tools: [{ type: 'custom', name: 'c' }] }] }, 'tools[0].tools[0].type'],
    [{ input: 'x', tools: [{ type: 'namespace', name: 'a__b', tools: [] }] }, 'tools[0].name'],
    [{ input: 'x', tools: [{ type: 'function', name: 'f' }], tool_choice: { type: 'function', name: 'g' } }, 'tool_choice.name'],
    [{ input: 'x', tools: [{ type: 'function', name: 'f' }], tool_choice: 'sometimes' }, 'tool_choice'],
    [{ input: 'x', max_output_tokens: 0 }, 'max_output_tokens'],
    [{ input: 'x', temperature: 3 }, 'temperature'],
    [{ input: 'x', reasoning: { effort: 'extreme' } }, 'reasoning.effort'],
    [{ input: 'x', text: { format: { type: 'yaml' } } }, 'text.format.type'],
    [{ input: 'x', text: { format: { type: 'json_schema' } } }, 'text.format.schema'],
    [{ input: 'x', include: 'all' }, 'include'],
    [{ input: 'x', prompt_cache_key: 5 }, 'prompt_cache_key'],
    [{ input: 'x', stream: 'yes' }, 'stream'],
    [{ input: 'x', instructions: 5 }, 'instructions'],
  ];
  for (const [body, param] of cases) {
    const r = refused(body);
    t.equal(r.param, param, `${JSON.stringify(body).slice(0, 120)} → ${r.message}`);
  }
});
