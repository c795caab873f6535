import t from 'tap';
import { buildModelIndex, defaultModelInfos } from '../../../../../src/apps/simulator/models.js';
import { signThinking } from '../../../../../src/apps/simulator/signature.js';
import { validateCountTokensRequest, validateMessagesRequest } from '../../../../../src/apps/simulator/validate/request.js';

const models = buildModelIndex(defaultModelInfos());
const ctx = { models, beta: false };

type Body = Record<string, unknown>;

function base(extra: Body = {}): Body {
  return { model: 'claude-sonnet-4-6', max_tokens: 100, messages: [{ role: 'user', content: 'Hello' }], ...extra };
}

const WEATHER_TOOL = { name: 'get_weather', input_schema: { type: 'object', properties: { city: { type: 'string' } } } };
const PNG_1PX = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const JPEG_HEAD = '/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAgGBgcGBQgHBwcJCQgKDBQNDAsLDBkSEw8UHRofHh0aHBwgJC4nICIsIxwcKDcpLDAxNDQ0Hyc5PTgyPC4zNDL/';
const THOUGHT = 'Thinking it over.';

function toolLoop(extra: Body = {}, assistantContent?: unknown[]): Body {
  return base({
    tools: [WEATHER_TOOL],
    messages: [
      { role: 'user', content: 'Weather in Paris?' },
      { role: 'assistant', content: assistantContent ?? [{ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'Sunny' }] },
    ],
    ...extra,
  });
}

const VALID: Array<[string, Body]> = [
  ['minimal', base()],
  ['all common fields', base({ system: 'Be brief.', stop_sequences: ['END'], stream: true, temperature: 0.5, top_p: 0.9, top_k: 5, metadata: { user_id: 'u1' }, service_tier: 'auto' })],
  ['system as text blocks with cache_control', base({ system: [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral', ttl: '1h' } }] })],
  ['content blocks with an image', base({ messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG_1PX } }, { type: 'text', text: 'What is it?' }] }] })],
  ['image by url', base({ messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } }] }] })],
  ['a tool round trip', toolLoop()],
  ['tool_choice naming a tool', base({ tools: [WEATHER_TOOL], tool_choice: { type: 'tool', name: 'get_weather', disable_parallel_tool_use: true } })],
  ['server tool next to a custom tool', base({ tools: [WEATHER_TOOL, { type: 'web_search_20250305', name: 'web_search', max_uses: 3 }] })],
  ['thinking enabled', base({ max_tokens: 2048, thinking: { type: 'enabled', budget_tokens: 1024 } })],
  ['thinking adaptive with display', base({ thinking: { type: 'adaptive', display: 'omitted' } })],
  ['thinking in a tool loop with its signed block', toolLoop({ max_tokens: 2048, thinking: { type: 'enabled', budget_tokens: 1024 } }, [
    { type: 'thinking', thinking: THOUGHT, signature: signThinking(THOUGHT) },
    { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: {} },
  ])],
  ['empty final assistant message (prefill)', base({ messages: [{ role: 'user', content: 'Hi' }, { role: 'assistant', content: '' }] })],
  ['prefill without trailing whitespace', base({ messages: [{ role: 'user', content: 'Hi' }, { role: 'assistant', content: 'Well,' }] })],
  ['consecutive user messages are merged', base({ messages: [{ role: 'user', content: 'a' }, { role: 'user', content: 'b' }] })],
  ['opus 4.7 with default sampling', base({ model: 'claude-opus-4-7', temperature: 1, top_p: 0.99 })],
  ['alias of a default model', base({ model: 'claude-haiku-4-5' })],
  ['max_tokens 0 pre-warms the cache', base({ max_tokens: 0 })],
];

for (const [name, body] of VALID) {
  t.test(`valid: ${name}`, async (t) => {
    const r = validateMessagesRequest(body, ctx);
    t.ok(r.ok, r.ok ? 'accepted' : r.failure.message);
  });
}

// [name, body, status, message]
const INVALID: Array<[string, unknown, number, string]> = [
  ['body not an object', [1], 400, 'Input should be a valid dictionary'],
  ['max_tokens missing', { model: 'claude-sonnet-4-6', messages: [{ role: 'user', content: 'x' }] }, 400, 'max_tokens: Field required'],
  ['model missing', { max_tokens: 5, messages: [{ role: 'user', content: 'x' }] }, 400, 'model: Field required'],
  ['messages missing', { model: 'claude-sonnet-4-6', max_tokens: 5 }, 400, 'messages: Field required'],
  ['max_tokens a string', base({ max_tokens: '5' }), 400, 'max_tokens: Input should be a valid integer'],
  ['max_tokens fractional', base({ max_tokens: 1.5 }), 400, 'max_tokens: Input should be a valid integer, got a number with a fractional part'],
  ['max_tokens above the model ceiling', base({ max_tokens: 64001 }), 400, 'max_tokens: 64001 > 64000, which is the maximum allowed number of output tokens for claude-sonnet-4-6'],
  ['unknown top-level field', base({ n: 2 }), 400, 'n: Extra inputs are not permitted'],
  ['beta field without the beta header', base({ context_management: {} }), 400, 'context_management: Extra inputs are not permitted'],
  ['unknown model', base({ model: 'claude-nope' }), 404, 'model: claude-nope'],
  ['bad role', base({ messages: [{ role: 'user', content: 'a' }, { role: 'system', content: 'b' }] }), 400, "messages.1.role: Input should be 'user' or 'assistant'"],
  ['extra field on a message', base({ messages: [{ role: 'user', content: 'a', name: 'bob' }] }), 400, 'messages.0.name: Extra inputs are not permitted'],
  ['empty messages', base({ messages: [] }), 400, 'messages: List should have at least 1 item after validation, not 0'],
  ['temperature above 1', base({ temperature: 1.5 }), 400, 'temperature: Input should be less than or equal to 1'],
  ['temperature below 0', base({ temperature: -0.1 }), 400, 'temperature: Input should be greater than or equal to 0'],
  ['top_k negative', base({ top_k: -1 }), 400, 'top_k: Input should be greater than or equal to 0'],
  ['stream not boolean', base({ stream: 'yes' }), 400, 'stream: Input should be a valid boolean'],
  ['empty text block', base({ messages: [{ role: 'user', content: [{ type: 'text', text: '' }] }] }), 400, 'messages: text content blocks must be non-empty'],
  ['whitespace text block', base({ messages: [{ role: 'user', content: [{ type: 'text', text: ' \n' }] }] }), 400, 'messages: text content blocks must contain non-whitespace text'],
  ['empty user content string', base({ messages: [{ role: 'user', content: '' }] }), 400, 'messages.0: all messages must have non-empty content except for the optional final assistant message'],
  ['empty content array in the middle', base({ messages: [{ role: 'user', content: 'a' }, { role: 'assistant', content: [] }, { role: 'user', content: 'b' }] }), 400, 'messages.1: all messages must have non-empty content except for the optional final assistant message'],
  ['prefill ending in whitespace', base({ messages: [{ role: 'user', content: 'a' }, { role: 'assistant', content: 'Well, ' }] }), 400, 'messages: final assistant content cannot end with trailing whitespace'],
  ['unknown block type', base({ messages: [{ role: 'user', content: [{ type: 'video', url: 'x' }] }] }), 400, "messages.0.content.0: Input tag 'video' found using 'type' does not match any of the expected tags: 'text', 'image', 'document', 'search_result', 'thinking', 'redacted_thinking', 'tool_use', 'tool_result', 'server_tool_use', 'web_search_tool_result', 'web_fetch_tool_result', 'code_execution_tool_result', 'bash_code_execution_tool_result', 'text_editor_code_execution_tool_result', 'tool_search_tool_result', 'container_upload'"],
  ['block without type', base({ messages: [{ role: 'user', content: [{ text: 'x' }] }] }), 400, "messages.0.content.0: Unable to extract tag using discriminator 'type'"],
  ['tool_use without tool_result', base({ tools: [WEATHER_TOOL], messages: [
    { role: 'user', content: 'a' },
    { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: {} }] },
    { role: 'user', content: 'b' },
  ] }), 400, 'messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_1. Each `tool_use` block must have a corresponding `tool_result` block in the next message.'],
  ['tool_result after text', base({ tools: [WEATHER_TOOL], messages: [
    { role: 'user', content: 'a' },
    { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: {} }] },
    { role: 'user', content: [{ type: 'text', text: 'here' }, { type: 'tool_result', tool_use_id: 'toolu_1', content: 'x' }] },
  ] }), 400, 'messages.2: Did not find 1 `tool_result` block(s) at the beginning of this message. Messages following `tool_use` blocks must begin with a matching number of `tool_result` blocks.'],
  ['tool_result answering nothing', base({ messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_9', content: 'x' }] }] }), 400, 'messages.0.content.0: unexpected `tool_use_id` found in `tool_result` blocks: toolu_9. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.'],
  ['tool_use id with a bad character', toolLoop({}, [{ type: 'tool_use', id: 'call.1', name: 'get_weather', input: {} }]), 400, "messages.1.content.0.tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'"],
  ['tool_use input not an object', toolLoop({}, [{ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: '{}' }]), 400, 'messages.1.content.0.tool_use.input: Input should be a valid dictionary'],
  ['tool name with a space', base({ tools: [{ name: 'get weather', input_schema: { type: 'object' } }] }), 400, "tools.0.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'"],
  ['tool name too long', base({ tools: [{ name: 'x'.repeat(129), input_schema: { type: 'object' } }] }), 400, "tools.0.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'"],
  ['tool without input_schema', base({ tools: [{ name: 'a' }] }), 400, 'tools.0.custom.input_schema: Field required'],
  ['tool schema not an object type', base({ tools: [{ name: 'a', input_schema: { type: 'string' } }] }), 400, "tools.0.custom.input_schema.type: Input should be 'object'"],
  ['OpenAI-shaped tool', base({ tools: [{ type: 'function', function: { name: 'a' } }] }), 400, "tools.0: Input tag 'function' found using 'type' does not match any of the expected tags: 'custom'"],
  ['duplicate tool names', base({ tools: [WEATHER_TOOL, WEATHER_TOOL] }), 400, 'tools: Tool names must be unique.'],
  ['tool_choice unknown type', base({ tools: [WEATHER_TOOL], tool_choice: { type: 'required' } }), 400, "tool_choice: Input tag 'required' found using 'type' does not match any of the expected tags: 'auto', 'any', 'tool', 'none'"],
  ['tool_choice as a string', base({ tools: [WEATHER_TOOL], tool_choice: 'auto' }), 400, 'tool_choice: Input should be a valid dictionary'],
  ['tool_choice tool without name', base({ tools: [WEATHER_TOOL], tool_choice: { type: 'tool' } }), 400, 'tool_choice.tool.name: Field required'],
  ['tool_choice naming an unknown tool', base({ tools: [WEATHER_TOOL], tool_choice: { type: 'tool', name: 'other' } }), 400, "tool_choice.tool.name: Tool 'other' not found in provided tools"],
  ['tool_choice none with parallel flag', base({ tools: [WEATHER_TOOL], tool_choice: { type: 'none', disable_parallel_tool_use: true } }), 400, 'tool_choice.none.disable_parallel_tool_use: Extra inputs are not permitted'],
  ['tool_choice any without tools', base({ tool_choice: { type: 'any' } }), 400, 'tool_choice: tool_choice may only be specified while providing tools'],
  ['stop_sequences a string', base({ stop_sequences: 'END' }), 400, 'stop_sequences: Input should be a valid list'],
  ['whitespace stop sequence', base({ stop_sequences: ['ok', ' \n'] }), 400, 'stop_sequences: each stop sequence must contain non-whitespace characters'],
  ['metadata with another field', base({ metadata: { user_id: 'u', email: 'a@b' } }), 400, 'metadata.email: Extra inputs are not permitted'],
  ['system as an object', base({ system: { text: 'x' } }), 400, 'system: Input should be a valid string'],
  ['system block of another type', base({ system: [{ type: 'image', source: {} }] }), 400, "system.0.type: Input should be 'text'"],
  ['thinking budget below 1024', base({ max_tokens: 2000, thinking: { type: 'enabled', budget_tokens: 1000 } }), 400, 'thinking.enabled.budget_tokens: Input should be greater than or equal to 1024'],
  ['thinking budget not below max_tokens', base({ max_tokens: 1024, thinking: { type: 'enabled', budget_tokens: 1024 } }), 400, '`max_tokens` must be greater than `thinking.budget_tokens`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking#max-tokens-and-context-window-size'],
  ['thinking with forced tool use', base({ max_tokens: 2000, thinking: { type: 'enabled', budget_tokens: 1024 }, tools: [WEATHER_TOOL], tool_choice: { type: 'any' } }), 400, 'Thinking may not be enabled when tool_choice forces tool use.'],
  ['thinking with temperature', base({ max_tokens: 2000, thinking: { type: 'enabled', budget_tokens: 1024 }, temperature: 0.2 }), 400, '`temperature` may only be set to 1 when thinking is enabled. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking#feature-compatibility'],
  ['thinking loop without the thinking block', toolLoop({ max_tokens: 2000, thinking: { type: 'enabled', budget_tokens: 1024 } }), 400, 'messages.1.content.0.type: Expected `thinking` or `redacted_thinking`, but found `tool_use`. When `thinking` is enabled, a final `assistant` message must start with a thinking block (preceeding the lastmost set of `tool_use` and `tool_result` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable `thinking`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking'],
  ['thinking block with an edited text', toolLoop({}, [
    { type: 'thinking', thinking: THOUGHT + ' (edited)', signature: signThinking(THOUGHT) },
    { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: {} },
  ]), 400, 'messages.1.content.0: Invalid `signature` in `thinking` block'],
  ['opus 4.7 with temperature', base({ model: 'claude-opus-4-7', temperature: 0.7 }), 400, 'temperature: only the default value 1 is supported by claude-opus-4-7; remove this field'],
  ['opus 4.7 with top_k', base({ model: 'claude-opus-4-7', top_k: 10 }), 400, 'top_k: is not supported by claude-opus-4-7; remove this field'],
  ['opus 4.7 with low top_p', base({ model: 'claude-opus-4-7', top_p: 0.9 }), 400, 'top_p: must be at least 0.99 for claude-opus-4-7; remove this field'],
  ['image media type not allowed', base({ messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/bmp', data: PNG_1PX } }] }] }), 400, "messages.0.content.0.image.source.base64.media_type: Input should be 'image/jpeg', 'image/png', 'image/gif' or 'image/webp'"],
  ['image data not base64', base({ messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'not base64!' } }] }] }), 400, 'messages.0.content.0.image.source.base64.data: The image data is not valid base64'],
  ['image bytes of another format', base({ messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: JPEG_HEAD } }] }] }), 400, 'messages.0.content.0.image.source: The image was specified using the image/png media type, but the image appears to be a image/jpeg image'],
  ['OpenAI-style image_url part', base({ messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'x' } }] }] }), 400, "messages.0.content.0: Input tag 'image_url' found using 'type' does not match any of the expected tags: 'text', 'image', 'document', 'search_result', 'thinking', 'redacted_thinking', 'tool_use', 'tool_result', 'server_tool_use', 'web_search_tool_result', 'web_fetch_tool_result', 'code_execution_tool_result', 'bash_code_execution_tool_result', 'text_editor_code_execution_tool_result', 'tool_search_tool_result', 'container_upload'"],
  ['cache_control of an unknown type', base({ system: [{ type: 'text', text: 'x', cache_control: { type: 'persistent' } }] }), 400, "system.0.text.cache_control.type: Input should be 'ephemeral'"],
];

for (const [name, body, status, message] of INVALID) {
  t.test(`invalid: ${name}`, async (t) => {
    const r = validateMessagesRequest(body, ctx);
    t.notOk(r.ok, 'rejected');
    if (r.ok) return;
    t.equal(r.failure.status, status);
    t.equal(r.failure.type, status === 404 ? 'not_found_error' : 'invalid_request_error');
    t.equal(r.failure.message, message);
  });
}

t.test('beta-only fields pass when an anthropic-beta header came with the request', async (t) => {
  t.ok(validateMessagesRequest(base({ context_management: {} }), { models, beta: true }).ok);
});

t.test('count_tokens takes no max_tokens, stream or sampling fields', async (t) => {
  const { max_tokens: _drop, ...body } = base();
  t.ok(validateCountTokensRequest(body, ctx).ok);
  const cases: Array<[Body, string]> = [
    [base(), 'max_tokens: Extra inputs are not permitted'],
    [{ ...body, stream: true }, 'stream: Extra inputs are not permitted'],
    [{ ...body, model: 'claude-x' }, 'model: claude-x'],
    [{ model: 'claude-sonnet-4-6' }, 'messages: Field required'],
  ];
  for (const [b, message] of cases) {
    const r = validateCountTokensRequest(b, ctx);
    t.equal(r.ok ? 'accepted' : r.failure.message, message);
  }
});
