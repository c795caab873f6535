// The process logger (pino, JSON lines to stdout). Every serialized line, at every level and from
// every child logger, passes a scrub (redaction.ts) before it is written: credential header values
// anywhere in the line, gateway keys by pattern, and the configured secrets (admin token, upstream
// key) by value, so a secret inside a message or an error string is caught too.
//
// Costs measured on the request path (the bench's profiles, bench/README.md): pino's generic serialisation of the access
// line (~8 µs), one asynchronous write per line (a thread-pool job each), and sonic-boom's pending
// string (~3.5 µs a line). The access line is therefore written by hand in pino's line format (its
// client- or operator-chosen strings clipped, scrubbed and quoted once per distinct value), and stdout is
// written by BatchedFdStream in batches of 16 KiB, flushed at least every 250 ms and on exit.
import { pino, type DestinationStream, type Logger } from 'pino';
import { clipText } from '../lib/json/clip-text.js';
import { QuotedCache } from '../lib/json/quote.js';
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
  /** Values a client or an operator chose (model names, customer names): scrubbed, then quoted. */
  chosen: QuotedCache;
  /** The gateway's own values that repeat (route names, key ids, outcomes): quoted. */
  own: QuotedCache;
  stream: DestinationStream;
}

/** The process logger and the access log that writes into the same stream, past the same scrub. */
export interface Logging {
  logger: Logger;
  access: AccessLog;
}

export function createLogging(opts: LoggerOptions): Logging {
  const scrub = secretScrubber(opts.secrets ?? []);
  const stream = (opts.destination ?? new BatchedFdStream({ fd: 1, minBytes: BATCH_BYTES, flushEveryMs: FLUSH_EVERY_MS })) as DestinationStream;
  const logger = pino({ level: opts.level, base: { pid: process.pid }, hooks: { streamWrite: scrub.line } }, stream);
  return { logger, access: new AccessLog(logger, { chosen: new QuotedCache(scrub.value), own: new QuotedCache(), stream }) };
}

/** A logger alone, for processes that write no access lines (the CLI's proxy, the cluster primary). */
export function createLogger(opts: LoggerOptions): Logger {
  return createLogging(opts).logger;
}

/** What the one access-log line of a request says (README "Operations": usage at info, upstream timing at debug). */
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
  /**
   * Written only at debug level (null: no answer came). Arrival → the call that answered was dispatched
   * (the gateway's own work before it), and arrival → that answer's headers.
   */
  upstreamSentMs: number | null;
  upstreamMs: number | null;
}

/** Writes one access line per request: info always, with the upstream timing added when debug is enabled. */
export class AccessLog {
  constructor(
    private readonly logger: Logger,
    private readonly writer: LineWriter,
  ) {}

  write(line: AccessLogLine): void {
    const { logger } = this;
    if (!logger.isLevelEnabled('info')) return;
    const durationMs = round2(line.durationMs);
    const debug = logger.isLevelEnabled('debug');
    const upstreamSentMs = line.upstreamSentMs !== null && debug ? round2(line.upstreamSentMs) : undefined;
    const upstreamMs = line.upstreamMs !== null && debug ? round2(line.upstreamMs) : undefined;
    // A client may name a model of any length: clipped before it is written or cached.
    const model = line.model === undefined ? undefined : clipText(line.model);
    const customer = line.customer === undefined ? undefined : clipText(line.customer);
    const { own, chosen } = this.writer;
    // pino's own line shape: level, time, base fields, the object's fields (undefined ones left out), msg.
    // The request id is the gateway's hex id and the method a token llhttp accepted: neither needs escaping.
    let text = `{"level":30,"time":${Date.now()},"pid":${PID},"reqId":"${line.reqId}","surface":${own.literal(line.surface)},"method":"${line.method}","path":${own.literal(line.path)}`;
    if (model !== undefined) text += `,"model":${chosen.literal(model)}`;
    if (customer !== undefined) text += `,"customer":${chosen.literal(customer)}`;
    if (line.keyId !== undefined) text += `,"keyId":${own.literal(line.keyId)}`;
    text += `,"status":${line.status},"outcome":${own.literal(line.outcome)},"stream":${line.stream},"durationMs":${durationMs}`;
    const tokens = line.tokens;
    if (tokens !== undefined) {
      text += `,"tokens":{"input":${tokens.input},"output":${tokens.output},"cacheRead":${tokens.cacheRead},"cacheWrite":${tokens.cacheWrite}}`;
    }
    if (upstreamSentMs !== undefined) text += `,"upstreamSentMs":${upstreamSentMs}`;
    if (upstreamMs !== undefined) text += `,"upstreamMs":${upstreamMs}`;
    this.writer.stream.write(`${text},"msg":"request"}\n`);
  }
}

const PID = process.pid;

function round2(ms: number): number {
  return Math.round(ms * 100) / 100;
}
