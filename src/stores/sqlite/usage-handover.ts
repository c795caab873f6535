// A batch of usage rows as it crosses to the usage write thread. postMessage clones what it is given:
// rows as objects cost every field's name with every row, and the thread rebuilt each object field
// by field (631 ns a row to clone, 1,120 ns to rebuild, measured with v8.serialize over 256 rows).
// Columns cost 354 and 119: the numbers in one Float64Array (one copy), the repeating strings
// (customer, key, model, provider, surface, outcome) once per batch with an index per row, and the
// request ids, unique, as one list. issue 35: the thread's rebuilding was a quarter of its CPU.
import type { UsageRecord } from '../../metering/usage-store.js';

export interface UsageBatch {
  readonly rows: number;
  /** Per row, NUMBERS_PER_ROW numbers in the order of encode() below. */
  readonly numbers: Float64Array;
  /** Per row, TEXTS_PER_ROW indexes into `texts` (-1: null). */
  readonly textRefs: Int32Array;
  readonly texts: string[];
  readonly requestIds: string[];
}

const NUMBERS_PER_ROW = 11;
const TEXTS_PER_ROW = 6;

export function encodeUsageBatch(records: readonly UsageRecord[]): UsageBatch {
  const rows = records.length;
  const numbers = new Float64Array(rows * NUMBERS_PER_ROW);
  const textRefs = new Int32Array(rows * TEXTS_PER_ROW);
  const texts: string[] = [];
  const known = new Map<string, number>();
  const ref = (text: string | null): number => {
    if (text === null) return -1;
    let at = known.get(text);
    if (at === undefined) {
      at = texts.push(text) - 1;
      known.set(text, at);
    }
    return at;
  };
  const requestIds = new Array<string>(rows);
  for (let i = 0; i < rows; i++) {
    const r = records[i]!;
    let n = i * NUMBERS_PER_ROW;
    numbers[n++] = r.at;
    numbers[n++] = r.inputTokens;
    numbers[n++] = r.outputTokens;
    numbers[n++] = r.cacheReadTokens;
    numbers[n++] = r.cacheWriteTokens;
    numbers[n++] = r.cacheWrite1hTokens ?? 0;
    numbers[n++] = r.webSearches ?? 0;
    numbers[n++] = r.costNanoUsd;
    numbers[n++] = r.status;
    numbers[n++] = r.durationMs;
    numbers[n] = r.estimated === true ? 1 : 0;
    let t = i * TEXTS_PER_ROW;
    textRefs[t++] = ref(r.customerId);
    textRefs[t++] = ref(r.keyId);
    textRefs[t++] = ref(r.model);
    textRefs[t++] = ref(r.provider);
    textRefs[t++] = ref(r.surface);
    textRefs[t] = ref(r.outcome);
    requestIds[i] = r.requestId;
  }
  return { rows, numbers, textRefs, texts, requestIds };
}

/** The rows again; absent counts come back as 0 and `estimated` only when true (the store reads them so). */
export function decodeUsageBatch(batch: UsageBatch): UsageRecord[] {
  const { numbers, textRefs, texts, requestIds } = batch;
  const text = (at: number): string | null => (textRefs[at]! === -1 ? null : texts[textRefs[at]!]!);
  const records = new Array<UsageRecord>(batch.rows);
  for (let i = 0; i < batch.rows; i++) {
    const n = i * NUMBERS_PER_ROW;
    const t = i * TEXTS_PER_ROW;
    const record: UsageRecord = {
      at: numbers[n]!,
      requestId: requestIds[i]!,
      customerId: text(t),
      keyId: text(t + 1),
      model: text(t + 2)!,
      provider: text(t + 3),
      surface: text(t + 4) as UsageRecord['surface'],
      inputTokens: numbers[n + 1]!,
      outputTokens: numbers[n + 2]!,
      cacheReadTokens: numbers[n + 3]!,
      cacheWriteTokens: numbers[n + 4]!,
      cacheWrite1hTokens: numbers[n + 5]!,
      webSearches: numbers[n + 6]!,
      costNanoUsd: numbers[n + 7]!,
      status: numbers[n + 8]!,
      durationMs: numbers[n + 9]!,
      outcome: text(t + 5)!,
    };
    if (numbers[n + 10] === 1) record.estimated = true;
    records[i] = record;
  }
  return records;
}
