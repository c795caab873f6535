// Content of user, system and tool messages → the provider's content blocks (docs/wire.md, "Conversation rules").

import type { TextBlockParam, ToolResultBlockParam } from '../../anthropic/wire.js';
import { expectRecord, expectString, fail, isBlank, type Warnings } from '../openai-shared/invalid.js';
import { blockFromDataUrl, blockFromUrl, type MediaBlock } from '../openai-shared/media.js';
import { isRecord } from '../../../lib/is-record.js';

export type UserBlock = TextBlockParam | MediaBlock;

/** A user message's content; blank text is left out, so the result may be empty. */
export function userBlocks(content: unknown, param: string, warnings: Warnings): UserBlock[] {
  if (typeof content === 'string') return isBlank(content) ? [] : [{ type: 'text', text: content }];
  if (!Array.isArray(content)) fail(param, `${param} must be a string or an array of content parts`);
  const blocks: UserBlock[] = [];
  for (let j = 0; j < content.length; j++) {
    const block = userPart(content[j], `${param}[${j}]`, warnings);
    if (block) blocks.push(block);
  }
  return blocks;
}

function userPart(part: unknown, param: string, warnings: Warnings): UserBlock | null {
  const p = expectRecord(part, param);
  switch (p.type) {
    case 'text':
      return textBlock(p.text, `${param}.text`);
    case 'image_url':
      return imagePart(p, param, warnings);
    case 'file':
      return filePart(p.file, `${param}.file`);
    case 'input_audio':
      return fail(param, 'audio input is not supported by this model');
    default:
      return fail(`${param}.type`, `unsupported content part type ${JSON.stringify(p.type)}`);
  }
}

function textBlock(text: unknown, param: string): TextBlockParam | null {
  const s = expectString(text, param);
  return isBlank(s) ? null : { type: 'text', text: s };
}

function imagePart(p: Record<string, unknown>, param: string, warnings: Warnings): UserBlock {
  // Some clients send the URL as a bare string; the object form carries an optional `detail`.
  const img = p.image_url;
  if (typeof img === 'string') return blockFromUrl(img, `${param}.image_url`);
  const obj = expectRecord(img, `${param}.image_url`);
  if (obj.detail !== undefined && obj.detail !== null && obj.detail !== 'auto') {
    warnings.add('field_ignored', `${param}.image_url.detail`);
  }
  return blockFromUrl(expectString(obj.url, `${param}.image_url.url`), `${param}.image_url.url`);
}

function filePart(file: unknown, param: string): UserBlock {
  const f = expectRecord(file, param);
  if (typeof f.file_data === 'string') return blockFromDataUrl(f.file_data, `${param}.file_data`);
  if (f.file_id !== undefined) fail(`${param}.file_id`, 'file ids are not supported; send the file as file_data');
  return fail(param, `${param} must carry file_data`);
}

/** System and developer content: one text per non-blank part. */
export function systemTexts(content: unknown, param: string): string[] {
  if (typeof content === 'string') return isBlank(content) ? [] : [content];
  if (!Array.isArray(content)) fail(param, `${param} must be a string or an array of text parts`);
  const texts: string[] = [];
  for (let j = 0; j < content.length; j++) {
    const p = expectRecord(content[j], `${param}[${j}]`);
    if (p.type !== 'text') fail(`${param}[${j}].type`, 'only text parts are allowed here');
    const block = textBlock(p.text, `${param}[${j}].text`);
    if (block) texts.push(block.text);
  }
  return texts;
}

/**
 * Tool message content → tool_result content: a string stays a string; parts become blocks
 * (image parts are accepted as an extension, see docs/wire.md). Empty → undefined (the field is optional).
 */
export function toolResultContent(content: unknown, param: string, warnings: Warnings): ToolResultBlockParam['content'] {
  if (content === null || content === undefined) return undefined;
  if (typeof content === 'string') return content.length === 0 ? undefined : content;
  if (!Array.isArray(content)) fail(param, `${param} must be a string or an array of content parts`);
  const blocks: UserBlock[] = [];
  for (let j = 0; j < content.length; j++) {
    const p = content[j];
    const partParam = `${param}[${j}]`;
    if (isRecord(p) && p.type !== 'text' && p.type !== 'image_url') {
      fail(`${partParam}.type`, 'only text and image_url parts are allowed in tool messages');
    }
    const block = userPart(p, partParam, warnings);
    if (block) blocks.push(block);
  }
  return blocks.length === 0 ? undefined : blocks;
}
