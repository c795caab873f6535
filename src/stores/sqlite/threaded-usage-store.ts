// A UsageStore whose writes run on a thread of their own (usage-write-thread.ts) with its own
// connection to the same database file; reads stay on the caller's store (WAL: they see every
// committed batch). The event loop only hands each batch over, as columns (usage-handover.ts).
// The keys' last-use times are written there too (a LastUseWriter for the KeyCache), so no write the
// request path causes runs on the event loop's connection, where it would wait for the thread's lock.
// A thread that fails or dies fails the batches it held, which the UsageWriter keeps and retries; the
// next batch starts a new thread.
import { Worker } from 'node:worker_threads';
import type { UsageRecord, UsageQuery, UsageRow, UsageStore, UsageTotals } from '../../metering/usage-store.js';
import type { LastUse, LastUseWriter } from '../../keys/key-store.js';
import type { SpendOverview, SpendOverviewQuery } from '../../metering/spend-overview.js';
import type { UsageThreadData, WriteReply, WriteRequest } from './usage-write-thread.js';
import { encodeUsageBatch } from './usage-handover.js';

const THREAD = new URL('./usage-write-thread.js', import.meta.url);

/** Rows handed to the thread at a time: each batch is cloned on the event loop, as columns (usage-handover.ts; bench/tools/usage-writes.ts). */
export const ROWS_PER_HANDOVER = 256;

interface Pending {
  resolve: () => void;
  reject: (err: Error) => void;
}

interface WriteThread {
  worker: Worker;
  /** The batches this thread holds: a thread that dies fails its own, never a successor's. */
  pending: Map<number, Pending>;
  /** Set by close(): called once the thread has closed its connection (or is gone). */
  onClosed: (() => void) | null;
}

export class ThreadedUsageStore implements UsageStore, LastUseWriter {
  private thread: WriteThread | null = null;
  private nextId = 1;
  /** Set by close(); no batch is taken after it. */
  private closing: Promise<void> | null = null;

  constructor(
    private readonly databaseUrl: string,
    private readonly reads: UsageStore,
  ) {
    // Started now, so the first batch does not wait for the thread to load.
    this.thread = this.start();
  }

  insertBatch(rows: UsageRecord[]): Promise<void> {
    return this.send(rows.length, (id) => ({ id, batch: encodeUsageBatch(rows) }));
  }

  touchLastUsed(entries: LastUse[]): Promise<void> {
    return this.send(entries.length, (id) => ({ id, lastUsed: entries }));
  }

  query(q?: UsageQuery): Promise<UsageRow[]> {
    return this.reads.query(q);
  }

  totals(q?: UsageQuery): Promise<UsageTotals> {
    return this.reads.totals(q);
  }

  spendOverview(q: SpendOverviewQuery): Promise<SpendOverview> {
    return this.reads.spendOverview(q);
  }

  /** After the last batch (the UsageWriter's close): the thread closes its connection and ends. Idempotent. */
  close(): Promise<void> {
    this.closing ??= this.stop();
    return this.closing;
  }

  /** Hands a write of `items` rows to the thread; settles when the thread has committed or failed it. */
  private send(items: number, request: (id: number) => WriteRequest): Promise<void> {
    if (this.closing !== null) return Promise.reject(new Error('the usage store is closed'));
    if (items === 0) return Promise.resolve();
    const thread = (this.thread ??= this.start());
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      // A batch on its way keeps the process up (a shutdown waits for the last one); an idle thread does not.
      if (thread.pending.size === 0) thread.worker.ref();
      thread.pending.set(id, { resolve, reject });
      thread.worker.postMessage(request(id));
    });
  }

  private async stop(): Promise<void> {
    const thread = this.thread;
    if (thread === null) return;
    thread.worker.ref();
    await new Promise<void>((resolve) => {
      thread.onClosed = resolve;
      thread.worker.postMessage('close');
    });
    await thread.worker.terminate();
  }

  private start(): WriteThread {
    const worker = new Worker(THREAD, { workerData: { databaseUrl: this.databaseUrl } satisfies UsageThreadData });
    // Idle, never the reason the process stays up; close() ends it in an orderly shutdown.
    worker.unref();
    const thread: WriteThread = { worker, pending: new Map(), onClosed: null };
    worker.on('message', (reply: WriteReply | 'closed') => {
      if (reply === 'closed') return thread.onClosed?.();
      const waiting = thread.pending.get(reply.id);
      if (waiting === undefined) return;
      thread.pending.delete(reply.id);
      if (thread.pending.size === 0) worker.unref();
      if (reply.error === undefined) waiting.resolve();
      else waiting.reject(new Error(reply.error));
    });
    const gone = (reason: Error) => {
      if (this.thread === thread) this.thread = null;
      for (const waiting of thread.pending.values()) waiting.reject(reason);
      thread.pending.clear();
      thread.onClosed?.();
    };
    worker.on('error', (err) => gone(err));
    worker.on('exit', (code) => gone(new Error(`the usage write thread exited (code ${code})`)));
    return thread;
  }
}
