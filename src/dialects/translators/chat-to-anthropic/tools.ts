// `tools`, `tool_choice` and `parallel_tool_calls` → the provider's tools and tool_choice (docs/wire.md, "Tool calls").

import type { ToolChoice, ToolDefinition } from '../../anthropic/wire.js';
import { expectArray, expectRecord, expectString, fail, isAbsent, optionalBoolean, type Warnings } from './invalid.js';
import { isRecord } from '../../../lib/is-record.js';

export interface MappedTools {
  tools?: ToolDefinition[];
  tool_choice?: ToolChoice;
}

export function mapTools(body: Record<string, unknown>, warnings: Warnings): MappedTools {
  let tools = isAbsent(body.tools) ? [] : expectArray(body.tools, 'tools').map((t, i) => toolDefinition(t, `tools[${i}]`, warnings));
  const parallel = optionalBoolean(body.parallel_tool_calls, 'parallel_tool_calls');
  const choiceRaw = body.tool_choice;
  if (tools.length === 0) {
    // Without tools a choice means nothing; only a demand for a tool call is worth a warning.
    if (!isAbsent(choiceRaw) && choiceRaw !== 'none' && choiceRaw !== 'auto') warnings.add('field_ignored', 'tool_choice');
    return {};
  }
  let choice: ToolChoice | undefined;
  if (!isAbsent(choiceRaw)) ({ choice, tools } = toolChoice(choiceRaw, tools));
  if (parallel === false && choice?.type !== 'none') {
    choice = { ...(choice ?? { type: 'auto' }), disable_parallel_tool_use: true };
  }
  return choice ? { tools, tool_choice: choice } : { tools };
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

// The provider's rule for tool names; the chat format's own (64 characters) is narrower, so any name a
// chat client may legally send passes.
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,128}$/;

function toolName(raw: unknown, param: string): string {
  const name = expectString(raw, param);
  if (!TOOL_NAME.test(name)) fail(param, 'tool names may use only letters, digits, "_" and "-", 1 to 128 characters');
  return name;
}

/** The parameters schema is sent whole (peers that rebuild it lose anyOf, additionalProperties…). */
function inputSchema(raw: unknown, param: string): ToolDefinition['input_schema'] {
  if (isAbsent(raw)) return { type: 'object', properties: {} };
  const schema = expectRecord(raw, param);
  if (schema.type === undefined) return { type: 'object', ...schema };
  if (schema.type !== 'object') fail(`${param}.type`, 'tool parameters must be a JSON schema of type "object"');
  return schema as ToolDefinition['input_schema'];
}

function toolChoice(raw: unknown, tools: ToolDefinition[]): { choice: ToolChoice; tools: ToolDefinition[] } {
  if (raw === 'auto') return { choice: { type: 'auto' }, tools };
  if (raw === 'none') return { choice: { type: 'none' }, tools };
  if (raw === 'required') return { choice: { type: 'any' }, tools };
  if (!isRecord(raw)) return fail('tool_choice', 'tool_choice must be "auto", "none", "required" or an object');
  if (raw.type === 'function') {
    const fn = expectRecord(raw.function, 'tool_choice.function');
    return { choice: { type: 'tool', name: expectString(fn.name, 'tool_choice.function.name') }, tools };
  }
  if (raw.type === 'allowed_tools') return allowedTools(raw.allowed_tools, tools);
  return fail('tool_choice.type', `unsupported tool_choice type ${JSON.stringify(raw.type)}`);
}

/** `allowed_tools` has no provider equivalent: keep only the allowed tools, then auto or any. */
function allowedTools(raw: unknown, tools: ToolDefinition[]): { choice: ToolChoice; tools: ToolDefinition[] } {
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
