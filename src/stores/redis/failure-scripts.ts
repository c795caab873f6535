// The server-side scripts of the fleet-wide failure throttles: each records a failure (or an attempt
// that counts as one until it succeeds) and answers whether the subject must now wait, in one atomic
// round trip. Times are the Redis server's clock, so instances need not agree on the time.
import { luaScript, type LuaScript } from './lua-script.js';

const SERVER_NOW = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
`;

/**
 * A failed gateway-key authentication from one address: the same token bucket as the in-process throttle
 * (capacity tokens, refilled at capacity per period; a failure takes one when there is one).
 * KEYS[1]: the address's bucket. ARGV: capacity, periodMs. Returns the milliseconds the address must wait.
 */
export const AUTH_FAILURE_SCRIPT: LuaScript = luaScript(`${SERVER_NOW}
local cap, period = tonumber(ARGV[1]), tonumber(ARGV[2])
local saved = redis.call('HMGET', KEYS[1], 'level', 'at')
local level, at = tonumber(saved[1]), tonumber(saved[2])
if level == nil or at == nil then level, at = cap, now end
level = math.min(cap, level + math.max(0, now - at) * cap / period)
if level >= 1 then level = level - 1 end
redis.call('HSET', KEYS[1], 'level', tostring(level), 'at', tostring(now))
-- Gone once it would be full again: a missing bucket is a full one.
redis.call('PEXPIRE', KEYS[1], math.max(1, math.ceil((cap - level) * period / cap)))
if level >= 1 then return 0 end
return math.ceil((1 - level) * period / cap)
`);

/**
 * Starts a sign-in attempt under the sign-in rules (src/admin/auth/throttle.ts, here over the fleet):
 * refused while the (account, address) pair or the address is at its limit, or while the account's delay
 * holds for a pair that has failed; otherwise the attempt is counted, under ARGV[1], in all three.
 * KEYS: the pair's, the address's and the account's sorted sets of attempt times.
 * ARGV: attemptId, pairMax, pairWindowMs, addressMax, addressWindowMs,
 *       accountAfter, accountBaseMs, accountMaxMs, accountWindowMs, accountKeep.
 * Returns 0 when the attempt may go ahead, else the milliseconds until one may.
 */
export const SIGN_IN_BEGIN_SCRIPT: LuaScript = luaScript(`${SERVER_NOW}
local id = ARGV[1]
local pairMax, pairWindow = tonumber(ARGV[2]), tonumber(ARGV[3])
local addressMax, addressWindow = tonumber(ARGV[4]), tonumber(ARGV[5])
local after, baseMs, maxMs = tonumber(ARGV[6]), tonumber(ARGV[7]), tonumber(ARGV[8])
local accountWindow, accountKeep = tonumber(ARGV[9]), tonumber(ARGV[10])

local function recent(key, window)
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
  return redis.call('ZCARD', key)
end

local function scoreAt(key, rank)
  return tonumber(redis.call('ZRANGE', key, rank, rank, 'WITHSCORES')[2])
end

-- 0 below the limit, else the time until the oldest counted attempt leaves the window.
local function limitWait(key, count, max, window)
  if count < max then return 0 end
  return scoreAt(key, count - max) + window - now
end

local pairCount = recent(KEYS[1], pairWindow)
local addressCount = recent(KEYS[2], addressWindow)
local accountCount = recent(KEYS[3], accountWindow)
local wait = math.max(limitWait(KEYS[1], pairCount, pairMax, pairWindow), limitWait(KEYS[2], addressCount, addressMax, addressWindow))
-- An address that has not failed on the account never waits for the others' failures there.
if pairCount > 0 and accountCount >= after then
  local delay = math.min(maxMs, baseMs * 2 ^ (accountCount - after))
  wait = math.max(wait, scoreAt(KEYS[1], -1) + delay - now)
end
if wait > 0 then return math.ceil(wait) end

local function add(key, window, keep)
  redis.call('ZADD', key, now, id)
  -- Only the newest \`keep\` times matter for any answer.
  redis.call('ZREMRANGEBYRANK', key, 0, -(keep + 1))
  redis.call('PEXPIRE', key, window)
end
add(KEYS[1], pairWindow, pairMax)
add(KEYS[2], addressWindow, addressMax)
add(KEYS[3], accountWindow, accountKeep)
return 0
`);

/**
 * A sign-in attempt succeeded: the pair's failures are forgiven, and this attempt on the address and the
 * account, not the others' failures there. KEYS: as for the begin script. ARGV: attemptId.
 */
export const SIGN_IN_SUCCEEDED_SCRIPT: LuaScript = luaScript(`
redis.call('DEL', KEYS[1])
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('ZREM', KEYS[3], ARGV[1])
return 1
`);
