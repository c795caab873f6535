// A deterministic input-token estimate: a quarter token per character of text, 10 per image.
// With cache_control breakpoints, the prompt prefix up to the last breakpoint counts as cached:
// half of it read from the cache, half written to it, the rest as uncached input. The walk
// follows the provider's prefix order: tools, then system, then messages.
import type { ContentBlockParam, CountTokensRequest, ToolDefinition } from '../../../dialects/anthropic/wire.js';

export interface InputEstimate {
  /** Uncached input, as the provider's `input_tokens` (cache reads and writes excluded). */
  input: number;
  cacheRead: number;
  cacheWrite: number;
  /** The cache writes use the one-hour lifetime. */
  cacheWriteLong: boolean;
}

const IMAGE_TOKENS = 10;

class Tally {
  chars = 0;
  images = 0;
  /** Tokens of the prefix up to the last cache breakpoint seen so far. */
  cachedPrefix = 0;
  longTtl = false;

  tokens(): number {
    return Math.ceil(this.chars / 4) + this.images * IMAGE_TOKENS;
  }

  breakpoint(cacheControl: unknown): void {
    if (typeof cacheControl !== 'object' || cacheControl === null) return;
    this.cachedPrefix = this.tokens();
    if ((cacheControl as { ttl?: unknown }).ttl === '1h') this.longTtl = true;
  }
}

function addBlock(t: Tally, b: ContentBlockParam): void {
  switch (b.type) {
    case 'text':
      t.chars += b.text.length;
      break;
    case 'image':
      t.images++;
      break;
    case 'document':
      if (b.source.type === 'text') t.chars += b.source.data.length;
      else t.images++;
      break;
    case 'tool_use':
      t.chars += b.name.length + JSON.stringify(b.input).length;
      break;
    case 'tool_result':
      if (typeof b.content === 'string') t.chars += b.content.length;
      else if (Array.isArray(b.content)) for (const c of b.content) addBlock(t, c);
      break;
    case 'thinking':
      t.chars += b.thinking.length;
      break;
    default:
      break;
  }
  if ('cache_control' in b) t.breakpoint(b.cache_control);
}

function addTool(t: Tally, tool: ToolDefinition): void {
  t.chars += tool.name.length + (tool.description?.length ?? 0);
  if (tool.input_schema !== undefined) t.chars += JSON.stringify(tool.input_schema).length;
  t.breakpoint(tool.cache_control);
}

export function estimateInput(req: CountTokensRequest & { cache_control?: unknown }): InputEstimate {
  const t = new Tally();
  for (const tool of req.tools ?? []) addTool(t, tool);
  if (typeof req.system === 'string') t.chars += req.system.length;
  else if (Array.isArray(req.system)) for (const b of req.system) addBlock(t, b);
  for (const m of req.messages) {
    if (typeof m.content === 'string') t.chars += m.content.length;
    else for (const b of m.content) addBlock(t, b);
  }
  // Top-level cache_control: automatic caching of the whole prompt.
  t.breakpoint(req.cache_control);
  const total = Math.max(1, t.tokens());
  const cacheable = Math.min(t.cachedPrefix, total - 1);
  const cacheRead = Math.floor(cacheable / 2);
  return { input: total - cacheable, cacheRead, cacheWrite: cacheable - cacheRead, cacheWriteLong: t.longTtl };
}

/** What count_tokens reports: all input, cached or not. */
export function totalInputTokens(e: InputEstimate): number {
  return e.input + e.cacheRead + e.cacheWrite;
}
