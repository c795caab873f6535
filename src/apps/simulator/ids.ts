// Ids in the provider's style (msg_01…, toolu_01…, req_01…): 22 base62 characters after the
// prefix. Random bytes come from a pool refilled in bulk, so an id costs no system call.
import { randomFillSync } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const ID_LENGTH = 22;
const pool = Buffer.alloc(4096);
let offset = pool.length;

function randomChars(n: number): string {
  if (offset + n > pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  let s = '';
  for (let i = 0; i < n; i++) s += ALPHABET[pool[offset + i] % 62];
  offset += n;
  return s;
}

/** `msg_bdrk` and `msg_vrtx`: message ids as Bedrock and Vertex AI write them. */
export type IdKind = 'msg' | 'msg_bdrk' | 'msg_vrtx' | 'toolu' | 'req';

export type IdSource = (kind: IdKind) => string;

export const randomId: IdSource = (kind) => `${kind}_01${randomChars(ID_LENGTH)}`;
