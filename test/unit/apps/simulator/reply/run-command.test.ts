// The simulator's scripted agent turn: `run: <command>` → a call of the shell-like tool with that
// command; its result back → an answer quoting what the command printed last.
import t from 'tap';
import type { MessagesRequest, ToolDefinition } from '../../../../../src/dialects/anthropic/wire.js';
import type { IdSource } from '../../../../../src/apps/simulator/ids.js';
import { generateReply } from '../../../../../src/apps/simulator/reply/generate.js';
import { shellCall } from '../../../../../src/apps/simulator/reply/run-command.js';

const ids: IdSource = (kind) => `${kind}_1`;
const EXEC: ToolDefinition = { name: 'exec_command', input_schema: { type: 'object', properties: { cmd: { type: 'string' }, workdir: { type: 'string' }, yield_time_ms: { type: 'number' } }, required: ['cmd'] } };
const SHELL: ToolDefinition = { name: 'shell', input_schema: { type: 'object', properties: { command: { type: 'array', items: { type: 'string' } } } } };
const OTHER: ToolDefinition = { name: 'get_weather', input_schema: { type: 'object', properties: { city: { type: 'string' } } } };

const text = (reply: ReturnType<typeof generateReply>) => reply.blocks.flatMap((b) => (b.type === 'text' ? b.deltas : [])).join('');

t.test('a run: marker calls the shell tool with the command, and nothing else', async (t) => {
  const req: MessagesRequest = { model: 'claude-sonnet-4-6', max_tokens: 200, tools: [OTHER, EXEC], messages: [{ role: 'user', content: [{ type: 'text', text: 'context' }, { type: 'text', text: 'please run: echo hi there\nthanks' }] }] };
  const reply = generateReply(req, { replyTokens: 12 }, ids);
  const call = reply.blocks.find((b) => b.type === 'tool_use');
  t.match(call, { type: 'tool_use', name: 'exec_command', input: { cmd: 'echo hi there' }, complete: true });
  t.same(Object.keys((call as { input: object }).input), ['cmd']);
  t.equal(reply.stopReason, 'tool_use');
  t.same(shellCall([SHELL], 'ls -la')!.input, { command: ['bash', '-lc', 'ls -la'] }, 'an argv command');
  t.equal(shellCall([OTHER], 'ls'), null, 'no shell-like tool: the usual reply');
});

t.test('the result back: the answer quotes its last non-blank line', async (t) => {
  const req: MessagesRequest = {
    model: 'claude-sonnet-4-6',
    max_tokens: 200,
    tools: [EXEC],
    messages: [
      { role: 'user', content: 'run: echo marker-1' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'exec_command', input: { cmd: 'echo marker-1' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'Chunk ID: 1\nOutput:\nmarker-1\n\n' }] },
    ],
  };
  const reply = generateReply(req, { replyTokens: 12 }, ids);
  t.equal(text(reply), 'The command printed: marker-1');
  t.equal(reply.stopReason, 'end_turn');
  t.notOk(reply.blocks.some((b) => b.type === 'tool_use'));
});
