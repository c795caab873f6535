// Which gateway instances are alive: each announces itself every second in a sorted set scored by
// the Redis server's clock, and learns the live count in the same round trip. While Redis is down
// the last count is kept: it is what the per-instance fallback share divides by.
import { randomUUID } from 'node:crypto';
import { instancesSet } from './keys.js';
import { luaScript, type LuaScript } from './lua-script.js';

/**
 * KEYS[1]: the instances sorted set. ARGV: instanceId, ttlMs, leaving ('1' = remove this instance).
 * Scores are the server's clock, so instances need not agree on the time. Returns the live count.
 */
export const HEARTBEAT_SCRIPT = luaScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local ttl = tonumber(ARGV[2])
if ARGV[3] == '1' then
  redis.call('ZREM', KEYS[1], ARGV[1])
else
  redis.call('ZADD', KEYS[1], now, ARGV[1])
end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - ttl)
redis.call('PEXPIRE', KEYS[1], ttl * 2)
return redis.call('ZCARD', KEYS[1])
`);

interface Runner {
  evalScript(script: LuaScript, keys: string[], args: string[]): Promise<unknown>;
}

export interface InstanceRegistryOptions {
  prefix: string;
  instanceId?: string;
  heartbeatMs?: number;
  /** An instance not heard of for this long is gone. */
  ttlMs?: number;
}

export class InstanceRegistry {
  readonly instanceId: string;
  private lastCount = 1;
  private timer: NodeJS.Timeout | null = null;
  private readonly key: string;
  private readonly heartbeatMs: number;
  private readonly ttlMs: number;

  constructor(
    private readonly redis: Runner,
    options: InstanceRegistryOptions,
  ) {
    this.instanceId = options.instanceId ?? randomUUID();
    this.key = instancesSet(options.prefix);
    this.heartbeatMs = options.heartbeatMs ?? 1000;
    this.ttlMs = options.ttlMs ?? 3 * this.heartbeatMs;
  }

  /** Live instances, this one included, as last heard from Redis (1 before the first answer). */
  get liveInstances(): number {
    return this.lastCount;
  }

  async start(): Promise<void> {
    await this.beat();
    this.timer = setInterval(() => void this.beat(), this.heartbeatMs);
    this.timer.unref();
  }

  /** Leaves the set so the others' shares grow at once rather than after the TTL. */
  async stop(): Promise<void> {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    await this.redis.evalScript(HEARTBEAT_SCRIPT, [this.key], [this.instanceId, String(this.ttlMs), '1']).catch(() => {});
  }

  async beat(): Promise<void> {
    try {
      const count = Number(await this.redis.evalScript(HEARTBEAT_SCRIPT, [this.key], [this.instanceId, String(this.ttlMs), '0']));
      if (count >= 1) this.lastCount = count;
    } catch {
      // Redis down: the last count stands.
    }
  }
}
