// Finds a top-level member named twice among the few the gateway decides on (`model`, `stream`, and the
// output budgets that limits and spend budgets reserve: finding N7, a second `max_tokens` was forwarded
// while the budget read the other).
// JSON.parse keeps the last of two equal names, while the messages surface forwards the client's
// bytes whole: with two `model` members the gateway would check one model and the provider might
// serve the other, so such a body is refused.
//
// The body is valid JSON when this runs (it was parsed first). A quick test decides whether a
// duplicate is possible at all: a member name equal to `model` is written either as the plain
// `"model"` (so two of them show as two occurrences) or with a \u escape, and the letters of the
// names escape to `\u006x` or `\u007x`, the underscore to `\u005f`. Bodies with neither (nearly all) cost one string search
// per needle; the others get an exact walk of the top-level object.
//
// The searches look for needles of at most six characters and check the rest of a hit by hand: V8
// searches such needles by memchr on their first character, while from seven on it switches to a
// Boyer-Moore-Horspool search that measured several times slower on request bodies, whose quotes
// and letters it skips poorly. bench/micro/body-check.ts measures what the check adds to the parse.
import { memberName, topLevelMembers, type MemberSpan } from './top-level-members.js';

/** The member names that must appear at most once. */
export const SINGLE_MEMBERS = ['model', 'stream', 'max_tokens', 'max_completion_tokens', 'max_output_tokens'] as const;
export type SingleMember = (typeof SINGLE_MEMBERS)[number];

/** Each guarded name as written plainly, split into a searched head and a checked tail. */
const PLAIN = SINGLE_MEMBERS.map((name) => splitNeedle(`"${name}"`));
/** `\u00`, then `5` (the underscore is `\u005f`), `6` or `7`. */
const ESCAPE = '\\u00';
/** The longest a guarded name can be written: every letter as a six-character \u escape. */
const LONGEST_WRITTEN_NAME = 6 * Math.max(...SINGLE_MEMBERS.map((name) => name.length));

/** The first guarded member found twice at the top level of a JSON object's text, or null. */
export function duplicateMember(json: string): SingleMember | null {
  return mayRepeat(json) ? walkTopLevel(json) : null;
}

function mayRepeat(json: string): boolean {
  for (const needle of PLAIN) if (occurrences(json, needle, 2) === 2) return true;
  for (let at = json.indexOf(ESCAPE); at !== -1; at = json.indexOf(ESCAPE, at + 1)) {
    const row = json[at + ESCAPE.length];
    if (row === '5' || row === '6' || row === '7') return true;
  }
  return false;
}

interface Needle {
  /** At most six characters: searched natively. */
  head: string;
  /** The rest, compared at each hit of the head. */
  tail: string;
}

function splitNeedle(text: string): Needle {
  return { head: text.slice(0, 6), tail: text.slice(6) };
}

/** How many times the needle occurs, counting no further than `max`. */
function occurrences(json: string, needle: Needle, max: number): number {
  const { head, tail } = needle;
  let count = 0;
  for (let at = json.indexOf(head); at !== -1; at = json.indexOf(head, at + 1)) {
    if (json.startsWith(tail, at + head.length) && ++count === max) break;
  }
  return count;
}

/** Walks the top-level object (lib/json/top-level-members.ts) and compares each member name with the guarded ones. */
function walkTopLevel(json: string): SingleMember | null {
  const seen = new Set<SingleMember>();
  for (const span of topLevelMembers(json).members) {
    const name = guardedName(json, span);
    if (name === null) continue;
    if (seen.has(name)) return name;
    seen.add(name);
  }
  return null;
}

/** The guarded name a member's name decodes to, escapes included, or null. */
function guardedName(json: string, span: MemberSpan): SingleMember | null {
  if (span.nameEnd - span.nameStart - 1 > LONGEST_WRITTEN_NAME) return null;
  const text = memberName(json, span);
  return (SINGLE_MEMBERS as readonly string[]).includes(text) ? (text as SingleMember) : null;
}
