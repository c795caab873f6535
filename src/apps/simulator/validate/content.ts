// Content blocks of a request (messages, system, tool results), checked like the provider does.
// Locations follow the provider's tagged-union style: messages.0.content.1.image.source.base64.data.
import { verifyThinking } from '../signature.js';
import {
  at,
  bool,
  fail,
  isBase64,
  isBlank,
  isIdentifier,
  list,
  literal,
  noExtra,
  obj,
  requireField,
  str,
  tag,
  type Json,
} from './check.js';
import { isRecord } from '../../../lib/is-record.js';

const CONTENT_TAGS = [
  'text',
  'image',
  'document',
  'search_result',
  'thinking',
  'redacted_thinking',
  'tool_use',
  'tool_result',
  'server_tool_use',
  'web_search_tool_result',
  'web_fetch_tool_result',
  'code_execution_tool_result',
  'bash_code_execution_tool_result',
  'text_editor_code_execution_tool_result',
  'tool_search_tool_result',
  'container_upload',
] as const;

const TOOL_RESULT_CONTENT_TAGS = ['text', 'image', 'document', 'search_result'] as const;
const IMAGE_MEDIA_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const;
const ID_PATTERN = "'^[a-zA-Z0-9_-]+$'";

const TEXT_KEYS = new Set(['type', 'text', 'cache_control', 'citations']);
const IMAGE_KEYS = new Set(['type', 'source', 'cache_control']);
const TOOL_USE_KEYS = new Set(['type', 'id', 'name', 'input', 'cache_control', 'caller']);
const TOOL_RESULT_KEYS = new Set(['type', 'tool_use_id', 'content', 'is_error', 'cache_control']);
const THINKING_KEYS = new Set(['type', 'thinking', 'signature']);
const REDACTED_KEYS = new Set(['type', 'data']);
const CACHE_CONTROL_KEYS = new Set(['type', 'ttl']);
const BASE64_SOURCE_KEYS = new Set(['type', 'media_type', 'data']);
const URL_SOURCE_KEYS = new Set(['type', 'url']);
const FILE_SOURCE_KEYS = new Set(['type', 'file_id']);

export function checkCacheControl(v: unknown, loc: string): void {
  if (v === undefined || v === null) return;
  const o = obj(v, loc);
  noExtra(o, CACHE_CONTROL_KEYS, loc);
  literal(requireField(o, 'type', loc), at(loc, 'type'), ['ephemeral']);
  if (o.ttl !== undefined) literal(o.ttl, at(loc, 'ttl'), ['5m', '1h']);
}

/** A text block, in a message, the system prompt or a tool result. */
export function checkTextBlock(b: Json, loc: string): void {
  const l = at(loc, 'text');
  noExtra(b, TEXT_KEYS, l);
  const text = str(requireField(b, 'text', l), at(l, 'text'));
  if (text === '') fail('messages', 'text content blocks must be non-empty');
  if (isBlank(text)) fail('messages', 'text content blocks must contain non-whitespace text');
  checkCacheControl(b.cache_control, at(l, 'cache_control'));
  if (b.citations !== undefined && b.citations !== null) list(b.citations, at(l, 'citations'));
}

// Magic numbers of the four accepted formats: the provider decodes the image and refuses a
// media_type that does not match the bytes.
function sniffImageType(data: string): string | null {
  const head = Buffer.from(data.slice(0, 16), 'base64');
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image/jpeg';
  if (head.length >= 4 && head[0] === 0x89 && head[1] === 0x50 && head[2] === 0x4e && head[3] === 0x47) return 'image/png';
  if (head.length >= 4 && head.toString('latin1', 0, 4) === 'GIF8') return 'image/gif';
  if (head.length >= 12 && head.toString('latin1', 0, 4) === 'RIFF' && head.toString('latin1', 8, 12) === 'WEBP') return 'image/webp';
  return null;
}

function checkImageSource(v: unknown, loc: string): void {
  const source = obj(v, loc);
  const kind = tag(source, loc, ['base64', 'url', 'file']);
  const l = at(loc, kind);
  if (kind === 'base64') {
    noExtra(source, BASE64_SOURCE_KEYS, l);
    const mediaType = literal(requireField(source, 'media_type', l), at(l, 'media_type'), IMAGE_MEDIA_TYPES);
    const data = str(requireField(source, 'data', l), at(l, 'data'));
    if (!isBase64(data)) fail(at(l, 'data'), 'The image data is not valid base64');
    const actual = sniffImageType(data);
    if (actual !== null && actual !== mediaType) {
      fail(loc, `The image was specified using the ${mediaType} media type, but the image appears to be a ${actual} image`);
    }
  } else if (kind === 'url') {
    noExtra(source, URL_SOURCE_KEYS, l);
    str(requireField(source, 'url', l), at(l, 'url'));
  } else {
    noExtra(source, FILE_SOURCE_KEYS, l);
    str(requireField(source, 'file_id', l), at(l, 'file_id'));
  }
}

function checkImageBlock(b: Json, loc: string): void {
  const l = at(loc, 'image');
  noExtra(b, IMAGE_KEYS, l);
  checkImageSource(requireField(b, 'source', l), at(l, 'source'));
  checkCacheControl(b.cache_control, at(l, 'cache_control'));
}

function checkToolUseBlock(b: Json, loc: string): void {
  const l = at(loc, 'tool_use');
  noExtra(b, TOOL_USE_KEYS, l);
  const id = str(requireField(b, 'id', l), at(l, 'id'));
  if (!isIdentifier(id, Number.MAX_SAFE_INTEGER)) fail(at(l, 'id'), `String should match pattern ${ID_PATTERN}`);
  str(requireField(b, 'name', l), at(l, 'name'));
  obj(requireField(b, 'input', l), at(l, 'input'));
  checkCacheControl(b.cache_control, at(l, 'cache_control'));
}

function checkToolResultBlock(b: Json, loc: string): void {
  const l = at(loc, 'tool_result');
  noExtra(b, TOOL_RESULT_KEYS, l);
  const id = str(requireField(b, 'tool_use_id', l), at(l, 'tool_use_id'));
  if (!isIdentifier(id, Number.MAX_SAFE_INTEGER)) fail(at(l, 'tool_use_id'), `String should match pattern ${ID_PATTERN}`);
  if (b.is_error !== undefined) bool(b.is_error, at(l, 'is_error'));
  checkCacheControl(b.cache_control, at(l, 'cache_control'));
  const content = b.content;
  if (content === undefined || typeof content === 'string') return;
  const items = list(content, at(l, 'content'));
  for (let i = 0; i < items.length; i++) {
    const itemLoc = at(at(l, 'content'), i);
    const item = obj(items[i], itemLoc);
    const kind = tag(item, itemLoc, TOOL_RESULT_CONTENT_TAGS);
    if (kind === 'text') checkTextBlock(item, itemLoc);
    else if (kind === 'image') checkImageBlock(item, itemLoc);
  }
}

function checkThinkingBlock(b: Json, loc: string): void {
  const l = at(loc, 'thinking');
  noExtra(b, THINKING_KEYS, l);
  const thinking = str(requireField(b, 'thinking', l), at(l, 'thinking'));
  const signature = str(requireField(b, 'signature', l), at(l, 'signature'));
  if (!verifyThinking(thinking, signature)) fail(loc, 'Invalid `signature` in `thinking` block');
}

/** One block of a message's content array; returns its type for the conversation rules. */
export function checkContentBlock(v: unknown, loc: string): string {
  const b = obj(v, loc);
  const kind = tag(b, loc, CONTENT_TAGS);
  switch (kind) {
    case 'text':
      checkTextBlock(b, loc);
      break;
    case 'image':
      checkImageBlock(b, loc);
      break;
    case 'document':
      if (!isRecord(b.source)) fail(at(at(loc, 'document'), 'source'), 'Field required');
      break;
    case 'tool_use':
      checkToolUseBlock(b, loc);
      break;
    case 'tool_result':
      checkToolResultBlock(b, loc);
      break;
    case 'thinking':
      checkThinkingBlock(b, loc);
      break;
    case 'redacted_thinking':
      noExtra(b, REDACTED_KEYS, at(loc, kind));
      str(requireField(b, 'data', at(loc, kind)), at(at(loc, kind), 'data'));
      break;
    default:
      // Server-tool blocks: carried back as the provider sent them; not interpreted here.
      break;
  }
  return kind;
}

/** `system`: a string or an array of text blocks. */
export function checkSystem(v: unknown): void {
  if (typeof v === 'string') return;
  if (!Array.isArray(v)) fail('system', 'Input should be a valid string');
  for (let i = 0; i < v.length; i++) {
    const loc = at('system', i);
    const b = obj(v[i], loc);
    literal(requireField(b, 'type', loc), at(loc, 'type'), ['text']);
    checkTextBlock(b, loc);
  }
}
