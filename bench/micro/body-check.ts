// The body check every model request runs (JSON.parse, nesting depth, duplicate `model`/`stream`
// members), for a small request, a 32 KiB one and a 1 MiB conversation: what the duplicate-member
// check adds to the parse it follows. `node dist/bench/micro/body-check.js`
import { duplicateMember } from '../../src/lib/json/duplicate-members.js';
import { exceedsJsonDepth } from '../../src/lib/json/json-depth.js';
import { parseJsonObject } from '../../src/lib/json/json-object.js';
import { largeChatBody, MODEL } from '../scenarios.js';
import type { MicroCase } from './harness.js';
import { formatResults, isMain, measure } from './harness.js';

const MAX_DEPTH = 64;

export function bodyCheckCases(): MicroCase[] {
  const small = { model: MODEL, max_tokens: 16, stream: true, messages: [{ role: 'user', content: 'Write a short greeting.' }] };
  const cases: MicroCase[] = [];
  for (const [label, body] of [
    ['small', small],
    ['32 KiB', largeChatBody(32 * 1024)],
    ['1 MiB', largeChatBody(1024 * 1024)],
  ] as const) {
    const text = JSON.stringify(body);
    const bytes = Buffer.from(text);
    cases.push(
      { name: `${label}: parse + depth (the check before)`, fn: () => exceedsJsonDepth(JSON.parse(bytes.toString('utf8')), MAX_DEPTH) },
      { name: `${label}: duplicateMember alone`, fn: () => duplicateMember(text) },
      { name: `${label}: parseJsonObject (parse + depth + duplicates)`, fn: () => parseJsonObject(bytes, MAX_DEPTH) },
    );
  }
  return cases;
}

if (isMain(import.meta.url)) console.log(formatResults('body check, per request', bodyCheckCases().map((c) => measure(c))));
