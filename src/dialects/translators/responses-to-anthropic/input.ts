// `instructions` and `input` → the provider's `system` and alternating `messages` (docs/wire.md,
// "Conversation rules"). System and developer messages join `instructions` in the system prompt, in
// order; `function_call` and `custom_tool_call` items become tool_use blocks of the assistant turn,
// their outputs tool_result blocks first in the next user turn; a `reasoning` item is the thinking
// block its `encrypted_content` carries; consecutive turns of one role are merged.

import type { ContentBlockParam, MessageParam, TextBlockParam, ToolResultBlockParam } from '../../anthropic/wire.js';
import { expectArray, expectRecord, expectString, fail, isAbsent, isBlank, type Warnings } from '../openai-shared/invalid.js';
import { blockFromDataUrl, blockFromUrl, type MediaBlock } from '../openai-shared/media.js';
import type { ToolIdAllocator } from '../openai-shared/tool-ids.js';
import { parseArguments } from '../openai-shared/tool-arguments.js';
import { CUSTOM_INPUT, NAMESPACE_SEPARATOR } from './tool-names.js';
import { decodeThinking } from './thinking-carrier.js';

export interface ConvertedInput {
  system: TextBlockParam[];
  messages: MessageParam[];
}

interface Turn {
  role: 'user' | 'assistant';
  /** tool_result blocks: the provider wants them before anything else in a user turn. */
  results: ToolResultBlockParam[];
  blocks: ContentBlockParam[];
  /** The input item that opened the turn, for error params. */
  param: string;
}

interface PendingCall {
  id: string;
  param: string;
}

type UserBlock = TextBlockParam | MediaBlock;

export function convertInput(instructions: unknown, input: unknown, ids: ToolIdAllocator, warnings: Warnings): ConvertedInput {
  const b = new InputBuilder(ids, warnings);
  if (!isAbsent(instructions)) b.system(expectString(instructions, 'instructions'));
  if (typeof input === 'string') {
    if (isBlank(input)) fail('input', 'input must not be empty');
    b.user([{ type: 'text', text: input }], 'input');
  } else {
    const items = expectArray(input, 'input');
    if (items.length === 0) fail('input', 'input must be a string or a non-empty array of items');
    for (let i = 0; i < items.length; i++) b.add(items[i], `input[${i}]`);
  }
  return b.finish();
}

class InputBuilder {
  private readonly systemBlocks: TextBlockParam[] = [];
  private readonly turns: Turn[] = [];
  /** Tool calls of the current assistant turn waiting for their outputs, by the client's call_id. */
  private pending = new Map<string, PendingCall>();

  constructor(
    private readonly ids: ToolIdAllocator,
    private readonly warnings: Warnings,
  ) {}

  system(text: string): void {
    if (!isBlank(text)) this.systemBlocks.push({ type: 'text', text });
  }

  user(blocks: UserBlock[], param: string): void {
    const turn = this.turn('user', param).blocks;
    // Not push(...blocks): that overflows the call stack for very large arrays.
    for (let i = 0; i < blocks.length; i++) turn.push(blocks[i]!);
  }

  add(raw: unknown, param: string): void {
    const item = expectRecord(raw, param);
    // An item without a type is the short message form `{role, content}`.
    const type = item.type ?? 'message';
    switch (type) {
      case 'message':
        return this.message(item, param);
      case 'function_call':
        return this.call(item, param, parseArguments(item.arguments, `${param}.arguments`), functionName(item, param));
      case 'custom_tool_call':
        return this.call(item, param, { [CUSTOM_INPUT]: expectString(item.input, `${param}.input`) }, expectString(item.name, `${param}.name`));
      case 'function_call_output':
      case 'custom_tool_call_output':
        return this.output(item, param);
      case 'reasoning':
        return this.reasoning(item, param);
      case 'item_reference':
        return fail(`${param}.type`, 'item references name stored items, and the gateway stores none: send the items themselves');
      default:
        return fail(`${param}.type`, `unsupported input item type ${JSON.stringify(type)}`);
    }
  }

  private message(m: Record<string, unknown>, param: string): void {
    switch (m.role) {
      case 'system':
      case 'developer':
        for (const text of systemTexts(m.content, `${param}.content`)) this.system(text);
        return;
      case 'user': {
        const blocks = userBlocks(m.content, `${param}.content`, this.warnings);
        if (blocks.length === 0) fail(`${param}.content`, `${param}.content must not be empty`);
        return this.user(blocks, param);
      }
      case 'assistant': {
        if (this.lastRole() !== 'assistant') this.requireNoPending();
        const texts = assistantTexts(m.content, `${param}.content`);
        if (texts.length === 0) {
          // An empty assistant message says nothing: leave it out.
          this.warnings.add('message_dropped', param);
          return;
        }
        for (const text of texts) this.turn('assistant', param).blocks.push({ type: 'text', text });
        return;
      }
      default:
        return fail(`${param}.role`, `unsupported role ${JSON.stringify(m.role)}`);
    }
  }

  private call(item: Record<string, unknown>, param: string, input: Record<string, unknown>, name: string): void {
    const callId = expectString(item.call_id, `${param}.call_id`);
    if (callId.length === 0) fail(`${param}.call_id`, `${param}.call_id must not be empty`);
    if (this.pending.has(callId)) fail(`${param}.call_id`, `two tool calls have the call_id ${JSON.stringify(callId)}`);
    // A call after the outputs of earlier ones starts a new assistant turn; those calls are all answered.
    if (this.lastRole() !== 'assistant') this.requireNoPending();
    const id = this.ids.allocate(callId, `${param}.call_id`);
    this.turn('assistant', param).blocks.push({ type: 'tool_use', id, name, input });
    this.pending.set(callId, { id, param });
  }

  private output(item: Record<string, unknown>, param: string): void {
    const callId = expectString(item.call_id, `${param}.call_id`);
    const call = this.pending.get(callId);
    if (call === undefined) fail(`${param}.call_id`, `no preceding tool call has the call_id ${JSON.stringify(callId)}`);
    this.pending.delete(callId);
    const result: ToolResultBlockParam = { type: 'tool_result', tool_use_id: call.id };
    const content = outputContent(item.output, `${param}.output`, this.warnings);
    if (content !== undefined) result.content = content;
    this.turn('user', param).results.push(result);
  }

  private reasoning(item: Record<string, unknown>, param: string): void {
    if (isAbsent(item.encrypted_content)) {
      // Summaries alone are not the thinking the provider wrote: it would refuse them as edited.
      this.warnings.add('message_dropped', param);
      return;
    }
    const carried = expectString(item.encrypted_content, `${param}.encrypted_content`);
    const block = decodeThinking(carried);
    if (block === null) fail(`${param}.encrypted_content`, `${param}.encrypted_content is not reasoning this gateway returned`);
    if (this.lastRole() !== 'assistant') this.requireNoPending();
    this.turn('assistant', param).blocks.push(block);
  }

  /** Every tool call must be answered before the conversation moves on (the provider requires it). */
  private requireNoPending(): void {
    for (const [callId, call] of this.pending) {
      fail(`${call.param}.call_id`, `tool call ${JSON.stringify(callId)} has no function_call_output answering it`);
    }
  }

  private lastRole(): Turn['role'] | null {
    return this.turns[this.turns.length - 1]?.role ?? null;
  }

  /** The turn to append to: the last one if it has this role, else a new one. */
  private turn(role: Turn['role'], param: string): Turn {
    const last = this.turns[this.turns.length - 1];
    if (last && last.role === role) return last;
    const t: Turn = { role, results: [], blocks: [], param };
    this.turns.push(t);
    return t;
  }

  finish(): ConvertedInput {
    this.requireNoPending();
    const last = this.turns[this.turns.length - 1];
    // A final assistant turn is a prefill; the provider refuses one that ends in whitespace.
    const tail = last?.role === 'assistant' ? last.blocks[last.blocks.length - 1] : undefined;
    if (tail?.type === 'text') tail.text = tail.text.trimEnd();
    const first = this.turns[0];
    if (!first) fail('input', 'input must contain at least one user message');
    if (first.role !== 'user') fail(first.param, 'the conversation must begin with a user message');
    return { system: this.systemBlocks, messages: this.turns.map((t) => ({ role: t.role, content: [...t.results, ...t.blocks] })) };
  }
}

/** A function call's name for the provider: a namespaced function is `<namespace>__<name>`, as in ./tools.ts. */
function functionName(item: Record<string, unknown>, param: string): string {
  const name = expectString(item.name, `${param}.name`);
  return isAbsent(item.namespace) ? name : expectString(item.namespace, `${param}.namespace`) + NAMESPACE_SEPARATOR + name;
}

/** System and developer content: a string, or input_text parts. */
function systemTexts(content: unknown, param: string): string[] {
  if (typeof content === 'string') return [content];
  const parts = expectArray(content, param);
  return parts.map((raw, j) => {
    const p = expectRecord(raw, `${param}[${j}]`);
    if (p.type !== 'input_text') fail(`${param}[${j}].type`, 'only input_text parts are allowed here');
    return expectString(p.text, `${param}[${j}].text`);
  });
}

/** The model's own earlier words: a string, or output_text (and refusal) parts. */
function assistantTexts(content: unknown, param: string): string[] {
  if (typeof content === 'string') return isBlank(content) ? [] : [content];
  const parts = expectArray(content, param);
  const texts: string[] = [];
  for (let j = 0; j < parts.length; j++) {
    const p = expectRecord(parts[j], `${param}[${j}]`);
    // input_text is what some clients write for any text; refusal is kept as the words it was.
    const key = p.type === 'output_text' || p.type === 'input_text' ? 'text' : p.type === 'refusal' ? 'refusal' : null;
    if (key === null) fail(`${param}[${j}].type`, 'assistant content parts must be output_text or refusal');
    const s = expectString(p[key], `${param}[${j}].${key}`);
    if (!isBlank(s)) texts.push(s);
  }
  return texts;
}

/** A user message's content; blank text is left out, so the result may be empty. */
function userBlocks(content: unknown, param: string, warnings: Warnings): UserBlock[] {
  if (typeof content === 'string') return isBlank(content) ? [] : [{ type: 'text', text: content }];
  const parts = expectArray(content, param);
  const blocks: UserBlock[] = [];
  for (let j = 0; j < parts.length; j++) {
    const block = inputPart(parts[j], `${param}[${j}]`, warnings);
    if (block !== null) blocks.push(block);
  }
  return blocks;
}

function inputPart(raw: unknown, param: string, warnings: Warnings): UserBlock | null {
  const p = expectRecord(raw, param);
  switch (p.type) {
    case 'input_text':
    case 'output_text': {
      const text = expectString(p.text, `${param}.text`);
      return isBlank(text) ? null : { type: 'text', text };
    }
    case 'input_image': {
      if (!isAbsent(p.detail) && p.detail !== 'auto') warnings.add('field_ignored', `${param}.detail`);
      if (!isAbsent(p.file_id)) fail(`${param}.file_id`, 'file ids name uploaded files, which the gateway does not keep: send image_url');
      return blockFromUrl(expectString(p.image_url, `${param}.image_url`), `${param}.image_url`);
    }
    case 'input_file': {
      if (typeof p.file_data === 'string') return blockFromDataUrl(pdfDataUrl(p.file_data), `${param}.file_data`);
      if (typeof p.file_url === 'string') {
        const url = p.file_url;
        if (!/^https?:\/\//i.test(url)) fail(`${param}.file_url`, 'file_url must be an http(s) URL');
        return { type: 'document', source: { type: 'url', url } };
      }
      if (!isAbsent(p.file_id)) fail(`${param}.file_id`, 'file ids name uploaded files, which the gateway does not keep: send file_data');
      return fail(param, `${param} must carry file_data or file_url`);
    }
    case 'input_audio':
      return fail(param, 'audio input is not supported by this model');
    default:
      return fail(`${param}.type`, `unsupported content part type ${JSON.stringify(p.type)}`);
  }
}

/** `file_data` is a data URL; some clients send the bare base64 of a PDF. */
function pdfDataUrl(data: string): string {
  return data.startsWith('data:') ? data : `data:application/pdf;base64,${data}`;
}

/** A tool's output: a string stays a string; parts become blocks. Empty → undefined (the field is optional). */
function outputContent(output: unknown, param: string, warnings: Warnings): ToolResultBlockParam['content'] {
  if (typeof output === 'string') return output.length === 0 ? undefined : output;
  const blocks = userBlocks(output, param, warnings);
  return blocks.length === 0 ? undefined : blocks;
}
