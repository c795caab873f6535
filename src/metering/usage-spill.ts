// Usage rows the database could not take, kept in append-only files under the data directory until it can
// (docs/postgres.md, "When PostgreSQL is unreachable"). One line of JSON per row.
//
// Each process appends to usage-spill-<pid>.ndjson. A replay first renames that file to
// usage-spill-<pid>-<seq>.ndjson, so appends made meanwhile start a new file and never mix with what is
// being read; a replayed file is removed only once every row of it was written (rows carry their request
// id and the store ignores one it has, so a replay cut short and started over counts nothing twice). A
// process that starts takes over the files of processes no longer running (a restart, a crash, a cluster
// worker replaced), and its own pid's (a container restarted with the same pid), by renaming them: one
// process wins each file.
import { createReadStream } from 'node:fs';
import { appendFile, mkdir, readdir, rename, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { UsageRecord } from './usage-store.js';

export interface UsageSpillOptions {
  dir: string;
  /** Rows kept in the files at most; beyond it new rows are refused (and counted by the caller). */
  maxRows: number;
  /** Tests name another process. */
  pid?: number;
  isRunning?: (pid: number) => boolean;
}

interface Queued {
  path: string;
  rows: number;
}

const FILE = /^usage-spill-(\d+)(?:-(\d+))?\.ndjson$/;

export class UsageSpill {
  /** Lines found unreadable in a replayed file (a process killed mid-append leaves half a line). */
  unreadableRows = 0;
  private readonly queue: Queued[] = [];
  private currentRows = 0;
  /** Rows of appends under way, counted against the bound before they land. */
  private reserved = 0;
  private seq = 0;
  /** Appends and renames, one at a time, so a file is never renamed halfway through an append. */
  private chain: Promise<unknown> = Promise.resolve();
  private readonly current: string;

  private constructor(
    private readonly dir: string,
    private readonly maxRows: number,
    private readonly pid: number,
  ) {
    this.current = join(dir, `usage-spill-${pid}.ndjson`);
  }

  /** Opens the spill of this process, taking over the files left by processes that stopped. */
  static async open(opts: UsageSpillOptions): Promise<UsageSpill> {
    const pid = opts.pid ?? process.pid;
    const spill = new UsageSpill(opts.dir, opts.maxRows, pid);
    await mkdir(opts.dir, { recursive: true });
    await spill.takeOver(opts.isRunning ?? isRunning);
    return spill;
  }

  /** Rows in the files, not written to the database yet. */
  get rows(): number {
    return this.currentRows + this.queue.reduce((n, q) => n + q.rows, 0);
  }

  /**
   * Appends rows (serialised now, so the caller may reuse the array); resolves with how many did not fit
   * under the bound. Rejects when the file cannot be written (nothing of it is kept then).
   */
  append(rows: readonly UsageRecord[]): Promise<number> {
    const room = Math.max(0, this.maxRows - this.rows - this.reserved);
    const kept = rows.length <= room ? rows : rows.slice(0, room);
    if (kept.length === 0) return Promise.resolve(rows.length);
    let text = '';
    for (const row of kept) text += JSON.stringify(row) + '\n';
    this.reserved += kept.length;
    return this.serial(async () => {
      try {
        // Owner only: the rows name customers, keys and what they spent (creates the file 0600; an existing one keeps its mode).
        await appendFile(this.current, text, { mode: SPILL_FILE_MODE });
        this.currentRows += kept.length;
      } finally {
        this.reserved -= kept.length;
      }
      return rows.length - kept.length;
    });
  }

  /**
   * Writes every spilled row, oldest file first, `rowsPerWrite` at a time; removes each file once all its
   * rows are written. Rejects at the first failed write, keeping that file and the ones after it.
   */
  async replay(write: (rows: UsageRecord[]) => Promise<void>, rowsPerWrite: number): Promise<void> {
    await this.serial(() => this.queueCurrent());
    while (this.queue.length > 0) {
      const file = this.queue[0];
      await this.replayFile(file.path, write, rowsPerWrite);
      await unlink(file.path).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'ENOENT') throw err;
      });
      this.queue.shift();
    }
  }

  /** Waits for the appends under way. */
  async settle(): Promise<void> {
    await this.chain.catch(() => {});
  }

  private serial<T>(task: () => Promise<T>): Promise<T> {
    const run = this.chain.then(task, task);
    this.chain = run.catch(() => {});
    return run;
  }

  private async queueCurrent(): Promise<void> {
    if (this.currentRows === 0) return;
    const path = this.nextPath();
    await rename(this.current, path);
    this.queue.push({ path, rows: this.currentRows });
    this.currentRows = 0;
  }

  private async replayFile(path: string, write: (rows: UsageRecord[]) => Promise<void>, rowsPerWrite: number): Promise<void> {
    const lines = createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Infinity });
    let batch: UsageRecord[] = [];
    let unreadable = 0;
    try {
      // Reading pauses while a batch is written.
      for await (const line of lines) {
        if (line === '') continue;
        const row = parseRow(line);
        if (row === null) {
          unreadable++;
          continue;
        }
        batch.push(row);
        if (batch.length >= rowsPerWrite) {
          await write(batch);
          batch = [];
        }
      }
      if (batch.length > 0) await write(batch);
    } finally {
      lines.close();
    }
    this.unreadableRows += unreadable;
  }

  private async takeOver(running: (pid: number) => boolean): Promise<void> {
    const names = (await readdir(this.dir)).filter((n) => FILE.test(n));
    const found: { name: string; mtimeMs: number }[] = [];
    for (const name of names) {
      const owner = Number(FILE.exec(name)![1]);
      if (owner !== this.pid && running(owner)) continue;
      const info = await stat(join(this.dir, name)).catch(() => null);
      if (info !== null) found.push({ name, mtimeMs: info.mtimeMs });
    }
    found.sort((a, b) => a.mtimeMs - b.mtimeMs || a.name.localeCompare(b.name));
    for (const { name } of found) {
      const path = this.nextPath();
      try {
        await rename(join(this.dir, name), path);
      } catch {
        continue; // another process starting now took it
      }
      this.queue.push({ path, rows: await countLines(path) });
    }
  }

  private nextPath(): string {
    this.seq++;
    return join(this.dir, `usage-spill-${this.pid}-${Date.now()}${String(this.seq).padStart(4, '0')}.ndjson`);
  }
}

/** Spill files are readable and writable by the gateway's user alone. */
export const SPILL_FILE_MODE = 0o600;

/**
 * A replayed line as a usage row, or null when it is not one: each field of the type it must have, counts
 * whole and not negative, the cost a safe integer, the surface one of the gateway's. A file edited or
 * damaged on disk then cannot put arbitrary values into the usage store and its invoices.
 */
export function parseRow(line: string): UsageRecord | null {
  let row: unknown;
  try {
    row = JSON.parse(line);
  } catch {
    return null;
  }
  if (typeof row !== 'object' || row === null || Array.isArray(row)) return null;
  const r = row as Record<string, unknown>;
  const count = (v: unknown) => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
  const text = (v: unknown, max: number) => typeof v === 'string' && v.length > 0 && v.length <= max;
  const idOrNull = (v: unknown) => v === null || text(v, 200);
  const valid =
    text(r.requestId, 200) &&
    count(r.at) &&
    idOrNull(r.customerId) &&
    idOrNull(r.keyId) &&
    text(r.model, 200) &&
    (r.surface === 'messages' || r.surface === 'chat' || r.surface === 'responses') &&
    count(r.inputTokens) &&
    count(r.outputTokens) &&
    count(r.cacheReadTokens) &&
    count(r.cacheWriteTokens) &&
    (r.cacheWrite1hTokens === undefined || count(r.cacheWrite1hTokens)) &&
    (r.webSearches === undefined || count(r.webSearches)) &&
    count(r.costNanoUsd) &&
    typeof r.status === 'number' && Number.isInteger(r.status) && r.status >= 100 && r.status <= 599 &&
    typeof r.durationMs === 'number' && Number.isFinite(r.durationMs) && r.durationMs >= 0 &&
    text(r.outcome, 64) &&
    (r.estimated === undefined || typeof r.estimated === 'boolean');
  return valid ? (row as UsageRecord) : null;
}

async function countLines(path: string): Promise<number> {
  let n = 0;
  for await (const chunk of createReadStream(path)) {
    const buf = chunk as Buffer;
    for (let i = buf.indexOf(10); i !== -1; i = buf.indexOf(10, i + 1)) n++;
  }
  return n;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: running, under another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
