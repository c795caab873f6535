// Route cool-downs shared by the fleet: a cool-down one instance learns (a 429 with its retry-after,
// a throttling answer, a rate limit reported at 0) is written to one Redis hash, route name → the
// moment it ends, and every instance reads that hash a few times a second and applies what it finds
// to its own routes. So a route the provider throttled is left alone by every instance within the
// read interval (well under the promised second) instead of each one paying its own 429 first.
//
// Reading one small hash on a timer rather than pub/sub keeps it on the one guarded connection the
// instance already has (no subscriber connection to keep alive, the same timeouts and breaker), and
// an instance that starts or reconnects learns the cool-downs in force at once, not only later ones.
// While Redis is not answering each instance keeps its own cool-downs (they still hold locally); what
// it learned meanwhile is not shared, and expires on its own.
import type { GuardedRedis } from '../../../stores/redis/guarded-redis.js';
import { StoreUnavailableError } from '../../../stores/redis/guarded-redis.js';
import { luaScript, type LuaScript } from '../../../stores/redis/lua-script.js';
import type { CoolDown, CoolDownReason } from '../route-state.js';

/** How often an instance reads the fleet's cool-downs: four times within the promised second. */
export const READ_EVERY_MS = 250;

/**
 * Records a cool-down unless a later one of the route is already there, drops those that are over,
 * and keeps the hash only as long as its last cool-down lasts.
 * KEYS[1]: the hash. ARGV: route, until (epoch ms), reason, now (epoch ms).
 */
export const SHARE_COOL_DOWN_SCRIPT: LuaScript = luaScript(`
local route, untilMs, reason, now = ARGV[1], tonumber(ARGV[2]), ARGV[3], tonumber(ARGV[4])
local held = redis.call('HGET', KEYS[1], route)
local heldUntil = held and tonumber(string.match(held, '^(%d+)'))
if not heldUntil or heldUntil < untilMs then
  redis.call('HSET', KEYS[1], route, untilMs .. ' ' .. reason)
end
local last = now
local all = redis.call('HGETALL', KEYS[1])
for i = 1, #all, 2 do
  local ends = tonumber(string.match(all[i + 1], '^(%d+)'))
  if ends == nil or ends <= now then redis.call('HDEL', KEYS[1], all[i]) elseif ends > last then last = ends end
end
if last > now then redis.call('PEXPIRE', KEYS[1], last - now) end
return 1
`);

/** The hash of the fleet's route cool-downs. */
export function coolingRoutesEntry(prefix: string): string {
  return `${prefix}routes:cooling`;
}

/** Where learned cool-downs are applied: this instance's routes by name. */
export interface CoolingTarget {
  coolUntil(routeName: string, until: number, reason: CoolDownReason): void;
}

export interface FleetCoolDownsOptions {
  readonly prefix: string;
  readonly readEveryMs?: number;
  readonly wallNow?: () => number;
  /** A reply Redis gave but this code did not expect (a script error): worth a log line. */
  readonly onError?: (err: unknown) => void;
}

/** One entry of the hash as stored: `<until epoch ms> <reason>`; null when it is not one. */
export function parseCoolDown(text: string): CoolDown | null {
  const match = /^(\d+) (throttled|no_headroom)$/.exec(text);
  return match === null ? null : { until: Number(match[1]), reason: match[2] as CoolDownReason };
}

export class FleetCoolDowns {
  private readonly key: string;
  private readonly wallNow: () => number;
  private readonly timer: NodeJS.Timeout;
  private reading: Promise<void> | null = null;
  private readonly writes = new Set<Promise<void>>();

  constructor(
    private readonly redis: GuardedRedis,
    private readonly target: CoolingTarget,
    private readonly options: FleetCoolDownsOptions,
  ) {
    this.key = coolingRoutesEntry(options.prefix);
    this.wallNow = options.wallNow ?? Date.now;
    this.timer = setInterval(() => void this.read(), options.readEveryMs ?? READ_EVERY_MS);
    this.timer.unref();
  }

  /** A cool-down this instance learned: written for the others, off the request's path. */
  share(routeName: string, coolDown: CoolDown): void {
    const write = this.write(routeName, coolDown).finally(() => this.writes.delete(write));
    this.writes.add(write);
  }

  /** Reads the fleet's cool-downs now (the timer does it too); one read at a time. */
  read(): Promise<void> {
    return (this.reading ??= this.readOnce().finally(() => (this.reading = null)));
  }

  /** Stops reading; resolves once the writes in flight are done. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await Promise.all([...this.writes, this.reading]);
  }

  private async write(routeName: string, coolDown: CoolDown): Promise<void> {
    try {
      await this.redis.evalScript(SHARE_COOL_DOWN_SCRIPT, [this.key], [routeName, String(Math.ceil(coolDown.until)), coolDown.reason, String(this.wallNow())]);
    } catch (err) {
      if (!(err instanceof StoreUnavailableError)) this.options.onError?.(err);
    }
  }

  private async readOnce(): Promise<void> {
    let reply: unknown;
    try {
      // Skipped at once while the breaker is open: a dead Redis costs nothing here either.
      reply = await this.redis.command(['HGETALL', this.key]);
    } catch (err) {
      if (!(err instanceof StoreUnavailableError)) this.options.onError?.(err);
      return;
    }
    const now = this.wallNow();
    for (const [route, text] of entriesOf(reply)) {
      const coolDown = parseCoolDown(text);
      if (coolDown !== null && coolDown.until > now) this.target.coolUntil(route, coolDown.until, coolDown.reason);
    }
  }
}

/** HGETALL's reply: a flat array under RESP2, an object under RESP3. */
function entriesOf(reply: unknown): Array<[string, string]> {
  if (Array.isArray(reply)) {
    const out: Array<[string, string]> = [];
    for (let i = 0; i + 1 < reply.length; i += 2) out.push([String(reply[i]), String(reply[i + 1])]);
    return out;
  }
  if (reply !== null && typeof reply === 'object') return Object.entries(reply as Record<string, unknown>).map(([k, v]) => [k, String(v)]);
  return [];
}
