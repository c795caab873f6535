// Constant-time comparison of secrets of any length: both sides are hashed first, so neither the
// content nor the length of the expected value leaks through timing.
import { createHash, timingSafeEqual } from 'node:crypto';

export function secretEquals(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}
