// A deterministic input-token tally: a quarter token per character of text, 10 per image. The walk
// follows the provider's prefix order (tools, then system, then messages) and notes every
// cache_control breakpoint: the prompt prefix up to it, by size, identity and lifetime. Whether a
// prefix is read from the cache or written to it depends on what the account saw before
// (../accounts/prompt-cache.ts); without a cache (count_tokens, a cold one) every prefix is written.
import { createHash } from 'node:crypto';
import type { ContentBlockParam, CountTokensRequest, ToolDefinition } from '../../../dialects/anthropic/wire.js';

/** The prompt up to one cache_control breakpoint. */
export interface CachePrefix {
  tokens: number;
  /** The prefix's identity: a hash of the model and of every block up to the breakpoint. */
  key: string;
  /** The breakpoint asked for the one-hour lifetime (`ttl: "1h"`). */
  longTtl: boolean;
}

export interface InputTally {
  /** Every input token, cached or not (what count_tokens reports). */
  total: number;
  /** The breakpoints' prefixes, shortest first. */
  prefixes: CachePrefix[];
}

export interface InputEstimate {
  /** Uncached input, as the provider's `input_tokens` (cache reads and writes excluded). */
  input: number;
  cacheRead: number;
  cacheWrite: number;
  /** The part of cacheWrite written with the one-hour lifetime. */
  cacheWrite1h: number;
}

const IMAGE_TOKENS = 10;

interface Breakpoint {
  tokens: number;
  /** How many of the walked items the prefix holds. */
  items: number;
  longTtl: boolean;
}

class Tally {
  chars = 0;
  images = 0;
  /** What the walk went through, in order, for the prefixes' identities (hashed only when a breakpoint asks). */
  readonly items: unknown[] = [];
  readonly breakpoints: Breakpoint[] = [];

  tokens(): number {
    return Math.ceil(this.chars / 4) + this.images * IMAGE_TOKENS;
  }

  breakpoint(cacheControl: unknown): void {
    if (typeof cacheControl !== 'object' || cacheControl === null) return;
    this.breakpoints.push({ tokens: this.tokens(), items: this.items.length, longTtl: (cacheControl as { ttl?: unknown }).ttl === '1h' });
  }
}

/** A block as it counts for the cache's identity: where the breakpoint sits does not change the content. */
function withoutCacheControl(item: unknown): unknown {
  if (typeof item !== 'object' || item === null || !('cache_control' in item)) return item;
  const { cache_control: _moved, ...rest } = item as Record<string, unknown>;
  return rest;
}

function addBlock(t: Tally, b: ContentBlockParam): void {
  t.items.push(b);
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
  t.items.push(tool);
  t.chars += tool.name.length + (tool.description?.length ?? 0);
  if (tool.input_schema !== undefined) t.chars += JSON.stringify(tool.input_schema).length;
  t.breakpoint(tool.cache_control);
}

/** The prefixes' identities: one running hash over the model and the items, read at each breakpoint. */
function prefixesOf(t: Tally, model: string, total: number): CachePrefix[] {
  if (t.breakpoints.length === 0) return [];
  const hash = createHash('sha256').update(model);
  let hashed = 0;
  return t.breakpoints.map((b) => {
    for (; hashed < b.items; hashed++) hash.update('\n').update(JSON.stringify(withoutCacheControl(t.items[hashed])) ?? 'null');
    // At least one input token is never cached, as in the provider's answers.
    return { tokens: Math.min(b.tokens, total - 1), key: hash.copy().digest('base64'), longTtl: b.longTtl };
  });
}

export function tallyInput(req: CountTokensRequest & { cache_control?: unknown }): InputTally {
  const t = new Tally();
  for (const tool of req.tools ?? []) addTool(t, tool);
  if (typeof req.system === 'string') {
    t.items.push(req.system);
    t.chars += req.system.length;
  } else if (Array.isArray(req.system)) {
    for (const b of req.system) addBlock(t, b);
  }
  for (const m of req.messages) {
    t.items.push(m.role);
    if (typeof m.content === 'string') {
      t.items.push(m.content);
      t.chars += m.content.length;
    } else {
      for (const b of m.content) addBlock(t, b);
    }
  }
  // Top-level cache_control: automatic caching of the whole prompt.
  t.breakpoint(req.cache_control);
  const total = Math.max(1, t.tokens());
  return { total, prefixes: prefixesOf(t, req.model, total) };
}

/**
 * The input of a request whose longest cached prefix is `hit` (-1: none): that prefix is read, the
 * breakpoints after it are written (each stretch with the lifetime of the breakpoint that ends it),
 * and what follows the last breakpoint is uncached input.
 */
export function inputWithHit(tally: InputTally, hit: number): InputEstimate {
  const { prefixes, total } = tally;
  if (prefixes.length === 0) return { input: total, cacheRead: 0, cacheWrite: 0, cacheWrite1h: 0 };
  const cacheRead = hit < 0 ? 0 : prefixes[hit]!.tokens;
  let written = cacheRead;
  let cacheWrite1h = 0;
  for (let i = hit + 1; i < prefixes.length; i++) {
    const p = prefixes[i]!;
    const stretch = Math.max(0, p.tokens - written);
    if (p.longTtl) cacheWrite1h += stretch;
    written = Math.max(written, p.tokens);
  }
  return { input: total - written, cacheRead, cacheWrite: written - cacheRead, cacheWrite1h };
}

/** The input of a request that meets a cold cache: every breakpoint's prefix is written. */
export function estimateInput(req: CountTokensRequest & { cache_control?: unknown }): InputEstimate {
  return inputWithHit(tallyInput(req), -1);
}
