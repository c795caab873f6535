// Gateway key format: mgw_<publicId>_<secret>, both parts base62 (no '_', so the split is unambiguous).
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export const KEY_TAG = 'mgw';
export const PUBLIC_ID_LENGTH = 16;
/** 43 uniform base62 characters carry 43 × log2(62) ≈ 256 bits, the same as 32 random bytes. */
export const SECRET_LENGTH = 43;

const KEY_PATTERN = new RegExp(`^${KEY_TAG}_([0-9A-Za-z]{${PUBLIC_ID_LENGTH}})_([0-9A-Za-z]{${SECRET_LENGTH}})$`);

export interface ParsedKey {
  publicId: string;
  secret: string;
}

/** Uniform base62 characters by rejection sampling: bytes >= 248 are thrown away, so `% 62` has no bias. */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte >= 248) continue;
      out += ALPHABET[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

export function generateKey(): { key: string; publicId: string; secret: string } {
  const publicId = randomBase62(PUBLIC_ID_LENGTH);
  const secret = randomBase62(SECRET_LENGTH);
  return { key: `${KEY_TAG}_${publicId}_${secret}`, publicId, secret };
}

export function parseKey(raw: string): ParsedKey | null {
  const match = KEY_PATTERN.exec(raw);
  return match ? { publicId: match[1], secret: match[2] } : null;
}

/** What lists show in place of the key: enough to recognise it, nothing of the secret. */
export function displayPrefix(publicId: string): string {
  return `${KEY_TAG}_${publicId}`;
}

/**
 * A plain SHA-256 is the right hash here: the secret is 256 bits of randomness, so there is nothing to
 * brute-force and no dictionary to slow down; a slow password hash (scrypt, argon2) would only add
 * milliseconds to every request.
 */
export function hashSecret(secret: string): Buffer {
  return createHash('sha256').update(secret).digest();
}

/** Constant-time comparison of a presented secret against the stored hash. */
export function secretMatches(secret: string, storedHash: Buffer): boolean {
  const presented = hashSecret(secret);
  return presented.length === storedHash.length && timingSafeEqual(presented, storedHash);
}
