// Injected faults: a queue of (fault, how many requests still get it, which account's), consumed by
// model calls (messages, count_tokens, Bedrock invoke, Vertex rawPredict) in arrival order. Also the
// parser for faults sent to the control endpoint.
import type { Fault, FaultKind } from '../types.js';

export class FaultQueue {
  private readonly entries: Array<{ fault: Fault; remaining: number; account: string | null }> = [];

  /** `account`: only calls of that account get it; null: any call. */
  add(fault: Fault, count = 1, account: string | null = null): void {
    if (count > 0) this.entries.push({ fault, remaining: count, account });
  }

  clear(): void {
    this.entries.length = 0;
  }

  /** The fault for the next call of `account` (null: a call no account was found for), if any. */
  take(account: string | null = null): Fault | null {
    const i = this.entries.findIndex((e) => e.account === null || e.account === account);
    if (i < 0) return null;
    const entry = this.entries[i]!;
    if (--entry.remaining === 0) this.entries.splice(i, 1);
    return entry.fault;
  }
}

/** Faults that act before any response byte is written. */
export type EarlyFault = Extract<Fault, { kind: 'status' | 'reset-before-headers' | 'hang-before-headers' | 'malformed-json' }>;
/** Faults that act after `afterEvents` stream events. */
export type LateFault = Exclude<Fault, EarlyFault>;

export function isLateFault(f: Fault): f is LateFault {
  return 'afterEvents' in f;
}

const AFTER_EVENTS_KINDS: ReadonlySet<FaultKind> = new Set(['reset-mid-stream', 'stall-mid-stream', 'error-event', 'malformed-sse']);
const PLAIN_KINDS: ReadonlySet<FaultKind> = new Set(['reset-before-headers', 'hang-before-headers', 'malformed-json']);

function isCount(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0;
}

function optionalString(o: Record<string, unknown>, key: string): string | undefined | null {
  const v = o[key];
  if (v === undefined) return undefined;
  return typeof v === 'string' ? v : null;
}

/** Checks a fault that arrived as JSON; returns it, or a one-line reason. */
export function parseFault(v: unknown): Fault | string {
  if (typeof v !== 'object' || v === null) return 'fault must be an object';
  const o = v as Record<string, unknown>;
  const kind = o.kind as FaultKind;
  if (PLAIN_KINDS.has(kind)) return { kind } as Fault;
  if (AFTER_EVENTS_KINDS.has(kind)) {
    if (!isCount(o.afterEvents)) return 'afterEvents must be a non-negative integer';
    if (kind !== 'error-event') return { kind, afterEvents: o.afterEvents } as Fault;
    const errorType = optionalString(o, 'errorType');
    const message = optionalString(o, 'message');
    if (errorType === null || message === null) return 'errorType and message must be strings';
    return { kind, afterEvents: o.afterEvents, errorType, message };
  }
  if (kind === 'status') {
    if (!isCount(o.status) || o.status < 400 || o.status > 599) return 'status must be an HTTP error status (400-599)';
    const errorType = optionalString(o, 'errorType');
    const message = optionalString(o, 'message');
    if (errorType === null || message === null) return 'errorType and message must be strings';
    if (o.retryAfter !== undefined && !isCount(o.retryAfter)) return 'retryAfter must be a non-negative integer';
    return { kind, status: o.status, errorType, message, retryAfter: o.retryAfter as number | undefined };
  }
  return `unknown fault kind: ${String(o.kind)}`;
}
