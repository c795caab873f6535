// The provider's error bodies go back to clients: unchanged on the messages surface, translated on the
// chat surface. A provider (or a proxy in front of it) that echoed the request's headers in an error
// would hand the gateway's upstream credential, shared by every customer, to whoever sent the request.
// So every error body passed back has that credential's text replaced. Only error bodies are checked,
// by a byte search per form of the key; the body is rewritten only when one is found, and only there,
// so every other byte stays as the provider sent it.
import { REDACTED, secretNeedles } from '../observability/redaction.js';

export type BodyScrub = (body: Buffer) => Buffer;

const REPLACEMENT = Buffer.from(REDACTED);

export function upstreamCredentialScrub(upstreamKey: string | null): BodyScrub {
  const needles = secretNeedles(upstreamKey === null ? [] : [upstreamKey]).map((n) => Buffer.from(n));
  if (needles.length === 0) return (body) => body;
  return (body) => {
    let out = body;
    for (const needle of needles) if (out.includes(needle)) out = replaceAll(out, needle, REPLACEMENT);
    return out;
  };
}

function replaceAll(body: Buffer, needle: Buffer, replacement: Buffer): Buffer {
  const parts: Buffer[] = [];
  let from = 0;
  for (let at = body.indexOf(needle); at !== -1; at = body.indexOf(needle, from)) {
    parts.push(body.subarray(from, at), replacement);
    from = at + needle.length;
  }
  parts.push(body.subarray(from));
  return Buffer.concat(parts);
}
