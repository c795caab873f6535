// The process logger (pino, JSON lines to stdout). Every serialized line, at every level and from
// every child logger, passes a scrub (redaction.ts) before it is written: credential header values
// anywhere in the line, gateway keys by pattern, and the configured secrets (admin token, upstream
// key) by value, so a secret inside a message or an error string is caught too.
import { pino, type DestinationStream, type Logger } from 'pino';
import { secretScrubber } from './redaction.js';

export type { Logger } from 'pino';

export interface LoggerOptions {
  level: string;
  /** Where lines go; stdout by default. Tests pass a stream to read them back. */
  destination?: NodeJS.WritableStream;
  /** Values that must never appear in a line: the admin token, the upstream key. */
  secrets?: readonly string[];
}

export function createLogger(opts: LoggerOptions): Logger {
  const scrub = secretScrubber(opts.secrets ?? []);
  return pino(
    {
      level: opts.level,
      base: { pid: process.pid },
      hooks: { streamWrite: scrub },
    },
    (opts.destination ?? pino.destination({ dest: 1, sync: false })) as DestinationStream,
  );
}

/** The one access-log line of a request (spec: usage numbers at info, upstream timing at debug). */
export interface AccessLogLine {
  reqId: string;
  surface: string;
  method: string;
  /** The route template (e.g. `POST /gateway/v1/messages`), never the raw path with its query. */
  path: string;
  model: string | undefined;
  customer: string | undefined;
  keyId: string | undefined;
  status: number;
  outcome: string;
  stream: boolean;
  durationMs: number;
  tokens: { input: number; output: number; cacheRead: number; cacheWrite: number } | undefined;
  /** Arrival → upstream response headers; only at debug level. */
  upstreamMs?: number;
}

export interface AccessLogInput extends Omit<AccessLogLine, 'durationMs' | 'upstreamMs'> {
  durationMs: number;
  upstreamMs: number | null;
}

/** Writes the access line: info always, with the upstream timing added when debug is enabled. */
export function logAccess(logger: Logger, line: AccessLogInput): void {
  const { upstreamMs, durationMs, ...rest } = line;
  const out: AccessLogLine = { ...rest, durationMs: round2(durationMs) };
  if (upstreamMs !== null && logger.isLevelEnabled('debug')) out.upstreamMs = round2(upstreamMs);
  logger.info(out, 'request');
}

function round2(ms: number): number {
  return Math.round(ms * 100) / 100;
}
