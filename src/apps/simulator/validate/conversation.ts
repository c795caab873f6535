// The `messages` array: each message's shape, then the rules that span messages (non-empty
// content, trailing whitespace of a prefill, tool_use/tool_result pairing, thinking round trips).
import { checkContentBlock } from './content.js';
import { at, fail, isBlank, list, literal, noExtra, obj, requireField, type Json } from './check.js';

const MESSAGE_KEYS = new Set(['role', 'content']);

/** A block with where it came from, so errors name the caller's original indices. */
interface PlacedBlock {
  msg: number;
  idx: number;
  block: Json;
  kind: string;
}

/** Consecutive messages of one role; the provider merges them into one turn. */
interface Turn {
  role: 'user' | 'assistant';
  firstMsg: number;
  blocks: PlacedBlock[];
}

function checkMessage(v: unknown, i: number, last: boolean): { role: 'user' | 'assistant'; blocks: PlacedBlock[] } {
  const loc = at('messages', i);
  const m = obj(v, loc);
  noExtra(m, MESSAGE_KEYS, loc);
  const role = literal(requireField(m, 'role', loc), at(loc, 'role'), ['user', 'assistant']);
  const content = requireField(m, 'content', loc);
  const blocks: PlacedBlock[] = [];
  if (typeof content === 'string') {
    if (content !== '') blocks.push({ msg: i, idx: 0, block: { type: 'text', text: content }, kind: 'text' });
  } else {
    const items = list(content, at(loc, 'content'));
    for (let j = 0; j < items.length; j++) {
      const kind = checkContentBlock(items[j], at(at(loc, 'content'), j));
      blocks.push({ msg: i, idx: j, block: items[j] as Json, kind });
    }
  }
  const allowedEmpty = last && role === 'assistant';
  if (blocks.length === 0 && !allowedEmpty) {
    fail(loc, 'all messages must have non-empty content except for the optional final assistant message');
  }
  if (typeof content === 'string' && content !== '' && isBlank(content) && !allowedEmpty) {
    fail('messages', 'text content blocks must contain non-whitespace text');
  }
  return { role, blocks };
}

function toTurns(messages: unknown[]): Turn[] {
  const turns: Turn[] = [];
  for (let i = 0; i < messages.length; i++) {
    const { role, blocks } = checkMessage(messages[i], i, i === messages.length - 1);
    const prev = turns[turns.length - 1];
    if (prev && prev.role === role) prev.blocks.push(...blocks);
    else turns.push({ role, firstMsg: i, blocks });
  }
  return turns;
}

function checkPrefillWhitespace(turns: Turn[]): void {
  const lastTurn = turns[turns.length - 1];
  if (lastTurn.role !== 'assistant' || lastTurn.blocks.length === 0) return;
  const lastBlock = lastTurn.blocks[lastTurn.blocks.length - 1];
  if (lastBlock.kind !== 'text') return;
  const text = lastBlock.block.text as string;
  const c = text.charCodeAt(text.length - 1);
  if (c === 32 || c === 9 || c === 10 || c === 13) fail('messages', 'final assistant content cannot end with trailing whitespace');
}

/** Rules 1 and 2 of docs/wire.md ("Conversation rules"), and tool results that answer nothing. */
function checkToolPairing(turns: Turn[]): void {
  for (let t = 0; t < turns.length; t++) {
    const turn = turns[t];
    if (turn.role === 'assistant') {
      const ids = turn.blocks.filter((b) => b.kind === 'tool_use').map((b) => b.block.id as string);
      if (ids.length === 0) continue;
      const next = turns[t + 1];
      if (!next) continue; // a trailing assistant turn with tool_use is a prefill; the model continues it.
      const answered = new Set(next.blocks.filter((b) => b.kind === 'tool_result').map((b) => b.block.tool_use_id as string));
      const missing = ids.filter((id) => !answered.has(id));
      if (missing.length > 0) {
        const lastMsg = next.firstMsg - 1;
        fail(
          at('messages', lastMsg),
          `\`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`,
        );
      }
      let leading = 0;
      while (leading < next.blocks.length && next.blocks[leading].kind === 'tool_result') leading++;
      if (leading < ids.length) {
        fail(
          at('messages', next.firstMsg),
          `Did not find ${ids.length} \`tool_result\` block(s) at the beginning of this message. Messages following \`tool_use\` blocks must begin with a matching number of \`tool_result\` blocks.`,
        );
      }
    } else {
      const prev = turns[t - 1];
      const offered = new Set(prev ? prev.blocks.filter((b) => b.kind === 'tool_use').map((b) => b.block.id as string) : []);
      for (const b of turn.blocks) {
        if (b.kind !== 'tool_result' || offered.has(b.block.tool_use_id as string)) continue;
        fail(
          at(at(at('messages', b.msg), 'content'), b.idx),
          `unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${b.block.tool_use_id as string}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`,
        );
      }
    }
  }
}

/**
 * With thinking on, a tool loop in progress (the last user turn answers tool calls) must send the
 * assistant turn back starting with its thinking block, as the provider requires; so must a prefill.
 */
function checkThinkingRoundTrip(turns: Turn[]): void {
  const last = turns[turns.length - 1];
  const inToolLoop = last.role === 'user' && last.blocks.some((b) => b.kind === 'tool_result');
  // A prefill (final assistant turn) falls under the same rule.
  const assistant = last.role === 'assistant' ? last : inToolLoop ? turns[turns.length - 2] : undefined;
  if (!assistant || assistant.role !== 'assistant' || assistant.blocks.length === 0) return;
  const first = assistant.blocks[0];
  if (first.kind === 'thinking' || first.kind === 'redacted_thinking') return;
  fail(
    at(at(at(at('messages', first.msg), 'content'), first.idx), 'type'),
    `Expected \`thinking\` or \`redacted_thinking\`, but found \`${first.kind}\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block (preceeding the lastmost set of \`tool_use\` and \`tool_result\` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable \`thinking\`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking`,
  );
}

export interface ConversationFacts {
  /** The last message is from the assistant (a prefill the reply continues). */
  endsWithAssistant: boolean;
}

export function checkMessages(v: unknown, thinkingOn: boolean): ConversationFacts {
  const messages = list(v, 'messages');
  if (messages.length === 0) fail('messages', 'List should have at least 1 item after validation, not 0');
  if (messages.length > 100000) fail('messages', 'List should have at most 100000 items after validation, not ' + messages.length);
  const turns = toTurns(messages);
  checkPrefillWhitespace(turns);
  checkToolPairing(turns);
  if (thinkingOn) checkThinkingRoundTrip(turns);
  return { endsWithAssistant: turns[turns.length - 1].role === 'assistant' };
}
