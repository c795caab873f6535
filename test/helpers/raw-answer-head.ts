// An answer's head as the upstream client hands it over: a raw list of header names and values (in the
// letter case given), read by the gateway's own look-ups.
import { RawHeaders, rawHeader, type HeaderNames, type HeaderValue } from '../../src/lib/http/raw-headers.js';

export interface RawAnswerHead {
  header(lowerName: string): HeaderValue;
  headersOf(names: HeaderNames): HeaderValue[];
}

export function rawAnswerHead(headers: Record<string, string | string[]> = {}): RawAnswerHead {
  const raw = RawHeaders.copyOf(Object.entries(headers).flatMap(([name, value]) => (Array.isArray(value) ? value : [value]).flatMap((v) => [Buffer.from(name, 'latin1'), Buffer.from(v, 'latin1')])));
  return { header: (lowerName) => rawHeader(raw, lowerName), headersOf: (names) => names.valuesIn(raw) };
}
