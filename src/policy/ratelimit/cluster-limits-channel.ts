// Rate limits and failed-authentication counts across the workers of `serve --workers N`. Each worker
// is a whole gateway, so buckets of its own would let a key with a limit of 60 requests a minute make
// 60 per worker. Instead:
// - rate limits are decided by the primary: it holds the one set of buckets (a MemoryRateLimiter),
//   a worker asks it over the cluster's IPC channel before a limited request goes upstream and tells
//   it the real usage afterwards. Keys without limits never ask (the stage passes them untouched).
//   What one side sends in one event-loop turn travels as one IPC message (outbox).
//   A worker that gets no answer in time lets the request through and logs it: limits are a fairness
//   guard, and a slow primary must not take the whole gateway down with it.
// - failed authentications are counted where they happen and copied to every other worker through the
//   primary, so the throttle's decision stays synchronous and local; a burst split over the workers
//   can get a few more tries in before the copies land, never a multiple of the limit.
import cluster from 'node:cluster';
import type { Worker } from 'node:cluster';
import type { Logger } from 'pino';
import { AuthThrottle } from './auth-throttle.js';
import type { LimitDecision, LimitRequest, RateLimiter, Reservation } from './limiter.js';
import { MemoryRateLimiter, type ReservationData } from './memory-limiter.js';
import { errorMessage } from '../../lib/error-message.js';

const ACQUIRE = 'model-gateway:limits-acquire';
const DECISION = 'model-gateway:limits-decision';
const SETTLE = 'model-gateway:limits-settle';
const AUTH_FAILED = 'model-gateway:auth-failed';

export type LimitsMessage =
  | { type: typeof ACQUIRE; id: number; request: LimitRequest }
  | { type: typeof DECISION; id: number; decision: LimitDecision }
  | { type: typeof SETTLE; reservation: ReservationData; usedTokens: number }
  | { type: typeof AUTH_FAILED; address: string | null };

const BATCH = 'model-gateway:limits';

/** What crosses the IPC channel: every message one side sent in one event-loop turn. */
export interface LimitsBatch {
  type: typeof BATCH;
  messages: LimitsMessage[];
}

/**
 * Sends what is queued in one event-loop turn as one IPC message once the turn's I/O is handled
 * (setImmediate): under load a worker sends one message per turn instead of two per limited request,
 * and each IPC message costs both sides a serialisation and a pipe write.
 */
export function outbox(sendBatch: (batch: LimitsBatch) => void): (msg: LimitsMessage) => void {
  let queued: LimitsMessage[] = [];
  const flush = () => {
    const messages = queued;
    queued = [];
    sendBatch({ type: BATCH, messages });
  };
  return (msg) => {
    if (queued.push(msg) === 1) setImmediate(flush);
  };
}

/** The messages of a batch; nothing for any other IPC message (the metrics channel shares the pipe). */
export function messagesOf(raw: unknown): LimitsMessage[] {
  const batch = raw as Partial<LimitsBatch> | null;
  return batch?.type === BATCH && Array.isArray(batch.messages) ? batch.messages : [];
}

/** How long a worker waits for the primary's decision before it lets the request through. */
export const DECISION_TIMEOUT_MS = 2000;

/** The primary's side: one limiter for every worker. Answers go back to the worker that asked. */
export class LimitsAuthority {
  constructor(private readonly limiter: MemoryRateLimiter = new MemoryRateLimiter()) {}

  /** Handles one message of a worker's batch; `reply` answers it, `others` tells every other worker. */
  receive(msg: LimitsMessage, reply: (msg: LimitsMessage) => void, others: (msg: LimitsMessage) => void): void {
    switch (msg.type) {
      case ACQUIRE:
        reply({ type: DECISION, id: msg.id, decision: this.limiter.acquire(msg.request) });
        return;
      case SETTLE:
        this.limiter.settle(MemoryRateLimiter.reservationFrom(msg.reservation), msg.usedTokens);
        return;
      case AUTH_FAILED:
        others(msg);
        return;
    }
  }
}

/** An answer given without the primary (it did not answer in time): nothing reserved, nothing to settle. */
const UNRESERVED: Reservation = Object.freeze({});

/** A worker's RateLimiter: every decision is the primary's. */
export class ClusterRateLimiter implements RateLimiter {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (d: LimitDecision) => void; timer: NodeJS.Timeout }>();

  constructor(
    private readonly send: (msg: LimitsMessage) => void,
    private readonly logger: Logger,
    private readonly timeoutMs = DECISION_TIMEOUT_MS,
  ) {}

  acquire(request: LimitRequest): Promise<LimitDecision> {
    const id = this.nextId++;
    // Only what the primary needs: the key's limits travel without the rest of the principal.
    const { keyId, keyLimits, customerId, customerLimits, tokens } = request;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        this.logger.warn({ keyId, timeoutMs: this.timeoutMs }, 'the cluster primary did not answer a rate-limit check; the request goes through');
        resolve({ allowed: true, reservation: UNRESERVED, status: { requests: null, tokens: null } });
      }, this.timeoutMs);
      this.pending.set(id, { resolve, timer });
      this.send({ type: ACQUIRE, id, request: { keyId, keyLimits: { rpm: keyLimits.rpm, tpm: keyLimits.tpm }, customerId, customerLimits, tokens } });
    });
  }

  settle(reservation: Reservation, usedTokens: number): void {
    if (reservation === UNRESERVED) return;
    this.send({ type: SETTLE, reservation: reservation as ReservationData, usedTokens });
  }

  /** A message from the primary. */
  receive(msg: LimitsMessage): void {
    if (msg.type !== DECISION) return;
    const waiting = this.pending.get(msg.id);
    if (waiting === undefined) return; // answered too late: the request already went through
    this.pending.delete(msg.id);
    clearTimeout(waiting.timer);
    waiting.resolve(msg.decision);
  }
}

/** Worker side: the failures this worker sees go to the others; theirs are counted here. */
export function authFailureSharing(send: (msg: LimitsMessage) => void): {
  share: (address: string | undefined) => void;
  receive: (msg: LimitsMessage, throttle: AuthThrottle) => void;
} {
  return {
    share: (address) => send({ type: AUTH_FAILED, address: address ?? null }),
    receive(msg, throttle) {
      if (msg.type === AUTH_FAILED) throttle.failedElsewhere(msg.address ?? undefined);
    },
  };
}

/** Primary side: answers the workers' limit checks and passes failed authentications around. */
export function serveClusterLimits(logger: Logger): void {
  const authority = new LimitsAuthority();
  cluster.on('message', (worker: Worker, raw: unknown) => {
    const messages = messagesOf(raw);
    if (messages.length === 0) return;
    const replies: LimitsMessage[] = [];
    const copies: LimitsMessage[] = [];
    for (const msg of messages) {
      try {
        authority.receive(msg, (r) => replies.push(r), (c) => copies.push(c));
      } catch (err) {
        // One bad message must not take the primary, and every worker with it, down; the worker's
        // check times out and lets its request through.
        logger.error({ type: msg.type, err: errorMessage(err) }, 'a cluster limits message failed');
      }
    }
    if (replies.length > 0 && worker.isConnected()) worker.send({ type: BATCH, messages: replies } satisfies LimitsBatch);
    if (copies.length === 0) return;
    for (const other of Object.values(cluster.workers ?? {})) {
      if (other !== undefined && other !== worker && other.isConnected()) other.send({ type: BATCH, messages: copies } satisfies LimitsBatch);
    }
  });
}

/** Worker side: a limiter and an auth throttle (null when failures are not throttled) that share the primary's counts. */
export function clusterLimits(authFailuresPerMinute: number, logger: Logger): { limiter: RateLimiter; authThrottle: AuthThrottle | null } {
  const send = outbox((batch) => {
    if (process.connected) process.send?.(batch);
  });
  const limiter = new ClusterRateLimiter(send, logger);
  const sharing = authFailureSharing(send);
  const authThrottle = authFailuresPerMinute > 0 ? new AuthThrottle(authFailuresPerMinute, undefined, sharing.share) : null;
  process.on('message', (raw: unknown) => {
    for (const msg of messagesOf(raw)) {
      limiter.receive(msg);
      if (authThrottle !== null) sharing.receive(msg, authThrottle);
    }
  });
  return { limiter, authThrottle };
}
