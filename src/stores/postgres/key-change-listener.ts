// Pushes "keys changed" to this instance as soon as another one commits a change: LISTEN on a connection
// of its own (a pooled one would be handed to other work). Only a hint that a poll is due: the poll
// (changesSince) is correct by itself, so a notification lost while the connection was down costs only
// time, and every (re)connect signals once, to read what was missed meanwhile.
import pg from 'pg';
import { KEY_CHANGES_CHANNEL } from './key-change-feed.js';

export interface KeyChangeListenerOptions {
  /** Told after commit of any key change on any instance, and after every (re)connect. */
  onChange: (why: 'notified' | 'connected') => void;
  /** A lost connection or a failed reconnect; the listener keeps trying. */
  onError?: (err: Error) => void;
  /** Wait before reconnecting, doubled per failure up to maxRetryMs. Defaults 100 ms and 5 s. */
  retryMs?: number;
  maxRetryMs?: number;
  /** How long opening the connection may take. Default 5000 ms. */
  connectTimeoutMs?: number;
}

export class KeyChangeListener {
  private client: pg.Client | null = null;
  private closed = false;
  private failures = 0;
  private retryTimer: NodeJS.Timeout | null = null;
  private connecting: Promise<void> | null = null;

  constructor(
    private readonly connectionString: string,
    private readonly opts: KeyChangeListenerOptions,
  ) {}

  /** Resolves once listening; rejects when the first connection fails (later losses are retried). */
  start(): Promise<void> {
    this.connecting ??= this.connect();
    return this.connecting;
  }

  get listening(): boolean {
    return this.client !== null;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    await this.connecting?.catch(() => {});
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => {});
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({
      connectionString: this.connectionString,
      connectionTimeoutMillis: this.opts.connectTimeoutMs ?? 5000,
      query_timeout: this.opts.connectTimeoutMs ?? 5000,
      application_name: 'model-gateway key listener',
    });
    client.on('notification', (msg) => {
      if (msg.channel === KEY_CHANGES_CHANNEL) this.opts.onChange('notified');
    });
    client.on('error', (err) => this.lost(client, err));
    client.on('end', () => this.lost(client, new Error('key listener connection ended')));
    try {
      await client.connect();
      await client.query(`LISTEN ${KEY_CHANGES_CHANNEL}`);
    } catch (err) {
      await client.end().catch(() => {});
      throw err;
    }
    if (this.closed) {
      await client.end().catch(() => {});
      return;
    }
    this.client = client;
    this.failures = 0;
    this.opts.onChange('connected');
  }

  private lost(client: pg.Client, err: Error): void {
    if (this.closed || this.client !== client) return;
    this.client = null;
    this.opts.onError?.(err);
    client.end().catch(() => {});
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.closed || this.retryTimer) return;
    const base = this.opts.retryMs ?? 100;
    const delay = Math.min(base * 2 ** this.failures, this.opts.maxRetryMs ?? 5000);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.connecting = this.connect().catch((err: Error) => {
        this.failures++;
        this.opts.onError?.(err);
        this.scheduleReconnect();
      });
    }, delay);
    this.retryTimer.unref();
  }
}
