// The process logger (pino, JSON lines to stdout). Every serialized line, at every level and from
// every child logger, passes a scrub (redaction.ts) before it is written: credential header values
// anywhere in the line, gateway keys by pattern, and the configured secrets (admin token, upstream
// key) by value, so a secret inside a message or an error string is caught too.
//
// Costs measured on the request path (bench/README.md): pino's generic serialisation of the access
// line (~8 µs), one asynchronous write per line (a thread-pool job each), and sonic-boom's pending
// string (~3.5 µs a line). The access line is therefore built by a compiled serialiser in pino's line
// format, its client-supplied strings scrubbed (the rest are the gateway's own ids, names and
// numbers), and stdout is written by BatchedFdStream in batches of 16 KiB, flushed at least every
// 250 ms and on exit.
import fastJson from 'fast-json-stringify';
import { pino, type DestinationStream, type Logger } from 'pino';
import { BatchedFdStream } from './batched-fd-stream.js';
import { secretScrubber } from './redaction.js';

export type { Logger } from 'pino';

export interface LoggerOptions {
  level: string;
  /** Where lines go; stdout by default. Tests pass a stream to read them back. */
  destination?: NodeJS.WritableStream;
  /** Values that must never appear in a line: the admin token, the upstream key. */
  secrets?: readonly string[];
}

/** Lines wait at most this long in the stdout batch. */
const FLUSH_EVERY_MS = 250;
const BATCH_BYTES = 16 * 1024;

/** What the access-line fast path needs from a logger createLogger made. */
interface LineWriter {
  scrubValue: (value: string) => string;
  stream: DestinationStream;
}

const writers = new WeakMap<Logger, LineWriter>();

export function createLogger(opts: LoggerOptions): Logger {
  const scrub = secretScrubber(opts.secrets ?? []);
  const stream = (opts.destination ?? new BatchedFdStream({ fd: 1, minBytes: BATCH_BYTES, flushEveryMs: FLUSH_EVERY_MS })) as DestinationStream;
  const logger = pino({ level: opts.level, base: { pid: process.pid }, hooks: { streamWrite: scrub.line } }, stream);
  writers.set(logger, { scrubValue: scrub.value, stream });
  return logger;
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

const str = { type: 'string' } as const;
const num = { type: 'number' } as const;
const accessFields = fastJson({
  type: 'object',
  properties: {
    reqId: str,
    surface: str,
    method: str,
    path: str,
    model: str,
    customer: str,
    keyId: str,
    status: { type: 'integer' },
    outcome: str,
    stream: { type: 'boolean' },
    durationMs: num,
    tokens: { type: 'object', properties: { input: num, output: num, cacheRead: num, cacheWrite: num } },
    upstreamMs: num,
  },
});

/** Writes the access line: info always, with the upstream timing added when debug is enabled. */
export function logAccess(logger: Logger, line: AccessLogInput): void {
  if (!logger.isLevelEnabled('info')) return;
  const out: AccessLogLine = {
    reqId: line.reqId,
    surface: line.surface,
    method: line.method,
    path: line.path,
    model: line.model,
    customer: line.customer,
    keyId: line.keyId,
    status: line.status,
    outcome: line.outcome,
    stream: line.stream,
    durationMs: round2(line.durationMs),
    tokens: line.tokens,
  };
  if (line.upstreamMs !== null && logger.isLevelEnabled('debug')) out.upstreamMs = round2(line.upstreamMs);
  const writer = writers.get(logger);
  if (writer === undefined) {
    logger.info(out, 'request');
    return;
  }
  // The strings a client or an operator chose; every other field is the gateway's own.
  if (out.model !== undefined) out.model = writer.scrubValue(out.model);
  if (out.customer !== undefined) out.customer = writer.scrubValue(out.customer);
  // pino's own line shape: level, time, base fields, the object's fields, msg.
  const fields = accessFields(out);
  writer.stream.write(`{"level":30,"time":${Date.now()},"pid":${PID},${fields.slice(1, -1)},"msg":"request"}\n`);
}

const PID = process.pid;

function round2(ms: number): number {
  return Math.round(ms * 100) / 100;
}
