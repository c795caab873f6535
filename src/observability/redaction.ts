// What must never reach a log: credential headers (by name, anywhere in a logged object) and
// secret values (gateway keys by their pattern, the admin token and upstream key by value)
// wherever they appear, even inside a message or an error string.
//
// It works on each serialized JSON line rather than on the logged objects: pino's path redaction
// with wildcards ("any depth") cost ~370 µs a line here, while one regular-expression test of the
// finished line costs ~0.4 µs, and only a line that fails the test is rewritten.

export const REDACTED = '[redacted]';

/** Headers that carry credentials; matched in any letter case. */
const CREDENTIAL_HEADERS = ['proxy-authorization', 'authorization', 'x-api-key', 'set-cookie', 'cookie'];

/** Every credential header name ends in one of these (any case), followed by the closing quote. */
const HEADER_NAME_HINT = /(?:authorization|api-key|cookie)"/i;

/** A JSON string, e.g. `"Bearer abc"`, escapes included. */
const JSON_STRING = '"(?:[^"\\\\]|\\\\.)*"';
/** A JSON array of strings, e.g. `["a=1","b=2"]` (set-cookie may be an array). */
const JSON_STRING_ARRAY = `\\[\\s*(?:${JSON_STRING}\\s*,?\\s*)*\\]`;

/** A gateway key: `mgw_<public id>_<secret>` (docs/contract.md, "Keys"). */
const GATEWAY_KEY = 'mgw_[A-Za-z0-9]+_[A-Za-z0-9]+';

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The texts that give a secret away in JSON: its value as is and JSON-escaped, longest first (so a
 * replacement takes the whole escaped form). Short "secrets" are ignored: scrubbing a two-letter
 * value would mangle everything and protect nothing.
 */
export function secretNeedles(secrets: readonly string[]): string[] {
  return [...new Set(secrets.filter((s) => s.length >= 8).flatMap((s) => [s, JSON.stringify(s).slice(1, -1)]))].sort((a, b) => b.length - a.length);
}

export interface SecretScrubber {
  /** For a serialized log line: credential header values and secret values. */
  line: (line: string) => string;
  /** For one string value (e.g. a field of the access line): secret values only. */
  value: (value: string) => string;
}

/**
 * Builds the scrubbers for serialized log lines and for single values: credential header values
 * become `[redacted]` (the name stays, so a reader sees a header was there), and gateway keys and
 * secret values are replaced wherever they occur.
 */
export function secretScrubber(secrets: readonly string[]): SecretScrubber {
  const needles = secretNeedles(secrets);
  const names = CREDENTIAL_HEADERS.map(escapeRegExp).join('|');
  const header = `"(${names})"\\s*:\\s*(?:${JSON_STRING}|${JSON_STRING_ARRAY})`;
  const secretAlternatives = [GATEWAY_KEY, ...needles.map(escapeRegExp)].join('|');

  const headerValues = new RegExp(header, 'gi');
  const secretValues = new RegExp(secretAlternatives, 'g');

  // Cheap questions first: a short regex for the header names' endings and plain substring
  // searches; the rewriting passes run only on a line that may hold something.
  const mayHoldSecret = (text: string): boolean => text.includes('mgw_') || needles.some((n) => text.includes(n));

  return {
    line(line) {
      if (!HEADER_NAME_HINT.test(line) && !mayHoldSecret(line)) return line;
      return line.replace(headerValues, `"$1":"${REDACTED}"`).replace(secretValues, REDACTED);
    },
    value(value) {
      return mayHoldSecret(value) ? value.replace(secretValues, REDACTED) : value;
    },
  };
}
