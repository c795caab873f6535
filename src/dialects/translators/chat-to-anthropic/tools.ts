// `tools`, `tool_choice` and `parallel_tool_calls` → the provider's tools and tool_choice (docs/wire.md, "Tool calls").

import type { ToolDefinition } from '../../anthropic/wire.js';
import { expectArray, expectRecord, expectString, fail, isAbsent, type Warnings } from '../openai-shared/invalid.js';
import { inputSchema, toolName } from '../openai-shared/tool-schema.js';
import { mapToolChoice, type Choice, type MappedTools } from '../openai-shared/tool-choice.js';

export function mapTools(body: Record<string, unknown>, warnings: Warnings): MappedTools {
  const tools = isAbsent(body.tools) ? [] : expectArray(body.tools, 'tools').map((t, i) => toolDefinition(t, `tools[${i}]`, warnings));
  return mapToolChoice(body, tools, warnings, toolChoice);
}

function toolDefinition(raw: unknown, param: string, warnings: Warnings): ToolDefinition {
  const t = expectRecord(raw, param);
  if (t.type !== 'function') fail(`${param}.type`, 'only function tools are supported');
  const fn = expectRecord(t.function, `${param}.function`);
  const def: ToolDefinition = {
    name: toolName(fn.name, `${param}.function.name`),
    input_schema: inputSchema(fn.parameters, `${param}.function.parameters`),
  };
  if (!isAbsent(fn.description)) def.description = expectString(fn.description, `${param}.function.description`);
  if (fn.strict === true) warnings.add('field_ignored', `${param}.function.strict`);
  return def;
}

function toolChoice(raw: Record<string, unknown>, tools: ToolDefinition[]): Choice {
  if (raw.type === 'function') {
    const fn = expectRecord(raw.function, 'tool_choice.function');
    return { choice: { type: 'tool', name: expectString(fn.name, 'tool_choice.function.name') }, tools };
  }
  if (raw.type === 'allowed_tools') return allowedTools(raw.allowed_tools, tools);
  return fail('tool_choice.type', `unsupported tool_choice type ${JSON.stringify(raw.type)}`);
}

/** `allowed_tools` has no provider equivalent: keep only the allowed tools, then auto or any. */
function allowedTools(raw: unknown, tools: ToolDefinition[]): Choice {
  const a = expectRecord(raw, 'tool_choice.allowed_tools');
  if (a.mode !== 'auto' && a.mode !== 'required') fail('tool_choice.allowed_tools.mode', 'mode must be "auto" or "required"');
  const list = expectArray(a.tools, 'tool_choice.allowed_tools.tools');
  const names = new Set<string>();
  list.forEach((t, i) => {
    const param = `tool_choice.allowed_tools.tools[${i}]`;
    const fn = expectRecord(expectRecord(t, param).function, `${param}.function`);
    names.add(expectString(fn.name, `${param}.function.name`));
  });
  const kept = tools.filter((t) => names.has(t.name));
  if (kept.length === 0) fail('tool_choice.allowed_tools.tools', 'none of the allowed tools is defined in tools');
  return { choice: { type: a.mode === 'required' ? 'any' : 'auto' }, tools: kept };
}
