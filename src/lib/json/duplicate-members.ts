// Finds a top-level member named twice (finding N7: a second `max_tokens` was forwarded while the
// budget read the other). JSON.parse keeps the last of two equal names, while the messages surface
// forwards the client's bytes whole: the gateway would decide on one value and the provider might act
// on the other, so any body that names a top-level member twice is refused, whatever the member.
//
// The body is valid JSON when this runs (it was parsed first), so the parsed object already says how
// many distinct names its top level has. Counting the members written at the top level of the text
// (lib/json/top-level-members.ts: one pass that skips strings natively) and comparing the two decides
// nearly every body; only a body with a repeat gets the slower walk that decodes each name to say which
// one. bench/micro/body-check.ts measures what the check adds to the parse.
import { countTopLevelMembers, memberName, topLevelMembers } from './top-level-members.js';

/** The longest member name an error message repeats as it was written; a longer one is cut. */
const LONGEST_SHOWN_NAME = 64;

/**
 * The first top-level member named twice in a JSON object's text, or null. `distinctNames` is how many
 * own keys the parsed object has (`Object.keys(parsed).length`).
 */
export function duplicateMember(json: string, distinctNames: number): string | null {
  return countTopLevelMembers(json) === distinctNames ? null : firstRepeatedName(json);
}

/** Walks the top-level object and decodes each member's name (escapes included) until one repeats. */
function firstRepeatedName(json: string): string | null {
  const seen = new Set<string>();
  for (const span of topLevelMembers(json).members) {
    const name = memberName(json, span);
    if (seen.has(name)) return name;
    seen.add(name);
  }
  return null;
}

/** A member name as an error message shows it: plain when it is a plain identifier, else JSON-quoted and cut. */
export function displayedMemberName(name: string): string {
  if (/^[A-Za-z0-9_.-]{1,64}$/.test(name)) return name;
  return JSON.stringify(name.length > LONGEST_SHOWN_NAME ? `${name.slice(0, LONGEST_SHOWN_NAME)}…` : name);
}
