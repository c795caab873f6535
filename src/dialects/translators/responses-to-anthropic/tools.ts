// Responses `tools`, `tool_choice` and `parallel_tool_calls` → the provider's tools and tool_choice
// (docs/wire.md, "Responses surface"). Function tools map one to one; a `custom` (freeform) tool
// becomes a tool taking one string, `input`; Codex's `namespace` groups are flattened into their
// functions, named `<namespace>__<function>`; hosted tools the provider cannot run are left out
// with a warning. ./tool-names.ts maps the provider's names back.

import type { ToolDefinition } from '../../anthropic/wire.js';
import { safeDetail } from '../warnings.js';
import { expectArray, expectRecord, expectString, fail, isAbsent, type Warnings } from '../openai-shared/invalid.js';
import { inputSchema, toolName } from '../openai-shared/tool-schema.js';
import { mapToolChoice, type Choice, type MappedTools } from '../openai-shared/tool-choice.js';
import { CUSTOM_INPUT, NAMESPACE_SEPARATOR } from './tool-names.js';

export function mapTools(body: Record<string, unknown>, warnings: Warnings): MappedTools {
  const tools: ToolDefinition[] = [];
  const dropped = new Set<string>();
  if (!isAbsent(body.tools)) {
    const list = expectArray(body.tools, 'tools');
    for (let i = 0; i < list.length; i++) addTool(list[i], `tools[${i}]`, tools, dropped, warnings);
  }
  const names = new Set<string>();
  for (const t of tools) {
    if (names.has(t.name)) fail('tools', `two tools are named ${JSON.stringify(t.name)}`);
    names.add(t.name);
  }
  return mapToolChoice(body, tools, warnings, (raw, all) => toolChoice(raw, all, names, dropped, warnings));
}

function addTool(raw: unknown, param: string, into: ToolDefinition[], dropped: Set<string>, warnings: Warnings): void {
  const t = expectRecord(raw, param);
  const type = expectString(t.type, `${param}.type`);
  switch (type) {
    case 'function':
      into.push(functionTool(t, param, '', warnings));
      return;
    case 'custom':
      into.push(customTool(t, param, warnings));
      return;
    case 'namespace': {
      const ns = namespaceName(t.name, `${param}.name`);
      const list = expectArray(t.tools, `${param}.tools`);
      for (let j = 0; j < list.length; j++) {
        const inner = expectRecord(list[j], `${param}.tools[${j}]`);
        if (inner.type !== 'function') fail(`${param}.tools[${j}].type`, 'a namespace holds function tools only');
        into.push(functionTool(inner, `${param}.tools[${j}]`, ns, warnings));
      }
      return;
    }
    default:
      // web_search, file_search, code_interpreter, computer_use, image_generation, mcp, local_shell, …:
      // tools the provider runs for the real service, not here. Left out, never a failure.
      dropped.add(type);
      warnings.add('tool_dropped', safeDetail(type));
  }
}

function functionTool(t: Record<string, unknown>, param: string, namespace: string, warnings: Warnings): ToolDefinition {
  const name = toolName(t.name, `${param}.name`);
  const def: ToolDefinition = {
    name: namespace === '' ? name : providerName(namespace, name, `${param}.name`),
    input_schema: inputSchema(t.parameters, `${param}.parameters`),
  };
  if (!isAbsent(t.description)) def.description = expectString(t.description, `${param}.description`);
  if (t.strict === true) warnings.add('field_ignored', `${param}.strict`);
  return def;
}

/** A freeform tool: the model writes one string, given to the provider as the tool's one `input` member. */
function customTool(t: Record<string, unknown>, param: string, warnings: Warnings): ToolDefinition {
  const name = toolName(t.name, `${param}.name`);
  if (name.includes(NAMESPACE_SEPARATOR)) fail(`${param}.name`, `custom tool names may not contain "${NAMESPACE_SEPARATOR}"`);
  const input: Record<string, unknown> = { type: 'string' };
  if (!isAbsent(t.format)) {
    const format = expectRecord(t.format, `${param}.format`);
    if (format.type === 'grammar') {
      // The provider has no grammar-constrained output: the grammar is shown to the model, not enforced.
      const syntax = typeof format.syntax === 'string' ? format.syntax : 'grammar';
      input.description = `The input, following this ${syntax} grammar:\n${expectString(format.definition, `${param}.format.definition`)}`;
      warnings.add('field_ignored', `${param}.format`);
    } else if (format.type !== 'text') {
      fail(`${param}.format.type`, 'a custom tool format is "text" or "grammar"');
    }
  }
  const def: ToolDefinition = { name, input_schema: { type: 'object', properties: { [CUSTOM_INPUT]: input }, required: [CUSTOM_INPUT] } };
  if (!isAbsent(t.description)) def.description = expectString(t.description, `${param}.description`);
  return def;
}

const NAMESPACE = /^[a-zA-Z0-9_-]{1,64}$/;

function namespaceName(raw: unknown, param: string): string {
  const name = expectString(raw, param);
  if (!NAMESPACE.test(name) || name.includes(NAMESPACE_SEPARATOR)) {
    fail(param, `namespace names may use only letters, digits, "_" and "-" (not "${NAMESPACE_SEPARATOR}"), 1 to 64 characters`);
  }
  return name;
}

function providerName(namespace: string, name: string, param: string): string {
  const joined = namespace + NAMESPACE_SEPARATOR + name;
  if (joined.length > 128) fail(param, 'a namespace and function name together may have at most 126 characters');
  return joined;
}

function toolChoice(raw: Record<string, unknown>, tools: ToolDefinition[], names: Set<string>, dropped: Set<string>, warnings: Warnings): Choice {
  const type = raw.type;
  if (type === 'function' || type === 'custom') {
    const name = expectString(raw.name, 'tool_choice.name');
    const named = type === 'function' && typeof raw.namespace === 'string' ? raw.namespace + NAMESPACE_SEPARATOR + name : name;
    if (!names.has(named)) fail('tool_choice.name', `no tool named ${JSON.stringify(name)} is defined in tools`);
    return { choice: { type: 'tool', name: named }, tools };
  }
  if (type === 'allowed_tools') return allowedTools(raw, tools, names);
  if (typeof type === 'string' && dropped.has(type)) {
    // A demand for a hosted tool that was left out: the model chooses among the others.
    warnings.add('field_ignored', 'tool_choice');
    return { choice: { type: 'auto' }, tools };
  }
  return fail('tool_choice.type', `unsupported tool_choice type ${JSON.stringify(type)}`);
}

/** `allowed_tools` has no provider equivalent: only the allowed tools are sent, then auto or any. */
function allowedTools(raw: Record<string, unknown>, tools: ToolDefinition[], names: Set<string>): Choice {
  if (raw.mode !== 'auto' && raw.mode !== 'required') fail('tool_choice.mode', 'mode must be "auto" or "required"');
  const list = expectArray(raw.tools, 'tool_choice.tools');
  const allowed = new Set<string>();
  list.forEach((t, i) => {
    const entry = expectRecord(t, `tool_choice.tools[${i}]`);
    const name = expectString(entry.name, `tool_choice.tools[${i}].name`);
    allowed.add(typeof entry.namespace === 'string' ? entry.namespace + NAMESPACE_SEPARATOR + name : name);
  });
  const kept = tools.filter((t) => allowed.has(t.name) && names.has(t.name));
  if (kept.length === 0) fail('tool_choice.tools', 'none of the allowed tools is defined in tools');
  return { choice: { type: raw.mode === 'required' ? 'any' : 'auto' }, tools: kept };
}
