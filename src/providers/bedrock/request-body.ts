// A Messages body restated for Bedrock's InvokeModel: the model goes in the URL and streaming is
// chosen by the path, so `model` and `stream` leave the body; the API version Bedrock wants (or the
// route's own) goes in, replacing one a client may have written (the Messages API takes its version as
// a header), and the client's `anthropic-beta` header values become `anthropic_beta`.
// Everything else stays byte for byte as the client wrote it (lib/json/edit-members.ts).
import { editMembers } from '../../lib/json/edit-members.js';

/** The `anthropic_version` Bedrock's Messages API takes. */
export const BEDROCK_ANTHROPIC_VERSION = 'bedrock-2023-05-31';

/** The values of `anthropic-beta` headers (comma-separated, possibly several headers), in order. */
export function betaValues(header: string | readonly string[] | undefined): string[] {
  if (header === undefined) return [];
  const all = typeof header === 'string' ? [header] : header;
  return all.flatMap((h) => h.split(',')).map((v) => v.trim()).filter((v) => v !== '');
}

/**
 * `body` (a valid Messages request object) as Bedrock's body. `betas` are the client's
 * `anthropic-beta` values (betaValues()); none leaves `anthropic_beta` out.
 */
export function toBedrockBody(body: Buffer, betas: readonly string[], version: string = BEDROCK_ANTHROPIC_VERSION): Buffer {
  const set: Array<readonly [string, unknown]> = [['anthropic_version', version]];
  if (betas.length > 0) set.push(['anthropic_beta', betas]);
  return editMembers(body, { remove: ['model', 'stream'], set });
}
