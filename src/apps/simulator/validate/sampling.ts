// Sampling fields and extended thinking: ranges, the thinking budget, and the combinations the
// provider refuses (docs/wire.md, "Messages requests": thinking constraints, newer models' defaults).
import { isRecord } from '../../../lib/is-record.js';
import { at, fail, int, literal, noExtra, num, obj, range, requireField, tag, type Json } from './check.js';

export interface ThinkingFacts {
  /** enabled or adaptive. */
  on: boolean;
  budget: number | null;
}

const THINKING_TAGS = ['enabled', 'disabled', 'adaptive'] as const;
const THINKING_KEYS: Record<(typeof THINKING_TAGS)[number], ReadonlySet<string>> = {
  enabled: new Set(['type', 'budget_tokens', 'display']),
  disabled: new Set(['type']),
  adaptive: new Set(['type', 'display']),
};
const DOCS = 'Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking';

export function checkThinking(v: unknown): ThinkingFacts {
  if (v === undefined) return { on: false, budget: null };
  const t = obj(v, 'thinking');
  const kind = tag(t, 'thinking', THINKING_TAGS);
  const loc = at('thinking', kind);
  noExtra(t, THINKING_KEYS[kind], loc);
  if (t.display !== undefined && t.display !== null) literal(t.display, at(loc, 'display'), ['summarized', 'omitted']);
  if (kind === 'disabled') return { on: false, budget: null };
  if (kind === 'adaptive') return { on: true, budget: null };
  const budget = range(int(requireField(t, 'budget_tokens', loc), at(loc, 'budget_tokens')), at(loc, 'budget_tokens'), 1024, null);
  return { on: true, budget };
}

export interface SamplingContext {
  /** null for count_tokens, which has no max_tokens. */
  maxTokens: number | null;
  thinking: ThinkingFacts;
  /** Models released after Opus 4.6 take only the default temperature, no top_k, top_p >= 0.99. */
  defaultSamplingOnly: boolean;
}

function forcesToolUse(choice: unknown): boolean {
  return isRecord(choice) && (choice.type === 'any' || choice.type === 'tool');
}

function checkThinkingCombinations(b: Json, temperature: number | undefined, topP: number | undefined, ctx: SamplingContext): void {
  const { thinking, maxTokens } = ctx;
  if (!thinking.on) return;
  if (thinking.budget !== null && maxTokens !== null && maxTokens <= thinking.budget) {
    fail('', `\`max_tokens\` must be greater than \`thinking.budget_tokens\`. ${DOCS}#max-tokens-and-context-window-size`);
  }
  if (temperature !== undefined && temperature !== 1) {
    fail('', `\`temperature\` may only be set to 1 when thinking is enabled. ${DOCS}#feature-compatibility`);
  }
  if (b.top_k !== undefined) fail('', `\`top_k\` must be unset when thinking is enabled. ${DOCS}#feature-compatibility`);
  if (topP !== undefined && topP < 0.95) {
    fail('', `\`top_p\` must be greater than or equal to 0.95 and less than or equal to 1 when thinking is enabled. ${DOCS}#feature-compatibility`);
  }
  if (forcesToolUse(b.tool_choice)) fail('', 'Thinking may not be enabled when tool_choice forces tool use.');
}

function checkDefaultSamplingOnly(b: Json, temperature: number | undefined, topP: number | undefined, modelId: string): void {
  if (temperature !== undefined && temperature !== 1) {
    fail('temperature', `only the default value 1 is supported by ${modelId}; remove this field`);
  }
  if (b.top_k !== undefined) fail('top_k', `is not supported by ${modelId}; remove this field`);
  if (topP !== undefined && topP < 0.99) fail('top_p', `must be at least 0.99 for ${modelId}; remove this field`);
}

export function checkSampling(b: Json, ctx: SamplingContext): void {
  const temperature = b.temperature === undefined ? undefined : range(num(b.temperature, 'temperature'), 'temperature', 0, 1);
  const topP = b.top_p === undefined ? undefined : range(num(b.top_p, 'top_p'), 'top_p', 0, 1);
  if (b.top_k !== undefined) range(int(b.top_k, 'top_k'), 'top_k', 0, null);
  checkThinkingCombinations(b, temperature, topP, ctx);
  if (ctx.defaultSamplingOnly) checkDefaultSamplingOnly(b, temperature, topP, typeof b.model === 'string' ? b.model : '');
}
