// An assistant message → text block(s) then tool_use blocks (docs/wire.md, "Tool calls").

import type { TextBlockParam, ToolUseBlockParam } from '../../anthropic/wire.js';
import { expectArray, expectRecord, expectString, fail, isAbsent, isBlank, type Warnings } from '../openai-shared/invalid.js';
import type { ToolIdAllocator } from '../openai-shared/tool-ids.js';
import { parseArguments } from '../openai-shared/tool-arguments.js';

/** A tool call that still needs its result in the next user turn. */
export interface PendingCall {
  originalId: string;
  id: string;
  name: string;
  param: string;
}

export interface AssistantTurnPart {
  blocks: Array<TextBlockParam | ToolUseBlockParam>;
  calls: PendingCall[];
}

export function assistantBlocks(
  m: Record<string, unknown>,
  param: string,
  ids: ToolIdAllocator,
  warnings: Warnings,
): AssistantTurnPart {
  const blocks: Array<TextBlockParam | ToolUseBlockParam> = [];
  for (const text of assistantTexts(m.content, `${param}.content`)) blocks.push({ type: 'text', text });
  // `refusal` is the model's own earlier words: keep them in the history as text.
  if (typeof m.refusal === 'string' && !isBlank(m.refusal)) blocks.push({ type: 'text', text: m.refusal });
  const calls: PendingCall[] = [];
  const addCall = (c: ParsedCall): void => {
    calls.push(c.pending);
    blocks.push({ type: 'tool_use', id: c.pending.id, name: c.pending.name, input: c.input });
  };
  if (!isAbsent(m.tool_calls)) {
    const list = expectArray(m.tool_calls, `${param}.tool_calls`);
    for (let j = 0; j < list.length; j++) addCall(toolCall(list[j], `${param}.tool_calls[${j}]`, ids));
  }
  if (!isAbsent(m.function_call)) addCall(legacyFunctionCall(m.function_call, `${param}.function_call`, ids));
  if (!isAbsent(m.name)) warnings.add('field_ignored', `${param}.name`);
  return { blocks, calls };
}

interface ParsedCall {
  pending: PendingCall;
  input: Record<string, unknown>;
}

function assistantTexts(content: unknown, param: string): string[] {
  if (isAbsent(content)) return [];
  if (typeof content === 'string') return isBlank(content) ? [] : [content];
  if (!Array.isArray(content)) fail(param, `${param} must be a string, an array of parts or null`);
  const texts: string[] = [];
  for (let j = 0; j < content.length; j++) {
    const p = expectRecord(content[j], `${param}[${j}]`);
    const key = p.type === 'text' ? 'text' : p.type === 'refusal' ? 'refusal' : null;
    if (key === null) fail(`${param}[${j}].type`, 'assistant content parts must be text or refusal');
    const s = expectString(p[key], `${param}[${j}].${key}`);
    if (!isBlank(s)) texts.push(s);
  }
  return texts;
}

function toolCall(raw: unknown, param: string, ids: ToolIdAllocator): ParsedCall {
  const c = expectRecord(raw, param);
  if (c.type !== undefined && c.type !== 'function') fail(`${param}.type`, 'only function tool calls are supported');
  const originalId = expectString(c.id, `${param}.id`);
  if (originalId.length === 0) fail(`${param}.id`, `${param}.id must not be empty`);
  const fn = expectRecord(c.function, `${param}.function`);
  const name = expectString(fn.name, `${param}.function.name`);
  const input = parseArguments(fn.arguments, `${param}.function.arguments`);
  return { pending: { originalId, id: ids.allocate(originalId, `${param}.id`), name, param }, input };
}

/** The deprecated `function_call` has no id: derive a stable one so its `function` reply can refer to it. */
function legacyFunctionCall(raw: unknown, param: string, ids: ToolIdAllocator): ParsedCall {
  const fn = expectRecord(raw, param);
  const name = expectString(fn.name, `${param}.name`);
  const originalId = `function_call_${param.replace(/\D+/g, '')}`;
  const input = parseArguments(fn.arguments, `${param}.arguments`);
  return { pending: { originalId, id: ids.allocate(originalId, param), name, param }, input };
}
