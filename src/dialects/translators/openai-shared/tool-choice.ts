// `tool_choice` and `parallel_tool_calls` → the provider's tool_choice, for both OpenAI formats: the
// string choices are the same in both (`auto`, `none`, `required` → auto, none, any); an object choice
// is each format's own, read by `objectChoice`, which may also narrow the tool list (`allowed_tools`).
import type { ToolChoice, ToolDefinition } from '../../anthropic/wire.js';
import { isRecord } from '../../../lib/is-record.js';
import { fail, isAbsent, optionalBoolean, type Warnings } from './invalid.js';

export interface MappedTools {
  tools?: ToolDefinition[];
  tool_choice?: ToolChoice;
}

export interface Choice {
  choice: ToolChoice;
  tools: ToolDefinition[];
}

export function mapToolChoice(
  body: Record<string, unknown>,
  tools: ToolDefinition[],
  warnings: Warnings,
  objectChoice: (raw: Record<string, unknown>, tools: ToolDefinition[]) => Choice,
): MappedTools {
  const parallel = optionalBoolean(body.parallel_tool_calls, 'parallel_tool_calls');
  const raw = body.tool_choice;
  if (tools.length === 0) {
    // Without tools a choice means nothing; only a demand for a tool call is worth a warning.
    if (!isAbsent(raw) && raw !== 'none' && raw !== 'auto') warnings.add('field_ignored', 'tool_choice');
    return {};
  }
  let choice: ToolChoice | undefined;
  if (raw === 'auto') choice = { type: 'auto' };
  else if (raw === 'none') choice = { type: 'none' };
  else if (raw === 'required') choice = { type: 'any' };
  else if (isRecord(raw)) ({ choice, tools } = objectChoice(raw, tools));
  else if (!isAbsent(raw)) fail('tool_choice', 'tool_choice must be "auto", "none", "required" or an object');
  if (parallel === false && choice?.type !== 'none') choice = { ...(choice ?? { type: 'auto' }), disable_parallel_tool_use: true };
  return choice ? { tools, tool_choice: choice } : { tools };
}
