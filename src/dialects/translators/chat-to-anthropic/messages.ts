// The chat message list → the provider's `system` and alternating `messages` (docs/wire.md, "Conversation rules").
// System/developer messages are hoisted; tool results are grouped first in the next user turn;
// consecutive turns of one role are merged; tool results must answer the preceding tool calls.

import type { ContentBlockParam, MessageParam, TextBlockParam, ToolResultBlockParam } from '../../anthropic/wire.js';
import { assistantBlocks, type PendingCall } from './assistant.js';
import { systemTexts, toolResultContent, userBlocks } from './content-parts.js';
import { expectRecord, expectString, fail, isAbsent, type Warnings } from '../openai-shared/invalid.js';
import type { ToolIdAllocator } from '../openai-shared/tool-ids.js';

interface Turn {
  role: 'user' | 'assistant';
  /** tool_result blocks: the provider wants them before anything else in a user turn. */
  results: ToolResultBlockParam[];
  blocks: ContentBlockParam[];
  /** Index of the first chat message of the turn, for error params. */
  firstIndex: number;
}

export interface ConvertedMessages {
  system: TextBlockParam[];
  messages: MessageParam[];
}

export function convertMessages(raw: unknown[], ids: ToolIdAllocator, warnings: Warnings): ConvertedMessages {
  const b = new ConversationBuilder(ids, warnings);
  for (let i = 0; i < raw.length; i++) b.add(raw[i], i);
  return b.finish();
}

class ConversationBuilder {
  private readonly system: TextBlockParam[] = [];
  private readonly turns: Turn[] = [];
  /** Calls of the latest assistant message still waiting for their tool message. */
  private pending = new PendingCalls([]);

  constructor(
    private readonly ids: ToolIdAllocator,
    private readonly warnings: Warnings,
  ) {}

  add(raw: unknown, i: number): void {
    const param = `messages[${i}]`;
    const m = expectRecord(raw, param);
    switch (m.role) {
      case 'system':
      case 'developer':
        for (const text of systemTexts(m.content, `${param}.content`)) this.system.push({ type: 'text', text });
        if (!isAbsent(m.name)) this.warnings.add('field_ignored', `${param}.name`);
        return;
      case 'user':
        return this.addUser(m, i);
      case 'assistant':
        return this.addAssistant(m, i);
      case 'tool':
        return this.addToolResult(this.takeById(m.tool_call_id, `${param}.tool_call_id`), m.content, i);
      case 'function':
        return this.addToolResult(this.takeByName(m.name, `${param}.name`), m.content, i);
      default:
        fail(`${param}.role`, `unsupported role ${JSON.stringify(m.role)}`);
    }
  }

  private addUser(m: Record<string, unknown>, i: number): void {
    const param = `messages[${i}]`;
    const blocks = userBlocks(m.content, `${param}.content`, this.warnings);
    if (blocks.length === 0) fail(`${param}.content`, `${param}.content must not be empty`);
    if (!isAbsent(m.name)) this.warnings.add('field_ignored', `${param}.name`);
    appendAll(this.turn('user', i).blocks, blocks);
  }

  private addAssistant(m: Record<string, unknown>, i: number): void {
    this.requireNoPending();
    const part = assistantBlocks(m, `messages[${i}]`, this.ids, this.warnings);
    if (part.blocks.length === 0) {
      // An empty assistant message (seen after aborted streams) says nothing: leave it out.
      this.warnings.add('message_dropped', `messages[${i}]`);
      return;
    }
    appendAll(this.turn('assistant', i).blocks, part.blocks);
    this.pending = new PendingCalls(part.calls);
  }

  private addToolResult(call: PendingCall, content: unknown, i: number): void {
    const result: ToolResultBlockParam = { type: 'tool_result', tool_use_id: call.id };
    const c = toolResultContent(content, `messages[${i}].content`, this.warnings);
    if (c !== undefined) result.content = c;
    this.turn('user', i).results.push(result);
  }

  private takeById(raw: unknown, param: string): PendingCall {
    const id = expectString(raw, param);
    const call = this.pending.take(this.pending.byId, id);
    if (!call) fail(param, `no preceding assistant tool call has the id ${JSON.stringify(id)}`);
    return call;
  }

  private takeByName(raw: unknown, param: string): PendingCall {
    const name = expectString(raw, param);
    const call = this.pending.take(this.pending.byName, name);
    if (!call) fail(param, `no preceding assistant call of function ${JSON.stringify(name)} is waiting for a result`);
    return call;
  }

  /** Every tool call must be answered before the conversation moves on (the provider requires it). */
  private requireNoPending(): void {
    const open = this.pending.firstOpen();
    if (open) fail(`${open.param}.id`, `tool call ${JSON.stringify(open.originalId)} has no tool message answering it`);
  }

  /** The turn to append to: the last one if it has this role, else a new one. */
  private turn(role: Turn['role'], i: number): Turn {
    const last = this.turns[this.turns.length - 1];
    if (last && last.role === role) return last;
    const t: Turn = { role, results: [], blocks: [], firstIndex: i };
    this.turns.push(t);
    return t;
  }

  finish(): ConvertedMessages {
    this.requireNoPending();
    trimFinalAssistant(this.turns);
    const first = this.turns[0];
    if (!first) fail('messages', 'messages must contain at least one user message');
    if (first.role !== 'user') {
      fail(`messages[${first.firstIndex}].role`, 'the first message after system messages must be a user message');
    }
    const messages = this.turns.map((t) => ({ role: t.role, content: [...t.results, ...t.blocks] }));
    return { system: this.system, messages };
  }
}

/**
 * A final assistant turn is a prefill; the provider refuses one that ends in whitespace. Blank
 * text blocks were already left out, so trimming the end never empties the block.
 */
function trimFinalAssistant(turns: Turn[]): void {
  const last = turns[turns.length - 1];
  if (last?.role !== 'assistant') return;
  const tail = last.blocks[last.blocks.length - 1];
  if (tail?.type === 'text') tail.text = tail.text.trimEnd();
}

/**
 * The calls of one assistant message, looked up by id (tool messages) or name (legacy function
 * messages) in constant time: a long agent transcript must not cost quadratic work.
 */
class PendingCalls {
  readonly byId = new Map<string, CallQueue>();
  readonly byName = new Map<string, CallQueue>();
  private readonly answered = new Set<PendingCall>();

  constructor(private readonly calls: PendingCall[]) {
    for (const c of calls) {
      queue(this.byId, c.originalId).items.push(c);
      queue(this.byName, c.name).items.push(c);
    }
  }

  /** The first unanswered call under `key`, now marked answered. */
  take(index: Map<string, CallQueue>, key: string): PendingCall | undefined {
    const q = index.get(key);
    if (!q) return undefined;
    // Calls answered through the other index are skipped; the head only moves forward.
    while (q.head < q.items.length && this.answered.has(q.items[q.head]!)) q.head++;
    const c = q.items[q.head];
    if (c) {
      q.head++;
      this.answered.add(c);
    }
    return c;
  }

  firstOpen(): PendingCall | undefined {
    return this.answered.size === this.calls.length ? undefined : this.calls.find((c) => !this.answered.has(c));
  }
}

interface CallQueue {
  items: PendingCall[];
  head: number;
}

function queue(map: Map<string, CallQueue>, key: string): CallQueue {
  let q = map.get(key);
  if (!q) map.set(key, (q = { items: [], head: 0 }));
  return q;
}

/** push(...items) overflows the call stack for very large arrays. */
function appendAll<T>(into: T[], items: readonly T[]): void {
  for (let i = 0; i < items.length; i++) into.push(items[i]!);
}
