// Removes and adds top-level members of a JSON object by editing its bytes: every byte of what is
// kept stays as it came (member order, whitespace, number spellings, escapes), which a parse and
// JSON.stringify would not promise. Used where an API wants the same body with a few members
// changed (a cloud provider takes the model in the URL, and a version in the body).
import { memberName, topLevelMembers, type MemberSpan } from './top-level-members.js';

export interface MemberEdit {
  /** Top-level members to leave out, every occurrence. */
  remove?: readonly string[];
  /** Members appended at the end of the object, each unless the body already has it. */
  addIfAbsent?: ReadonlyArray<readonly [name: string, value: unknown]>;
  /** Members whose value becomes this one (in place, where the body has them; else appended). */
  set?: ReadonlyArray<readonly [name: string, value: unknown]>;
}

/**
 * `body` (the UTF-8 bytes of a valid JSON object) with `edit` applied. The separator before each
 * kept member is the one that stood before it in the original; added members follow the last kept
 * one. Returns `body` itself when nothing changes.
 */
export function editMembers(body: Buffer, edit: MemberEdit): Buffer {
  const { members, close } = topLevelMembers(body);
  const remove = new Set(edit.remove ?? []);
  const names = members.map((m) => memberName(body, m));
  const set = new Map((edit.set ?? []).map(([name, value]) => [name, JSON.stringify(value)]));
  const added = [...(edit.addIfAbsent ?? []), ...(edit.set ?? [])].filter(([name]) => !names.includes(name));
  const keptIndexes = members.map((_, i) => i).filter((i) => !remove.has(names[i]!) || set.has(names[i]!));
  /** Kept members whose value changes, by index: the new value's text. */
  const replaced = new Map<number, string>();
  for (const i of keptIndexes) {
    const value = set.get(names[i]!);
    if (value !== undefined && body.subarray(valueStart(body, members[i]!), members[i]!.valueEnd).toString('utf8') !== value) replaced.set(i, value);
  }
  if (keptIndexes.length === members.length && added.length === 0 && replaced.size === 0) return body;

  const parts: Buffer[] = [];
  const from = members.length > 0 ? members[0]!.nameStart : close;
  // Up to the first member: the opening brace and the whitespace after it.
  parts.push(body.subarray(0, from));
  let last: MemberSpan | null = null;
  for (const i of keptIndexes) {
    const span = members[i]!;
    // The first kept member goes where the first member stood; any other keeps the separator it had.
    if (last !== null) parts.push(body.subarray(members[i - 1]!.valueEnd, span.nameStart));
    const value = replaced.get(i);
    if (value === undefined) parts.push(body.subarray(span.nameStart, span.valueEnd));
    else parts.push(body.subarray(span.nameStart, valueStart(body, span)), Buffer.from(value, 'utf8'));
    last = span;
  }
  added.forEach(([name, value], n) => {
    const separator = last !== null || n > 0 ? ',' : '';
    parts.push(Buffer.from(`${separator}${JSON.stringify(name)}:${JSON.stringify(value)}`, 'utf8'));
  });
  // After the last member: the whitespace before the closing brace, the brace, what follows.
  const tail = members.length > 0 ? members[members.length - 1]!.valueEnd : close;
  parts.push(body.subarray(tail));
  return Buffer.concat(parts);
}

/** Where a member's value begins: past its name, the colon and the whitespace around it. */
function valueStart(body: Buffer, span: MemberSpan): number {
  let i = span.nameEnd + 1;
  while (body[i] !== 0x3a) i++;
  i++;
  while (body[i] === 0x20 || body[i] === 0x0a || body[i] === 0x0d || body[i] === 0x09) i++;
  return i;
}
