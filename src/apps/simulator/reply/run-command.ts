// A scripted agent turn, for clients that run tools themselves (coding agents such as Codex): a user
// message holding `run: <command>` (to the end of its line) makes the model call the request's
// shell-like tool with that command; once the tool's result comes back, the model answers quoting the
// result's last non-blank line, what the command printed last. Deterministic, like every reply.
import type { ContentBlockParam, MessageParam, ToolDefinition } from '../../../dialects/anthropic/wire.js';
import { isRecord } from '../../../lib/is-record.js';

const MARKER = /(?:^|\s)run: ([^\n]+)/;
/** Shell tools as agents name them: Codex's exec_command and shell, and the common others. */
const SHELL_TOOL = /^(?:exec_command|shell|shell_command|bash|run_command|execute_command)$/;

/** The command the conversation's latest `run:` marker names, or null. */
export function runCommandOf(messages: readonly MessageParam[]): string | null {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role !== 'user') continue;
    const blocks = typeof m.content === 'string' ? [{ type: 'text' as const, text: m.content }] : m.content;
    for (let j = blocks.length - 1; j >= 0; j--) {
      const b = blocks[j]!;
      const found = b.type === 'text' ? MARKER.exec(b.text) : null;
      if (found) return found[1]!.trim();
    }
  }
  return null;
}

/** The shell-like tool and its input for `command`: its command member, the command as a string or as argv. */
export function shellCall(tools: readonly ToolDefinition[] | undefined, command: string): { tool: ToolDefinition; input: Record<string, unknown> } | null {
  for (const tool of tools ?? []) {
    const props = isRecord(tool.input_schema.properties) ? tool.input_schema.properties : {};
    const key = 'cmd' in props ? 'cmd' : 'command' in props ? 'command' : null;
    if (key === null || !SHELL_TOOL.test(tool.name)) continue;
    const spec = props[key];
    const asArgv = isRecord(spec) && spec.type === 'array';
    return { tool, input: { [key]: asArgv ? ['bash', '-lc', command] : command } };
  }
  return null;
}

/** The last non-blank line of the tool results' text: what the command printed last. */
export function lastOutputLine(blocks: readonly ContentBlockParam[]): string {
  let text = '';
  for (const b of blocks) {
    if (b.type !== 'tool_result') continue;
    if (typeof b.content === 'string') text += `${b.content}\n`;
    else for (const c of b.content ?? []) if (c.type === 'text') text += `${c.text}\n`;
  }
  const lines = text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== '');
  return lines[lines.length - 1] ?? '';
}
