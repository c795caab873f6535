// The body check every model request runs (JSON.parse, nesting depth, any top-level member named
// twice), for a small request, a 32 KiB one, a 1 MiB conversation and an agent's conversation of many
// small blocks (tool calls and results: many short strings, the walk's worst case): what the
// duplicate-member check adds to the parse it follows. `node dist/bench/micro/body-check.js`
import { duplicateMember } from '../../src/lib/json/duplicate-members.js';
import { exceedsJsonDepth } from '../../src/lib/json/json-depth.js';
import { parseJsonObject } from '../../src/lib/json/json-object.js';
import { largeChatBody, MODEL } from '../scenarios.js';
import type { MicroCase } from './harness.js';
import { formatResults, isMain, measure } from './harness.js';

const MAX_DEPTH = 64;

export function bodyCheckCases(): MicroCase[] {
  const small = { model: MODEL, max_tokens: 16, stream: true, messages: [{ role: 'user', content: 'Write a short greeting.' }] };
  const cases: MicroCase[] = [];
  for (const [label, body] of [
    ['small', small],
    ['32 KiB', largeChatBody(32 * 1024)],
    ['1 MiB', largeChatBody(1024 * 1024)],
    ['agent, 400 turns', agentBody(400)],
  ] as const) {
    const text = JSON.stringify(body);
    const bytes = Buffer.from(text);
    cases.push(
      { name: `${label}: parse + depth (the check before)`, fn: () => exceedsJsonDepth(JSON.parse(bytes.toString('utf8')), MAX_DEPTH) },
      { name: `${label}: duplicateMember alone`, fn: () => duplicateMember(text, Object.keys(body).length) },
      { name: `${label}: parseJsonObject (parse + depth + duplicates)`, fn: () => parseJsonObject(bytes, MAX_DEPTH) },
    );
  }
  return cases;
}

/** A tool-using agent's request: 20 tool definitions and `turns` pairs of tool call and tool result. */
function agentBody(turns: number): Record<string, unknown> {
  const schema = { type: 'object', properties: { path: { type: 'string', description: 'the file' }, line: { type: 'integer' } }, required: ['path'] };
  const tools = Array.from({ length: 20 }, (_, i) => ({ name: `tool_${i}`, description: 'Reads a file and returns its lines.', input_schema: schema }));
  const messages = [];
  for (let i = 0; i < turns; i++) {
    const id = `toolu_${i}`;
    messages.push({ role: 'assistant', content: [{ type: 'text', text: 'Let me look.' }, { type: 'tool_use', id, name: 'tool_1', input: { path: `/src/f${i}.ts`, line: i } }] });
    messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: 'const a = 1;\n'.repeat(20) }] });
  }
  return { model: MODEL, max_tokens: 32000, stream: true, system: 'You are an agent.', tools, messages };
}

if (isMain(import.meta.url)) console.log(formatResults('body check, per request', bodyCheckCases().map((c) => measure(c))));
