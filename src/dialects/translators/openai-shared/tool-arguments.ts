// A tool call's arguments as the OpenAI formats carry them (a JSON string) → the provider's tool_use input.
import { isRecord } from '../../../lib/is-record.js';
import { expectString, fail, isAbsent, isBlank } from './invalid.js';

/**
 * Arguments are a JSON string: blank means no arguments; anything that is not a JSON object is a
 * 400 (sending `{}` instead would silently change what the model sees in its own history).
 */
export function parseArguments(raw: unknown, param: string): Record<string, unknown> {
  if (isRecord(raw)) return raw; // lenient: some clients send the object itself
  if (isAbsent(raw)) return {};
  const s = expectString(raw, param);
  if (isBlank(s)) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(s);
  } catch {
    return fail(param, `${param} is not valid JSON`);
  }
  if (!isRecord(parsed)) fail(param, `${param} must be a JSON object`);
  return parsed;
}
