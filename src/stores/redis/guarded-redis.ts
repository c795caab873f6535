// The Redis connection as the rate limiter needs it: a command never waits for a reconnect (no
// offline queue), never waits longer than the command timeout, and after a few failures in a row
// Redis is skipped entirely (the breaker) until a background probe finds it answering again.
import { Breaker } from './breaker.js';
import type { LuaScript } from './lua-script.js';
import { withTimeout } from './with-timeout.js';
import { errorMessage } from '../../lib/error-message.js';

export interface GuardedRedisOptions {
  url: string;
  /**
   * Per command; 100 ms by default (the gateway's), so Redis never adds more than that to a request.
   * Tests of what the scripts decide set more: a loaded machine's round trips pass 100 ms.
   */
  commandTimeoutMs?: number;
  /** Consecutive failures (timeouts, lost connection) that open the breaker. */
  failureThreshold?: number;
  /** How often the probe tries Redis while the breaker is open. */
  probeEveryMs?: number;
  connectTimeoutMs?: number;
  /** Called on every change of state: the shared-store-up gauge. */
  onUpChange?: (up: boolean) => void;
}

/** Redis is down or skipped: the caller falls back, nothing was sent. */
export class StoreUnavailableError extends Error {
  constructor(reason: string) {
    super(`redis unavailable: ${reason}`);
    this.name = 'StoreUnavailableError';
  }
}

export const COMMAND_TIMEOUT_MS = 100;

type NodeRedis = typeof import('redis');
type Client = ReturnType<NodeRedis['createClient']>;

/**
 * node-redis, loaded with the first connection: a process without REDIS_URL (a single instance, the
 * CLI, most tests) never loads its few hundred modules (about 0.15 s of CPU at every start).
 */
let nodeRedis: NodeRedis | null = null;

async function loadNodeRedis(): Promise<NodeRedis> {
  nodeRedis ??= await import('redis');
  return nodeRedis;
}

/** An error reply is Redis answering (a wrong command, NOSCRIPT); none can exist before node-redis is loaded. */
function isErrorReply(err: unknown): boolean {
  return nodeRedis !== null && err instanceof nodeRedis.ErrorReply;
}
type Reply = unknown;

export class GuardedRedis {
  private client: Client | null = null;
  private connecting: Promise<boolean> | null = null;
  private probeTimer: NodeJS.Timeout | null = null;
  private closed = false;
  private readonly breaker: Breaker;
  private readonly timeoutMs: number;
  private readonly probeEveryMs: number;
  private readonly connectTimeoutMs: number;

  constructor(private readonly options: GuardedRedisOptions) {
    this.timeoutMs = options.commandTimeoutMs ?? COMMAND_TIMEOUT_MS;
    this.probeEveryMs = options.probeEveryMs ?? 1000;
    this.connectTimeoutMs = options.connectTimeoutMs ?? 1000;
    this.breaker = new Breaker(options.failureThreshold ?? 3, (closed) => this.changed(closed));
  }

  /** True while commands go to Redis; false while the breaker skips it. */
  get up(): boolean {
    return this.breaker.closed;
  }

  /** Connects once; when that fails the store starts down and the probe keeps trying. */
  async start(): Promise<boolean> {
    const ok = (await this.connect()) && (await this.ping());
    if (!ok) this.breaker.open();
    return ok;
  }

  async command(args: string[]): Promise<Reply> {
    if (!this.breaker.closed) throw new StoreUnavailableError('breaker open');
    const client = this.client;
    if (client === null || !client.isReady) {
      this.dropConnection();
      this.breaker.open();
      throw new StoreUnavailableError('not connected');
    }
    try {
      const reply = await this.send(client, args);
      this.breaker.success();
      return reply;
    } catch (err) {
      // An error reply is Redis answering: the store is up, the command itself was wrong.
      if (isErrorReply(err)) {
        this.breaker.success();
        throw err;
      }
      this.breaker.failure();
      // Replies are matched to commands by order: if one was lost on the way, every later reply
      // lands on the wrong command and times out too. Once the breaker opens the connection is
      // replaced, so the probe starts from a clean stream.
      if (!this.breaker.closed) this.dropConnection();
      throw new StoreUnavailableError(errorMessage(err));
    }
  }

  /** One round trip: EVALSHA, and EVAL only when the server does not know the script yet. */
  async evalScript(script: LuaScript, keys: string[], args: string[]): Promise<Reply> {
    const tail = [String(keys.length), ...keys, ...args];
    try {
      return await this.command(['EVALSHA', script.sha1, ...tail]);
    } catch (err) {
      if (!isErrorReply(err) || !(err as Error).message.startsWith('NOSCRIPT')) throw err;
      return this.command(['EVAL', script.source, ...tail]);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.probeTimer !== null) clearInterval(this.probeTimer);
    this.probeTimer = null;
    const client = this.client;
    this.client = null;
    // A graceful close waits for the replies still due, which a partition never delivers.
    if (client?.isOpen) await withTimeout(client.close(), this.connectTimeoutMs).catch(() => client.destroy());
  }

  private changed(closed: boolean): void {
    if (closed) {
      if (this.probeTimer !== null) clearInterval(this.probeTimer);
      this.probeTimer = null;
    } else if (this.probeTimer === null && !this.closed) {
      this.probeTimer = setInterval(() => void this.probe(), this.probeEveryMs);
      this.probeTimer.unref();
    }
    this.options.onUpChange?.(closed);
  }

  private async probe(): Promise<void> {
    if (this.closed || this.breaker.closed) return;
    if ((await this.connect()) && (await this.ping())) this.breaker.success();
  }

  private async ping(): Promise<boolean> {
    const client = this.client;
    if (client === null) return false;
    try {
      // Off the request path: as patient as a connect, so a busy host does not read as a dead Redis.
      await withTimeout(client.sendCommand(['PING']), this.connectTimeoutMs);
      return true;
    } catch {
      this.dropConnection();
      return false;
    }
  }

  // Not node-redis's own command timeout (off in openConnection): it makes an AbortSignal.timeout per
  // command, whose timer fires later whether or not the reply came, building a DOMException and
  // dispatching an abort event each time (~8% of the gateway's CPU with a limited key in a profile);
  // and it only covers the wait before the command is written. withTimeout covers the whole round trip.
  private send(client: Client, args: string[]): Promise<Reply> {
    return withTimeout(client.sendCommand(args), this.timeoutMs);
  }

  private connect(): Promise<boolean> {
    if (this.client?.isReady) return Promise.resolve(true);
    this.connecting ??= this.openConnection().finally(() => (this.connecting = null));
    return this.connecting;
  }

  private async openConnection(): Promise<boolean> {
    this.dropConnection();
    const { createClient } = await loadNodeRedis();
    const client: Client = createClient({
      url: this.options.url,
      disableOfflineQueue: true,
      // No client-side command timeout (node-redis's default is 5 s): it makes an AbortSignal.timeout per
      // command (see send()); withTimeout bounds every command instead.
      commandOptions: { timeout: 0 },
      // Reconnecting is the probe's job: the client itself never retries behind our back.
      socket: { connectTimeout: this.connectTimeoutMs, reconnectStrategy: false },
    });
    // Without a listener an 'error' event would crash the process; the breaker reports the state.
    client.on('error', () => {});
    client.on('end', () => {
      if (this.client === client) this.client = null;
    });
    try {
      // connectTimeout covers the TCP connect only: the handshake commands after it wait forever for
      // replies a partition dropped, and the probe would wait on this connect for good.
      await withTimeout(client.connect(), this.connectTimeoutMs);
      if (this.closed) {
        client.destroy();
        return false;
      }
      this.client = client;
      return true;
    } catch {
      client.destroy();
      return false;
    }
  }

  private dropConnection(): void {
    const client = this.client;
    this.client = null;
    if (client?.isOpen) client.destroy();
  }
}
