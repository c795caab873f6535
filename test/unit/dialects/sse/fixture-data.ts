// Recorded provider streams (see fixtures/README.md) and helpers to feed them in pieces.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../../../helpers/repo-root.js';

const dir = join(REPO_ROOT, 'test/unit/dialects/sse/fixtures');

export function fixture(name: string): Buffer {
  return readFileSync(join(dir, name));
}

export function providerFixtures(): Array<{ name: string; bytes: Buffer }> {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.sse'))
    .sort()
    .map((name) => ({ name, bytes: fixture(name) }));
}

/** The input cut in two at every byte boundary (including the empty cuts at both ends). */
export function* everySplit(bytes: Buffer): Generator<Buffer[]> {
  for (let i = 0; i <= bytes.length; i++) yield [bytes.subarray(0, i), bytes.subarray(i)];
}

/** One chunk per byte. */
export function bytewise(bytes: Buffer): Buffer[] {
  const out: Buffer[] = [];
  for (let i = 0; i < bytes.length; i++) out.push(bytes.subarray(i, i + 1));
  return out;
}

/** The same stream with other line ends. */
export function withLineEnds(bytes: Buffer, eol: '\r\n' | '\r'): Buffer {
  return Buffer.from(bytes.toString('utf8').replace(/\n/g, eol), 'utf8');
}
