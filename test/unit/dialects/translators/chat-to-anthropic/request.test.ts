import t, { type Test } from 'tap';
import { DEFAULT_MODELS, type CatalogModel } from '../../../../../src/catalog/model.js';
import { translateChatRequest, type RequestTranslation } from '../../../../../src/dialects/translators/chat-to-anthropic/request.js';
import type { MessagesRequest } from '../../../../../src/dialects/anthropic/wire.js';

const open = DEFAULT_MODELS.find((m) => m.id === 'claude-sonnet-4-6')!; // accepts every sampling field
const restrictive = DEFAULT_MODELS.find((m) => m.id === 'claude-opus-4-7')!; // temperature/top_p/top_k not accepted
const haiku = DEFAULT_MODELS.find((m) => m.id === 'claude-haiku-4-5-20251001')!;

const hi = [{ role: 'user', content: 'hi' }];

function run(body: Record<string, unknown>, model: CatalogModel = open, strict = false): RequestTranslation {
  return translateChatRequest({ model: model.id, max_tokens: 100, ...body }, model, { strict });
}

function ok(t: Test, body: Record<string, unknown>, model: CatalogModel = open) {
  const r = run(body, model);
  if (!r.ok) {
    t.fail(`expected ok, got 400 ${r.param}: ${r.message}`);
    throw new Error('not ok');
  }
  return r;
}

function kinds(r: RequestTranslation): string[] {
  return r.ok ? r.warnings.map((w) => `${w.kind}:${w.detail}`) : [];
}

// ---- successes: [name, body, expected fields of the provider request, expected warnings] ----
const mapped: Array<[string, Record<string, unknown>, Partial<MessagesRequest>, string[]]> = [
  ['user string becomes a text block', { messages: hi }, { messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] }, []],
  [
    'system and developer messages are hoisted in order, wherever they stand',
    {
      messages: [
        { role: 'system', content: 'one' },
        { role: 'user', content: 'q' },
        { role: 'developer', content: [{ type: 'text', text: 'two' }, { type: 'text', text: '' }] },
        { role: 'system', content: '' },
      ],
    },
    { system: [{ type: 'text', text: 'one' }, { type: 'text', text: 'two' }], messages: [{ role: 'user', content: [{ type: 'text', text: 'q' }] }] },
    [],
  ],
  ['temperature in 0..1 is kept', { messages: hi, temperature: 0.3, top_p: 0.9, top_k: 5 }, { temperature: 0.3, top_p: 0.9, top_k: 5 }, []],
  ['temperature above 1 is clamped to 1, never sent upstream above 1', { messages: hi, temperature: 1.7 }, { temperature: 1 }, ['temperature_clamped:temperature']],
  ['temperature 2 is the top of the accepted range', { messages: hi, temperature: 2 }, { temperature: 1 }, ['temperature_clamped:temperature']],
  ['null sampling fields are absent', { messages: hi, temperature: null, top_p: null, stop: null }, { temperature: undefined, stop_sequences: undefined }, []],
  ['stop string becomes an array', { messages: hi, stop: 'END' }, { stop_sequences: ['END'] }, []],
  ['stop array of 4 is kept', { messages: hi, stop: ['a', 'b', 'c', 'd'] }, { stop_sequences: ['a', 'b', 'c', 'd'] }, []],
  ['empty stop array is dropped', { messages: hi, stop: [] }, { stop_sequences: undefined }, []],
  ['whitespace-only stop entries are dropped with a warning', { messages: hi, stop: ['\n', 'x', ''] }, { stop_sequences: ['x'] }, ['stop_sequence_dropped:stop[0]', 'stop_sequence_dropped:stop[2]']],
  ['max_completion_tokens wins over max_tokens', { messages: hi, max_tokens: 100, max_completion_tokens: 200 }, { max_tokens: 200 }, ['field_ignored:max_tokens']],
  ['equal max_tokens and max_completion_tokens: no warning', { messages: hi, max_tokens: 300, max_completion_tokens: 300 }, { max_tokens: 300 }, []],
  ['max_tokens above the model ceiling is capped', { messages: hi, max_tokens: 1_000_000 }, { max_tokens: 64000 }, ['max_tokens_capped:max_tokens']],
  ['user id goes to metadata.user_id', { messages: hi, user: 'cust-42' }, { metadata: { user_id: 'cust-42' } }, []],
  ['an e-mail address as user is not sent', { messages: hi, user: 'a.b@example.com' }, { metadata: undefined }, ['field_ignored:user']],
  ['a phone number as user is not sent', { messages: hi, user: '+1 (555) 010-9999' }, { metadata: undefined }, ['field_ignored:user']],
  ['n = 1 changes nothing', { messages: hi, n: 1 }, {}, []],
  ['n > 1 is reduced to 1, not refused', { messages: hi, n: 3 }, {}, ['n_reduced:n']],
  [
    'logprobs, response_format, penalties, seed are ignored with a warning each, not refused',
    { messages: hi, logprobs: true, top_logprobs: 3, response_format: { type: 'json_object' }, presence_penalty: 0.5, frequency_penalty: 1, seed: 7, logit_bias: { '1': 2 } },
    {},
    ['field_ignored:logprobs', 'field_ignored:top_logprobs', 'field_ignored:response_format', 'field_ignored:presence_penalty', 'field_ignored:frequency_penalty', 'field_ignored:seed', 'field_ignored:logit_bias'],
  ],
  [
    'ignored fields at their default values are not worth a warning',
    { messages: hi, logprobs: false, presence_penalty: 0, frequency_penalty: 0, response_format: { type: 'text' }, store: false, seed: null, metadata: {} },
    {},
    [],
  ],
  [
    'unknown and OpenAI-only fields are ignored with a warning',
    { messages: hi, store: true, metadata: { a: '1' }, service_tier: 'flex', modalities: ['text', 'audio'], audio: {}, prediction: {}, web_search_options: {}, verbosity: 'low', reasoning_effort: 'high', brand_new: 1 },
    { metadata: undefined },
    ['store', 'metadata', 'service_tier', 'modalities', 'audio', 'prediction', 'web_search_options', 'verbosity', 'reasoning_effort', 'brand_new'].map((f) => `field_ignored:${f}`),
  ],
  ['mapped fields raise no warning', { messages: hi, model: 'alias', stream: false, stream_options: { include_usage: true }, parallel_tool_calls: true }, { model: 'claude-sonnet-4-6' }, []],
  ['stream true is sent upstream', { messages: hi, stream: true }, { stream: true }, []],
];

t.test('request fields map as decided in docs/contract.md', async (t) => {
  for (const [name, body, expected, warnings] of mapped) {
    const r = ok(t, body);
    for (const [k, v] of Object.entries(expected)) t.same(r.request[k as keyof MessagesRequest], v, `${name}: ${k}`);
    t.same(kinds(r), warnings, `${name}: warnings`);
  }
});

// ---- failures: [name, body, param] ----
const refused: Array<[string, unknown, string | null]> = [
  ['body not an object', [], null],
  ['messages missing', { max_tokens: 5 }, 'messages'],
  ['messages empty', { messages: [] }, 'messages'],
  ['message not an object', { messages: ['hi'] }, 'messages[0]'],
  ['unknown role', { messages: [{ role: 'robot', content: 'x' }] }, 'messages[0].role'],
  ['temperature above 2', { messages: hi, temperature: 2.5 }, 'temperature'],
  ['temperature below 0', { messages: hi, temperature: -0.1 }, 'temperature'],
  ['temperature not a number', { messages: hi, temperature: 'hot' }, 'temperature'],
  ['top_p above 1', { messages: hi, top_p: 1.5 }, 'top_p'],
  ['five stop sequences', { messages: hi, stop: ['a', 'b', 'c', 'd', 'e'] }, 'stop'],
  ['stop entry not a string', { messages: hi, stop: ['a', 3] }, 'stop[1]'],
  ['stop of the wrong type', { messages: hi, stop: 3 }, 'stop'],
  ['max_tokens zero', { messages: hi, max_tokens: 0 }, 'max_tokens'],
  ['max_completion_tokens fractional', { messages: hi, max_completion_tokens: 1.5 }, 'max_completion_tokens'],
  ['stream not a boolean', { messages: hi, stream: 'yes' }, 'stream'],
  ['include_usage not a boolean', { messages: hi, stream_options: { include_usage: 1 } }, 'stream_options.include_usage'],
  ['user not a string', { messages: hi, user: 5 }, 'user'],
  ['user content empty string', { messages: [{ role: 'user', content: '' }] }, 'messages[0].content'],
  ['user content only blank parts', { messages: [{ role: 'user', content: [{ type: 'text', text: ' ' }] }] }, 'messages[0].content'],
  ['user content null', { messages: [{ role: 'user', content: null }] }, 'messages[0].content'],
  ['text part without text', { messages: [{ role: 'user', content: [{ type: 'text' }] }] }, 'messages[0].content[0].text'],
  ['unknown part type', { messages: [{ role: 'user', content: [{ type: 'video' }] }] }, 'messages[0].content[0].type'],
  ['audio input', { messages: [{ role: 'user', content: [{ type: 'text', text: 'x' }, { type: 'input_audio', input_audio: { data: 'AA', format: 'wav' } }] }] }, 'messages[0].content[1]'],
  ['image URL of another scheme', { messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'ftp://x/y.png' } }] }] }, 'messages[0].content[0].image_url.url'],
  ['data URL not base64', { messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:image/png,abc' } }] }] }, 'messages[0].content[0].image_url.url'],
  ['data URL of an unsupported type', { messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:audio/wav;base64,AAAA' } }] }] }, 'messages[0].content[0].image_url.url'],
  ['file by id', { messages: [{ role: 'user', content: [{ type: 'file', file: { file_id: 'file-1' } }] }] }, 'messages[0].content[0].file.file_id'],
  ['orphan tool message', { messages: [{ role: 'user', content: 'q' }, { role: 'tool', tool_call_id: 'call_1', content: 'r' }] }, 'messages[1].tool_call_id'],
  ['tool message without tool_call_id', { messages: [{ role: 'user', content: 'q' }, { role: 'tool', content: 'r' }] }, 'messages[1].tool_call_id'],
  ['orphan function message', { messages: [{ role: 'user', content: 'q' }, { role: 'function', name: 'f', content: 'r' }] }, 'messages[1].name'],
  [
    'tool message answering a call of an older assistant turn',
    {
      messages: [
        { role: 'user', content: 'q' },
        { role: 'assistant', tool_calls: [{ id: 'a', type: 'function', function: { name: 'f', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: 'a', content: 'r' },
        { role: 'assistant', content: 'done' },
        { role: 'tool', tool_call_id: 'a', content: 'again' },
      ],
    },
    'messages[4].tool_call_id',
  ],
  [
    'tool call never answered',
    {
      messages: [
        { role: 'user', content: 'q' },
        { role: 'assistant', tool_calls: [{ id: 'a', type: 'function', function: { name: 'f', arguments: '{}' } }] },
        { role: 'user', content: 'next' },
      ],
    },
    'messages[1].tool_calls[0].id',
  ],
  ['invalid JSON arguments', { messages: [{ role: 'user', content: 'q' }, { role: 'assistant', tool_calls: [{ id: 'a', type: 'function', function: { name: 'f', arguments: '{"x":' } }] }] }, 'messages[1].tool_calls[0].function.arguments'],
  ['arguments that are not an object', { messages: [{ role: 'user', content: 'q' }, { role: 'assistant', tool_calls: [{ id: 'a', type: 'function', function: { name: 'f', arguments: '[1,2]' } }] }] }, 'messages[1].tool_calls[0].function.arguments'],
  ['tool call without a name', { messages: [{ role: 'user', content: 'q' }, { role: 'assistant', tool_calls: [{ id: 'a', type: 'function', function: {} }] }] }, 'messages[1].tool_calls[0].function.name'],
  ['first turn from the assistant', { messages: [{ role: 'system', content: 's' }, { role: 'assistant', content: 'Hello!' }, { role: 'user', content: 'q' }] }, 'messages[1].role'],
  ['only system messages', { messages: [{ role: 'system', content: 's' }] }, 'messages'],
  ['tools not an array', { messages: hi, tools: {} }, 'tools'],
  ['custom tool', { messages: hi, tools: [{ type: 'custom', custom: { name: 'x' } }] }, 'tools[0].type'],
  ['tool parameters of type array', { messages: hi, tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'array' } } }] }, 'tools[0].function.parameters.type'],
  ['tool_choice of an unknown string', { messages: hi, tools: [{ type: 'function', function: { name: 'f' } }], tool_choice: 'always' }, 'tool_choice'],
  ['parallel_tool_calls not a boolean', { messages: hi, parallel_tool_calls: 'no' }, 'parallel_tool_calls'],
];

t.test('invalid requests are refused with the param named, never thrown', async (t) => {
  for (const [name, body, param] of refused) {
    const r = translateChatRequest(body, open, { strict: false });
    t.equal(r.ok, false, name);
    if (!r.ok) {
      t.equal(r.param, param, `${name}: param`);
      t.ok(r.message.length > 0, `${name}: message`);
    }
  }
});

t.test('the request model is the catalogue id, whatever name the client used', async (t) => {
  const r = translateChatRequest({ model: 'claude-haiku-4-5', messages: hi, max_tokens: 5 }, haiku, { strict: false });
  t.equal(r.ok && r.request.model, 'claude-haiku-4-5-20251001');
});

t.test('missing max tokens: the catalogue default is sent, with a warning', async (t) => {
  const r = translateChatRequest({ messages: hi }, { ...open, defaultMaxTokens: 1234 }, { strict: false });
  t.equal(r.ok && r.request.max_tokens, 1234);
  t.same(kinds(r), ['max_tokens_defaulted:max_tokens']);
  const capped = translateChatRequest({ messages: hi }, { ...open, defaultMaxTokens: 9000, maxOutputTokens: 8000 }, { strict: false });
  t.equal(capped.ok && capped.request.max_tokens, 8000);
});

t.test('sampling fields the model does not accept are left out, with a warning unless they were the default', async (t) => {
  const r = ok(t, { messages: hi, temperature: 0.2, top_p: 0.5, top_k: 3 }, restrictive);
  t.equal(r.request.temperature, undefined);
  t.equal(r.request.top_p, undefined);
  t.equal(r.request.top_k, undefined);
  t.same(kinds(r), ['sampling_field_dropped:temperature', 'sampling_field_dropped:top_p', 'sampling_field_dropped:top_k']);
  const dflt = ok(t, { messages: hi, temperature: 1, top_p: 1 }, restrictive);
  t.same(kinds(dflt), []);
  t.equal(dflt.request.temperature, undefined);
  const outOfRange = run({ messages: hi, temperature: 3 }, restrictive);
  t.equal(outOfRange.ok, false, 'range is checked even when the field would be dropped');
});

t.test('stream flags', async (t) => {
  const r = ok(t, { messages: hi, stream: true, stream_options: { include_usage: true } });
  t.equal(r.stream, true);
  t.equal(r.includeUsage, true);
  const plain = ok(t, { messages: hi });
  t.equal(plain.stream, false);
  t.equal(plain.includeUsage, false);
  t.equal(plain.request.stream, undefined);
});

t.test('user content parts: images, documents, detail', async (t) => {
  const r = ok(t, {
    messages: [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'look' },
          { type: 'text', text: '' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
          { type: 'image_url', image_url: { url: 'https://example.com/cat.jpg', detail: 'high' } },
          { type: 'image_url', image_url: { url: 'data:application/pdf;base64,JVBERi0=', detail: 'auto' } },
          { type: 'file', file: { file_data: 'data:application/pdf;base64,JVBERi0x', filename: 'a.pdf' } },
        ],
      },
    ],
  });
  t.same(r.request.messages[0]!.content, [
    { type: 'text', text: 'look' },
    { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
    { type: 'image', source: { type: 'url', url: 'https://example.com/cat.jpg' } },
    { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0=' } },
    { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0x' } },
  ]);
  t.same(kinds(r), ['field_ignored:messages[0].content[3].image_url.detail']);
});

const weatherCall = (id: string, args = '{"city":"Paris"}') => ({ id, type: 'function', function: { name: 'get_weather', arguments: args } });

t.test('assistant text then tool_use blocks; tool results grouped first in one user turn', async (t) => {
  const r = ok(t, {
    messages: [
      { role: 'user', content: 'weather in Paris and Rome?' },
      { role: 'assistant', content: 'Checking.', tool_calls: [weatherCall('call_1'), weatherCall('call_2', '')] },
      { role: 'tool', tool_call_id: 'call_2', content: [{ type: 'text', text: 'sunny' }] },
      { role: 'tool', tool_call_id: 'call_1', content: 'rain' },
      { role: 'user', content: 'thanks' },
    ],
  });
  t.same(r.request.messages, [
    { role: 'user', content: [{ type: 'text', text: 'weather in Paris and Rome?' }] },
    {
      role: 'assistant',
      content: [
        { type: 'text', text: 'Checking.' },
        { type: 'tool_use', id: 'call_1', name: 'get_weather', input: { city: 'Paris' } },
        { type: 'tool_use', id: 'call_2', name: 'get_weather', input: {} },
      ],
    },
    {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'call_2', content: [{ type: 'text', text: 'sunny' }] },
        { type: 'tool_result', tool_use_id: 'call_1', content: 'rain' },
        { type: 'text', text: 'thanks' },
      ],
    },
  ]);
  t.same(kinds(r), []);
});

t.test('user content between tool results still lands after the results', async (t) => {
  const r = ok(t, {
    messages: [
      { role: 'user', content: 'q' },
      { role: 'assistant', content: null, tool_calls: [weatherCall('a'), weatherCall('b')] },
      { role: 'tool', tool_call_id: 'a', content: 'ra' },
      { role: 'user', content: 'note' },
      { role: 'tool', tool_call_id: 'b', content: '' },
    ],
  });
  t.same(r.request.messages[2]!.content, [
    { type: 'tool_result', tool_use_id: 'a', content: 'ra' },
    { type: 'tool_result', tool_use_id: 'b' },
    { type: 'text', text: 'note' },
  ]);
});

t.test('legacy function_call and function role map to tool_use and tool_result', async (t) => {
  const r = ok(t, {
    messages: [
      { role: 'user', content: 'q' },
      { role: 'assistant', content: null, function_call: { name: 'lookup', arguments: '{"k":1}' } },
      { role: 'function', name: 'lookup', content: 'v' },
    ],
  });
  const use = (r.request.messages[1]!.content as Array<{ type: string; id?: string }>)[0]!;
  t.equal(use.type, 'tool_use');
  t.same(r.request.messages[2]!.content, [{ type: 'tool_result', tool_use_id: use.id, content: 'v' }]);
});

t.test('tool ids are sanitised the same way on both sides, and stay distinct', async (t) => {
  const r = ok(t, {
    messages: [
      { role: 'user', content: 'q' },
      { role: 'assistant', tool_calls: [weatherCall('Bash:12'), weatherCall('Bash_12'), weatherCall('call_x|fc_y')] },
      { role: 'tool', tool_call_id: 'call_x|fc_y', content: 'r3' },
      { role: 'tool', tool_call_id: 'Bash:12', content: 'r1' },
      { role: 'tool', tool_call_id: 'Bash_12', content: 'r2' },
    ],
  });
  const uses = (r.request.messages[1]!.content as Array<{ id: string }>).map((b) => b.id);
  const results = (r.request.messages[2]!.content as Array<{ tool_use_id: string }>).map((b) => b.tool_use_id);
  t.same(uses, ['Bash_12', 'Bash_12_2', 'call_x_fc_y']);
  t.same(results, ['call_x_fc_y', 'Bash_12', 'Bash_12_2']);
  for (const id of uses) t.match(id, /^[a-zA-Z0-9_-]+$/);
  t.same(kinds(r), ['tool_id_rewritten:messages[1].tool_calls[0].id', 'tool_id_rewritten:messages[1].tool_calls[1].id', 'tool_id_rewritten:messages[1].tool_calls[2].id']);
});

t.test('a tool id reused in a later turn gets a fresh id, and its result follows it', async (t) => {
  const r = ok(t, {
    messages: [
      { role: 'user', content: 'q' },
      { role: 'assistant', tool_calls: [weatherCall('call_0')] },
      { role: 'tool', tool_call_id: 'call_0', content: 'r1' },
      { role: 'assistant', tool_calls: [weatherCall('call_0')] },
      { role: 'tool', tool_call_id: 'call_0', content: 'r2' },
    ],
  });
  t.same(
    r.request.messages.map((m) => (m.content as Array<{ id?: string; tool_use_id?: string }>).map((b) => b.id ?? b.tool_use_id ?? '')),
    [[''], ['call_0'], ['call_0'], ['call_0_2'], ['call_0_2']],
  );
  t.same(kinds(r), ['tool_id_rewritten:messages[3].tool_calls[0].id']);
});

t.test('consecutive turns of one role are merged; empty messages dropped', async (t) => {
  const r = ok(t, {
    messages: [
      { role: 'user', content: 'a' },
      { role: 'user', content: [{ type: 'text', text: 'b' }] },
      { role: 'assistant', content: '' },
      { role: 'assistant', content: 'c' },
      { role: 'assistant', content: [{ type: 'text', text: 'd' }, { type: 'refusal', refusal: 'no' }] },
      { role: 'user', content: 'e' },
      { role: 'assistant', content: null },
    ],
  });
  t.same(r.request.messages, [
    { role: 'user', content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }] },
    { role: 'assistant', content: [{ type: 'text', text: 'c' }, { type: 'text', text: 'd' }, { type: 'text', text: 'no' }] },
    { role: 'user', content: [{ type: 'text', text: 'e' }] },
  ]);
  t.same(kinds(r), ['message_dropped:messages[2]', 'message_dropped:messages[6]']);
});

t.test('a final assistant prefill loses its trailing whitespace', async (t) => {
  const r = ok(t, { messages: [{ role: 'user', content: 'q' }, { role: 'assistant', content: 'The answer is ' }] });
  t.same(r.request.messages[1], { role: 'assistant', content: [{ type: 'text', text: 'The answer is' }] });
});

t.test('message name fields are reported as ignored', async (t) => {
  const r = ok(t, { messages: [{ role: 'system', content: 's', name: 'x' }, { role: 'user', content: 'q', name: 'bob' }] });
  t.same(kinds(r), ['field_ignored:messages[0].name', 'field_ignored:messages[1].name']);
});

const getWeather = { type: 'function', function: { name: 'get_weather', description: 'Weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, additionalProperties: false, required: ['city'] } } };

t.test('tools: the parameters schema is sent whole', async (t) => {
  const r = ok(t, {
    messages: hi,
    tools: [
      getWeather,
      { type: 'function', function: { name: 'now' } },
      { type: 'function', function: { name: 'typed', parameters: { properties: { a: { anyOf: [{ type: 'string' }, { type: 'null' }] } } }, strict: true } },
    ],
  });
  t.same(r.request.tools, [
    { name: 'get_weather', description: 'Weather', input_schema: getWeather.function.parameters },
    { name: 'now', input_schema: { type: 'object', properties: {} } },
    { name: 'typed', input_schema: { type: 'object', properties: { a: { anyOf: [{ type: 'string' }, { type: 'null' }] } } } },
  ]);
  t.equal(r.request.tool_choice, undefined);
  t.same(kinds(r), ['field_ignored:tools[2].function.strict']);
});

const choices: Array<[string, Record<string, unknown>, unknown]> = [
  ['auto', { tool_choice: 'auto' }, { type: 'auto' }],
  ['none', { tool_choice: 'none' }, { type: 'none' }],
  ['required → any', { tool_choice: 'required' }, { type: 'any' }],
  ['named → tool', { tool_choice: { type: 'function', function: { name: 'get_weather' } } }, { type: 'tool', name: 'get_weather' }],
  ['parallel false alone → auto without parallel use', { parallel_tool_calls: false }, { type: 'auto', disable_parallel_tool_use: true }],
  ['parallel false with required', { parallel_tool_calls: false, tool_choice: 'required' }, { type: 'any', disable_parallel_tool_use: true }],
  ['parallel false with none stays none', { parallel_tool_calls: false, tool_choice: 'none' }, { type: 'none' }],
  ['parallel true sends nothing', { parallel_tool_calls: true }, undefined],
];

t.test('tool_choice and parallel_tool_calls', async (t) => {
  for (const [name, extra, expected] of choices) {
    const r = ok(t, { messages: hi, tools: [getWeather], ...extra });
    t.same(r.request.tool_choice, expected, name);
  }
  const allowed = ok(t, {
    messages: hi,
    tools: [getWeather, { type: 'function', function: { name: 'now' } }],
    tool_choice: { type: 'allowed_tools', allowed_tools: { mode: 'required', tools: [{ type: 'function', function: { name: 'now' } }] } },
  });
  t.same(allowed.request.tools?.map((x) => x.name), ['now']);
  t.same(allowed.request.tool_choice, { type: 'any' });
});

t.test('tool_choice without tools is left out', async (t) => {
  for (const tools of [undefined, []]) {
    const r = ok(t, { messages: hi, tools, tool_choice: 'auto', parallel_tool_calls: false });
    t.equal(r.request.tools, undefined);
    t.equal(r.request.tool_choice, undefined);
    t.same(kinds(r), []);
  }
  const demanded = ok(t, { messages: hi, tool_choice: 'required' });
  t.same(kinds(demanded), ['field_ignored:tool_choice']);
});

t.test('strict mode turns any warning into a 400 naming the field', async (t) => {
  const cases: Array<[Record<string, unknown>, string]> = [
    [{ messages: hi, temperature: 1.5 }, 'temperature'],
    [{ messages: hi, n: 2 }, 'n'],
    [{ messages: hi, seed: 3 }, 'seed'],
    [{ messages: hi, max_tokens: undefined }, 'max_tokens'],
  ];
  for (const [body, param] of cases) {
    const r = run(body, open, true);
    t.equal(r.ok, false);
    if (!r.ok) t.equal(r.param, param);
  }
  t.equal(run({ messages: hi, temperature: 0.5 }, open, true).ok, true, 'nothing changed → accepted');
});

t.test('a flood of unknown fields yields a bounded list of warnings with header-safe details', async (t) => {
  const body: Record<string, unknown> = { messages: hi };
  for (let i = 0; i < 40; i++) body[`x${i}`] = i;
  body['bad\r\nname'] = 1;
  const r = ok(t, body);
  t.equal(r.warnings.length, 17);
  t.same(r.warnings[16], { kind: 'field_ignored', detail: '25_more' });
  const weird = ok(t, { messages: hi, 'bad\r\nname: x': 1, constructor: 1 });
  t.same(kinds(weird), ['field_ignored:bad??name??x', 'field_ignored:constructor']);
});

t.test('a tool name the provider would refuse is a 400 naming the param, not an upstream error', async (t) => {
  const model = DEFAULT_MODELS.find((m) => m.id === 'claude-sonnet-4-6')!;
  for (const name of ['\u0000', 'bad name', '', 'x'.repeat(129), 'ünïcode']) {
    const r = translateChatRequest(
      { model: model.id, messages: [{ role: 'user', content: 'x' }], tools: [{ type: 'function', function: { name } }] },
      model,
      { strict: false },
    );
    t.equal(r.ok, false, JSON.stringify(name));
    if (!r.ok) t.equal(r.param, 'tools[0].function.name');
  }
  const ok = translateChatRequest(
    { model: model.id, messages: [{ role: 'user', content: 'x' }], tools: [{ type: 'function', function: { name: 'get_weather-2' } }] },
    model,
    { strict: false },
  );
  t.equal(ok.ok, true);
});
