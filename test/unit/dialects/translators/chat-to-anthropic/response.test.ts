import t from 'tap';
import { chatUsageFrom, mapFinishReason, translateMessageToCompletion } from '../../../../../src/dialects/translators/chat-to-anthropic/response.js';
import type { Message } from '../../../../../src/dialects/anthropic/wire.js';

const ctx = { created: 1767225600, model: 'claude-sonnet-4-5' };

function message(content: Message['content'], stop_reason: string | null = 'end_turn', usage: Partial<Message['usage']> = {}): Message {
  return {
    id: 'msg_01',
    type: 'message',
    role: 'assistant',
    model: 'claude-sonnet-4-5-20250929',
    content,
    stop_reason,
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 5, ...usage },
  };
}

t.test('a tool-use message becomes a chat.completion', async (t) => {
  const { completion, warnings } = translateMessageToCompletion(
    message(
      [
        { type: 'text', text: 'Let me look that up.' },
        { type: 'tool_use', id: 'toolu_01Dq6Ktx4WmVqRa1nEuB3cHs', name: 'get_weather', input: { city: 'Paris' } },
      ],
      'tool_use',
      { input_tokens: 412, output_tokens: 58, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    ),
    ctx,
  );
  t.same(completion, {
    id: 'chatcmpl-msg_01',
    object: 'chat.completion',
    created: 1767225600,
    model: 'claude-sonnet-4-5',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: 'Let me look that up.',
          refusal: null,
          tool_calls: [{ id: 'toolu_01Dq6Ktx4WmVqRa1nEuB3cHs', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }],
        },
        logprobs: null,
        finish_reason: 'tool_calls',
      },
    ],
    usage: { prompt_tokens: 412, completion_tokens: 58, total_tokens: 470, prompt_tokens_details: { cached_tokens: 0 } },
  });
  t.same(warnings, []);
});

t.test('content: text blocks joined, null without text; thinking never in content', async (t) => {
  const only = translateMessageToCompletion(message([{ type: 'tool_use', id: 't1', name: 'f', input: {} }], 'tool_use'), ctx).completion;
  t.equal(only.choices[0]!.message.content, null);
  t.equal(only.choices[0]!.message.tool_calls![0]!.function.arguments, '{}');

  const mixed = translateMessageToCompletion(
    message([
      { type: 'thinking', thinking: 'hmm, ', signature: 'sig' },
      { type: 'redacted_thinking', data: 'xx' },
      { type: 'thinking', thinking: 'ok', signature: 'sig' },
      { type: 'text', text: 'A' },
      { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { q: 'x' } },
      { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: [] },
      { type: 'text', text: 'B' },
    ]),
    ctx,
  ).completion.choices[0]!.message;
  t.equal(mixed.content, 'AB');
  t.equal(mixed.reasoning_content, 'hmm, ok');
  t.equal(mixed.tool_calls, undefined, 'server_tool_use is not a client tool call');
  t.equal(mixed.refusal, null);

  const empty = translateMessageToCompletion(message([]), ctx).completion.choices[0]!.message;
  t.equal(empty.content, null);
  t.notOk('reasoning_content' in empty);
  t.notOk('tool_calls' in empty);
});

const finishTable: Array<[string | null, string, boolean]> = [
  ['end_turn', 'stop', false],
  ['stop_sequence', 'stop', false],
  ['pause_turn', 'stop', false],
  ['max_tokens', 'length', false],
  ['model_context_window_exceeded', 'length', false],
  ['tool_use', 'tool_calls', false],
  ['refusal', 'content_filter', false],
  ['brand_new_reason', 'stop', true],
  ['toString', 'stop', true],
  [null, 'stop', true],
];

t.test('finish reasons: never a raw provider value', async (t) => {
  for (const [stop, reason, unknown] of finishTable) {
    t.same(mapFinishReason(stop), { reason, unknown }, String(stop));
    const r = translateMessageToCompletion(message([{ type: 'text', text: 'x' }], stop), ctx);
    t.equal(r.completion.choices[0]!.finish_reason, reason);
    t.same(r.warnings, unknown ? [{ kind: 'finish_reason_unknown', detail: 'stop_reason' }] : []);
  }
});

t.test('usage counts cache reads and writes in the prompt', async (t) => {
  t.same(chatUsageFrom({ input: 10, output: 4, cacheRead: 100, cacheWrite: 50 }), {
    prompt_tokens: 160,
    completion_tokens: 4,
    total_tokens: 164,
    prompt_tokens_details: { cached_tokens: 100, cache_write_tokens: 50 },
  });
  t.same(chatUsageFrom({ input: 3, output: 1, cacheRead: 0, cacheWrite: 0 }), {
    prompt_tokens: 3,
    completion_tokens: 1,
    total_tokens: 4,
    prompt_tokens_details: { cached_tokens: 0 },
  });
  const r = translateMessageToCompletion(
    message([{ type: 'text', text: 'x' }], 'end_turn', {
      input_tokens: 7,
      output_tokens: 9,
      cache_read_input_tokens: 20,
      cache_creation_input_tokens: null,
      output_tokens_details: { thinking_tokens: 4 },
    }),
    ctx,
  );
  t.same(r.completion.usage, {
    prompt_tokens: 27,
    completion_tokens: 9,
    total_tokens: 36,
    prompt_tokens_details: { cached_tokens: 20 },
    completion_tokens_details: { reasoning_tokens: 4 },
  });
});

t.test('every recorded provider response translates consistently', async (t) => {
  const { fixture } = await import('../../sse/fixture-data.js');
  const recordings = JSON.parse(fixture('anthropic-http-recording-tool-runner.json').toString('utf8')) as Array<{ response: Message }>;
  t.ok(recordings.length >= 10);
  for (const { response } of recordings) {
    const { completion, warnings } = translateMessageToCompletion(response, ctx);
    const choice = completion.choices[0]!;
    const uses = response.content.filter((b) => b.type === 'tool_use') as Array<{ id: string; name: string; input: unknown }>;
    const texts = response.content.filter((b) => b.type === 'text') as Array<{ text: string }>;
    t.equal(choice.message.content, texts.length ? texts.map((b) => b.text).join('') : null);
    t.same(
      choice.message.tool_calls?.map((c) => [c.id, c.function.name, JSON.parse(c.function.arguments)]),
      uses.length ? uses.map((u) => [u.id, u.name, u.input]) : undefined,
    );
    t.equal(choice.finish_reason, response.stop_reason === 'tool_use' ? 'tool_calls' : 'stop');
    const u = response.usage;
    t.equal(completion.usage.prompt_tokens, u.input_tokens + (u.cache_read_input_tokens ?? 0) + (u.cache_creation_input_tokens ?? 0));
    t.same(warnings, []);
  }
});

t.test('an odd provider body does not throw', async (t) => {
  const odd = { id: 'msg_x', content: { not: 'an array' }, stop_reason: 42 } as unknown as Message;
  const { completion, warnings } = translateMessageToCompletion(odd, ctx);
  t.equal(completion.choices[0]!.message.content, null);
  t.equal(completion.choices[0]!.finish_reason, 'stop');
  t.same(completion.usage, { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0, prompt_tokens_details: { cached_tokens: 0 } });
  t.equal(warnings.length, 1);
  const nullBlocks = { ...odd, content: [null, 3, { type: 'text', text: 'ok' }] } as unknown as Message;
  t.equal(translateMessageToCompletion(nullBlocks, ctx).completion.choices[0]!.message.content, 'ok');
});

t.test('the compiled completion serialiser writes exactly what JSON.stringify writes, for every shape', async (t) => {
  const { stringifyCompletion } = await import('../../../../../src/dialects/translators/chat-to-anthropic/completion-json.js');
  const shapes: Array<[string, Message]> = [
    ['text', message([{ type: 'text', text: 'Hello "quoted" \\ back\nline \u2028 \ud83d\ude00' }])],
    ['no content', message([], 'max_tokens')],
    ['tool calls', message([{ type: 'tool_use', id: 'toolu_1', name: 'f', input: { a: [1, { b: null }] } }, { type: 'tool_use', id: 'toolu_2', name: 'g', input: {} }], 'tool_use')],
    ['thinking', message([{ type: 'thinking', thinking: 'hmm', signature: 's' }, { type: 'text', text: 'ok' }])],
    ['cache usage', message([{ type: 'text', text: 'x' }], 'end_turn', { cache_creation_input_tokens: 7, cache_read_input_tokens: 9 })],
    ['unknown stop reason', message([{ type: 'text', text: 'x' }], 'something_new')],
    ['null stop reason', message([{ type: 'text', text: 'x' }], null)],
  ];
  for (const [name, msg] of shapes) {
    const { completion } = translateMessageToCompletion(msg, ctx);
    t.equal(stringifyCompletion(completion), JSON.stringify(completion), name);
  }
});
