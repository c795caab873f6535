// Images and documents given by URL, as the OpenAI formats send them (a chat `image_url` or `file`, a
// Responses `input_image` or `input_file`) → the provider's image and document blocks. The gateway
// never fetches a URL itself: an http(s) URL goes to the provider as a url source.

import type { DocumentBlockParam, ImageBlockParam } from '../../anthropic/wire.js';
import { fail } from './invalid.js';

export type MediaBlock = ImageBlockParam | DocumentBlockParam;

export function blockFromUrl(url: string, param: string): MediaBlock {
  if (url.startsWith('data:')) return blockFromDataUrl(url, param);
  if (/^https?:\/\//i.test(url)) return { type: 'image', source: { type: 'url', url } };
  return fail(param, 'image URL must be an http(s) URL or a base64 data: URL');
}

/** `data:<mime>[;params];base64,<data>`, parsed with indexOf: these strings can be megabytes long. */
export function blockFromDataUrl(url: string, param: string): MediaBlock {
  const comma = url.indexOf(',');
  const header = comma < 0 ? '' : url.slice(5, comma).toLowerCase();
  if (comma < 0 || !header.endsWith(';base64')) fail(param, 'data URL must be base64-encoded (data:<type>;base64,...)');
  const mediaType = header.slice(0, header.indexOf(';'));
  const data = url.slice(comma + 1);
  if (data.length === 0) fail(param, 'data URL has no data');
  if (mediaType === 'application/pdf') {
    return { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data } };
  }
  if (mediaType.startsWith('image/')) return { type: 'image', source: { type: 'base64', media_type: mediaType, data } };
  return fail(param, `unsupported media type ${JSON.stringify(mediaType)}; images and PDF documents are supported`);
}
