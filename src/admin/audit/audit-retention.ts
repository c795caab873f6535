// The admin trail is kept GATEWAY_AUDIT_RETENTION_DAYS days: every running gateway deletes older rows at
// start and then once an hour. Several instances on one PostgreSQL delete the same rows at worst, which
// is harmless; a failed run is reported and the next one catches up.
import type { AuditStore } from '../../stores/audit-store.js';

const DAY_MS = 86_400_000;
export const AUDIT_PRUNE_EVERY_MS = 3_600_000;

export interface AuditRetentionOptions {
  days: number;
  /** How often to delete old rows; hourly by default. */
  everyMs?: number;
  now?: () => number;
  onPruned?: (deleted: number) => void;
  onError?: (err: unknown) => void;
}

/** The moment before which rows go: `days` whole days before now. */
export function auditCutoff(now: number, days: number): Date {
  return new Date(now - days * DAY_MS);
}

export class AuditRetention {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly store: Pick<AuditStore, 'deleteOlderThan'>,
    private readonly opts: AuditRetentionOptions,
  ) {}

  /** Prunes now, then every `everyMs`; the timer never keeps the process alive. */
  start(): void {
    if (this.timer !== null) return;
    this.timer = setInterval(() => void this.runOnce(), this.opts.everyMs ?? AUDIT_PRUNE_EVERY_MS);
    this.timer.unref();
    void this.runOnce();
  }

  /** Deletes the rows past the retention; returns how many. */
  async prune(): Promise<number> {
    return this.store.deleteOlderThan(auditCutoff((this.opts.now ?? Date.now)(), this.opts.days));
  }

  /** Stops the timer and waits for a run in progress (the store is closed after this). */
  async close(): Promise<void> {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  private runOnce(): Promise<void> {
    // One run at a time: a slow database is not asked again while it is still deleting.
    this.running ??= this.prune()
      .then((deleted) => this.opts.onPruned?.(deleted), (err: unknown) => this.opts.onError?.(err))
      .finally(() => {
        this.running = null;
      });
    return this.running;
  }
}
