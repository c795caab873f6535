// The reply the simulated model writes for a valid request: deterministic apart from ids, and
// the single source for both the JSON body and the SSE stream, so they always agree.
import type { ContentBlockParam, MessageParam, MessagesRequest, StopReason, ToolDefinition } from '../../../dialects/anthropic/wire.js';
import type { IdSource } from '../ids.js';
import { signThinking } from '../signature.js';
import { estimateInput, type InputEstimate } from './estimate.js';
import { exampleInput } from './schema-example.js';
import { cutText, firstWords, padWords, toTokens } from './words.js';
import { lastOutputLine, runCommandOf, shellCall } from './run-command.js';

export type ReplyBlock =
  | { type: 'text'; deltas: string[] }
  /** `deltas` is empty when the request asked for display "omitted". */
  | { type: 'thinking'; deltas: string[]; signature: string }
  /** `pieces` concatenate to the input JSON; a block cut by max_tokens is not `complete`. */
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown>; pieces: string[]; complete: boolean };

export interface Reply {
  blocks: ReplyBlock[];
  stopReason: StopReason;
  stopSequence: string | null;
  input: InputEstimate;
  outputTokens: number;
}

export interface ReplySettings {
  replyTokens: number;
}

const THINKING_WORDS = ['The', 'user', 'wants', 'an', 'answer,', 'so', 'I', 'will', 'reply', 'briefly.'];

/** The user messages after the last assistant turn (ignoring a final assistant prefill). */
function lastUserBlocks(messages: readonly MessageParam[]): ContentBlockParam[] {
  let end = messages.length;
  while (end > 0 && messages[end - 1].role === 'assistant') end--;
  let start = end;
  while (start > 0 && messages[start - 1].role === 'user') start--;
  const blocks: ContentBlockParam[] = [];
  for (let i = start; i < end; i++) {
    const c = messages[i].content;
    if (typeof c === 'string') blocks.push({ type: 'text', text: c });
    else blocks.push(...c);
  }
  return blocks;
}

function textOf(blocks: readonly ContentBlockParam[], limitWords: number): string[] {
  const words: string[] = [];
  for (const b of blocks) {
    if (words.length >= limitWords) break;
    if (b.type === 'text') words.push(...firstWords(b.text, limitWords - words.length));
  }
  return words;
}

function toolResultWords(blocks: readonly ContentBlockParam[], limitWords: number): string[] {
  const words: string[] = [];
  for (const b of blocks) {
    if (b.type !== 'tool_result' || words.length >= limitWords) continue;
    if (typeof b.content === 'string') words.push(...firstWords(b.content, limitWords - words.length));
    else if (Array.isArray(b.content)) words.push(...textOf(b.content, limitWords - words.length));
  }
  return words;
}

/** The client tools the reply calls, or none. */
function toolsToCall(req: MessagesRequest, userBlocks: readonly ContentBlockParam[]): ToolDefinition[] {
  const tools = (req.tools ?? []).filter((t) => t.input_schema !== undefined);
  const choice = req.tool_choice;
  if (tools.length === 0 || choice?.type === 'none') return [];
  if (userBlocks.some((b) => b.type === 'tool_result')) return [];
  if (choice?.type === 'tool') return tools.filter((t) => t.name === choice.name).slice(0, 1);
  if (choice?.type === 'any' && !choice.disable_parallel_tool_use && tools.length >= 2) return tools.slice(0, 2);
  return tools.slice(0, 1);
}

/** Splits JSON into at least three pieces (when it has three characters) of at most 8. */
function jsonPieces(json: string): string[] {
  const size = Math.max(1, Math.min(8, Math.ceil(json.length / 3)));
  const pieces: string[] = [];
  for (let i = 0; i < json.length; i += size) pieces.push(json.slice(i, i + size));
  return pieces;
}

function thinkingBlock(req: MessagesRequest, budget: number): { block: ReplyBlock; consumed: number } {
  const tokens = toTokens(THINKING_WORDS).slice(0, budget);
  const text = tokens.join('');
  const omitted = req.thinking !== undefined && 'display' in req.thinking && req.thinking.display === 'omitted';
  return { block: { type: 'thinking', deltas: omitted ? [] : tokens, signature: signThinking(text) }, consumed: tokens.length };
}

/** `input` is the request's input as the account's prompt cache sees it (default: a cold cache). */
export function generateReply(req: MessagesRequest, settings: ReplySettings, newId: IdSource, input: InputEstimate = estimateInput(req)): Reply {
  const blocks: ReplyBlock[] = [];
  let budget = req.max_tokens;
  let stopReason: StopReason = 'end_turn';
  let stopSequence: string | null = null;

  if (budget > 0 && (req.thinking?.type === 'enabled' || req.thinking?.type === 'adaptive')) {
    const { block, consumed } = thinkingBlock(req, budget);
    blocks.push(block);
    budget -= consumed;
  }

  const userBlocks = lastUserBlocks(req.messages);
  const answered = userBlocks.some((b) => b.type === 'tool_result');
  // A `run: <command>` conversation (./run-command.ts): call the shell tool, then quote what it printed.
  const command = runCommandOf(req.messages);
  const shell = command === null || req.tool_choice?.type === 'none' ? null : shellCall(req.tools, command);
  const tools = shell !== null && !answered ? [shell.tool] : toolsToCall(req, userBlocks);
  const n = settings.replyTokens;
  let lead: string[];
  if (shell !== null && answered) lead = ['The', 'command', 'printed:', ...lastOutputLine(userBlocks).split(/\s+/)];
  else if (tools.length > 0) lead = ['I', 'will', 'call', tools[0].name, ...(tools.length > 1 ? ['and', tools[1].name] : []), 'now.'];
  else if (userBlocks.some((b) => b.type === 'tool_result')) lead = padWords(['The', 'tool', 'returned:', ...toolResultWords(userBlocks, n)], n);
  else lead = padWords(['You', 'said:', ...textOf(userBlocks, n)], n);

  const cut = cutText(toTokens(lead), req.stop_sequences ?? [], budget);
  if (cut.deltas.length > 0) blocks.push({ type: 'text', deltas: cut.deltas });
  budget -= cut.consumed;
  if (cut.stop !== null) {
    stopReason = cut.stop;
    stopSequence = cut.stopSequence;
  } else if (budget === 0 && tools.length > 0) {
    stopReason = 'max_tokens';
  } else {
    for (const tool of tools) {
      const input = shell !== null && tool === shell.tool ? shell.input : exampleInput(tool.input_schema);
      const all = jsonPieces(JSON.stringify(input));
      const pieces = all.slice(0, budget);
      const complete = pieces.length === all.length;
      if (pieces.length > 0) blocks.push({ type: 'tool_use', id: newId('toolu'), name: tool.name, input: complete ? input : {}, pieces, complete });
      budget -= pieces.length;
      stopReason = complete ? 'tool_use' : 'max_tokens';
      if (!complete) break;
    }
  }
  if (req.max_tokens === 0) stopReason = 'max_tokens';
  return { blocks, stopReason, stopSequence, input, outputTokens: req.max_tokens - budget };
}
