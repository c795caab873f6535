// A function tool's name and JSON Schema as the OpenAI formats give them → what the provider takes
// (docs/wire.md, "Tool calls"): the same rules on the chat and the Responses surface.

import type { ToolDefinition } from '../../anthropic/wire.js';
import { expectRecord, expectString, fail, isAbsent } from './invalid.js';

// The provider's rule for tool names; the chat format's own (64 characters) is narrower, so any name a
// chat client may legally send passes.
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,128}$/;

export function toolName(raw: unknown, param: string): string {
  const name = expectString(raw, param);
  if (!TOOL_NAME.test(name)) fail(param, 'tool names may use only letters, digits, "_" and "-", 1 to 128 characters');
  return name;
}

/** The parameters schema is sent whole (peers that rebuild it lose anyOf, additionalProperties…). */
export function inputSchema(raw: unknown, param: string): ToolDefinition['input_schema'] {
  if (isAbsent(raw)) return { type: 'object', properties: {} };
  const schema = expectRecord(raw, param);
  if (schema.type === undefined) return { type: 'object', ...schema };
  if (schema.type !== 'object') fail(`${param}.type`, 'tool parameters must be a JSON schema of type "object"');
  return schema as ToolDefinition['input_schema'];
}
