// The budget counters' server-side scripts: one atomic script per reserve and per settle, one round
// trip each. Every KEY of one call carries the customer's hash tag, so the script may touch them all on
// Redis Cluster too. Counters are integer nano-dollars (INCRBY); they stay below 2^53, so Lua's doubles
// compare them exactly.
import { luaScript, type LuaScript } from '../../../stores/redis/lua-script.js';

/**
 * KEYS: the counters of the request's budgets (key first, then customer), then each counter's in-flight
 * set (a sorted set of hold ids scored by the hold's end, ms), then each counter's leases (a hash:
 * instance id -> nano-dollars), then each counter's lease ends (a sorted set: instance id scored by the
 * lease's end, ms), each group in the same order.
 * ARGV[1]: the hold (cushioned maximum); ARGV[2]: the base (uncushioned maximum); ARGV[3]: the hold id;
 * ARGV[4]: now (ms); ARGV[5]: the hold's end (ms): a hold of an instance that died before settling stops
 * counting as in flight then; ARGV[6]: the deciding instance's id; ARGV[7]: its lease's end (ms);
 * ARGV[8]: the lease divisor (a lease is what is free divided by it; '0': take none). Then per counter
 * i three values: limit ('' = soft: never refuses), expireAtMs ('' = never), seed ('' = not read yet).
 * Replies {'seed'} when a counter is missing and no seed was given (nothing changed); otherwise
 * {allowed '1'|'0', refusedBy index from 0 or '-1', spentBefore per counter..., lease per counter...}.
 *
 * A counter holds everything spent, every hold in flight and every lease: a lease is a slice of a hard
 * budget that one instance may spend alone should Redis stop answering it (fallback-budget-ledger.ts),
 * so no other instance can spend it meanwhile. The deciding instance spends its own lease first and
 * tops it up to what is free divided by the divisor. A lease not renewed by its end (its instance died)
 * goes back to what is free. spentBefore leaves every lease out (it is what was spent and held); the
 * admission rule is admits' (budget-ledger.ts) with this instance's own lease counted as free.
 */
export const BUDGET_RESERVE_SCRIPT: LuaScript = luaScript(`
local n = #KEYS / 4
local cost = tonumber(ARGV[1])
local base = tonumber(ARGV[2])
local me = ARGV[6]
local divisor = tonumber(ARGV[8])
local spent = {}
for i = 1, n do
  spent[i] = redis.call('GET', KEYS[i])
  if not spent[i] and ARGV[(i - 1) * 3 + 11] == '' then return { 'seed' } end
end
local mine = {}
local leased = {}
for i = 1, n do
  local expireAt = ARGV[(i - 1) * 3 + 10]
  if not spent[i] then
    -- First use in this period (or after a flush): what the usage store says was spent.
    redis.call('SET', KEYS[i], ARGV[(i - 1) * 3 + 11])
    if expireAt ~= '' then redis.call('PEXPIREAT', KEYS[i], expireAt) end
  end
  -- Leases of instances that stopped renewing them go back to what is free.
  local ended = redis.call('ZRANGEBYSCORE', KEYS[3 * n + i], '-inf', ARGV[4])
  for _, id in ipairs(ended) do
    local l = redis.call('HGET', KEYS[2 * n + i], id)
    if l then
      redis.call('DECRBY', KEYS[i], l)
      redis.call('HDEL', KEYS[2 * n + i], id)
    end
    redis.call('ZREM', KEYS[3 * n + i], id)
  end
  spent[i] = tonumber(redis.call('GET', KEYS[i]))
  mine[i] = tonumber(redis.call('HGET', KEYS[2 * n + i], me) or '0')
  leased[i] = 0
  for _, l in ipairs(redis.call('HVALS', KEYS[2 * n + i])) do leased[i] = leased[i] + tonumber(l) end
end
local out = { '1', '-1' }
for i = 1, n do
  local limit = ARGV[(i - 1) * 3 + 9]
  if limit ~= '' then
    local s = spent[i] - mine[i]
    limit = tonumber(limit)
    if s + cost > limit then
      redis.call('ZREMRANGEBYSCORE', KEYS[n + i], '-inf', ARGV[4])
      if redis.call('ZCARD', KEYS[n + i]) > 0 or s + base > limit then
        out[1] = '0'
        out[2] = tostring(i - 1)
        break
      end
    end
  end
end
for i = 1, n do
  table.insert(out, string.format('%d', spent[i] - leased[i]))
end
for i = 1, n do
  local limit = ARGV[(i - 1) * 3 + 9]
  if out[1] == '1' then
    local fromLease = math.min(mine[i], cost)
    mine[i] = mine[i] - fromLease
    spent[i] = spent[i] + cost - fromLease
    redis.call('INCRBY', KEYS[i], string.format('%d', cost - fromLease))
    redis.call('ZADD', KEYS[n + i], ARGV[5], ARGV[3])
    redis.call('PEXPIREAT', KEYS[n + i], ARGV[5])
  end
  if limit ~= '' and divisor > 0 then
    local target = math.floor((tonumber(limit) - (spent[i] - mine[i])) / divisor)
    if target > mine[i] then
      redis.call('INCRBY', KEYS[i], string.format('%d', target - mine[i]))
      mine[i] = target
    end
  end
  if mine[i] > 0 then
    redis.call('HSET', KEYS[2 * n + i], me, string.format('%d', mine[i]))
    redis.call('ZADD', KEYS[3 * n + i], ARGV[7], me)
    local expireAt = ARGV[(i - 1) * 3 + 10]
    if expireAt ~= '' then
      redis.call('PEXPIREAT', KEYS[2 * n + i], expireAt)
      redis.call('PEXPIREAT', KEYS[3 * n + i], expireAt)
    end
  else
    redis.call('HDEL', KEYS[2 * n + i], me)
    redis.call('ZREM', KEYS[3 * n + i], me)
  end
  table.insert(out, string.format('%d', mine[i]))
end
return out
`);

/**
 * KEYS: the counters a reservation was made in, then their in-flight sets.
 * ARGV[1]: real cost minus reserved (may be negative); ARGV[2]: the hold id.
 * A counter gone (flushed, expired) is left alone: it is seeded again from the usage store, which has the row.
 */
export const BUDGET_SETTLE_SCRIPT: LuaScript = luaScript(`
local n = #KEYS / 2
for i = 1, n do
  if ARGV[1] ~= '0' and redis.call('EXISTS', KEYS[i]) == 1 then redis.call('INCRBY', KEYS[i], ARGV[1]) end
  redis.call('ZREM', KEYS[n + i], ARGV[2])
end
return 1
`);

/**
 * The hand-over of what one instance counted while Redis did not answer (fallback-budget-ledger.ts).
 * KEYS[1]: the counter; KEYS[2]: its leases. ARGV[1]: the counter's growth there since the last
 * hand-over; ARGV[2]: all the instance counted there (its seed included); ARGV[3]: expireAtMs ('' =
 * never); ARGV[4]: the instance's id. Replies the instance's lease after.
 * A counter Redis has already holds the instance's lease: growth is taken from the lease first (the
 * instance spent it alone), the rest added; a negative growth (settles below their holds) goes back to
 * what is free. A counter Redis does not have (first used during the outage, or flushed) starts from the
 * instance's whole count: seeded from the usage store instead, it would miss the holds still in flight
 * and the rows still in write buffers, and the fleet would spend them again. Spend of other instances
 * that both include is then counted twice: the error is on the side of refusing early.
 */
export const BUDGET_HAND_OVER_SCRIPT: LuaScript = luaScript(`
local grew = tonumber(ARGV[1])
if redis.call('EXISTS', KEYS[1]) == 1 then
  local mine = tonumber(redis.call('HGET', KEYS[2], ARGV[4]) or '0')
  if grew > 0 then
    local fromLease = math.min(mine, grew)
    mine = mine - fromLease
    grew = grew - fromLease
    if mine > 0 then redis.call('HSET', KEYS[2], ARGV[4], string.format('%d', mine)) else redis.call('HDEL', KEYS[2], ARGV[4]) end
  end
  if grew ~= 0 then redis.call('INCRBY', KEYS[1], string.format('%d', grew)) end
  return mine
end
redis.call('HDEL', KEYS[2], ARGV[4])
redis.call('SET', KEYS[1], ARGV[2])
if ARGV[3] ~= '' then redis.call('PEXPIREAT', KEYS[1], ARGV[3]) end
return 0
`);

/**
 * An instance gives its lease back (a graceful stop): what is free again for the others.
 * KEYS[1]: the counter; KEYS[2]: its leases; KEYS[3]: their ends. ARGV[1]: the instance's id.
 */
export const BUDGET_RELEASE_LEASE_SCRIPT: LuaScript = luaScript(`
local mine = redis.call('HGET', KEYS[2], ARGV[1])
if mine and redis.call('EXISTS', KEYS[1]) == 1 then redis.call('DECRBY', KEYS[1], mine) end
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('ZREM', KEYS[3], ARGV[1])
return 1
`);

/**
 * A hold whose reservation this instance gave up waiting for (the call passed its deadline, and the
 * request was decided here instead), in case the script ran after all: it must not count as in flight
 * for 15 minutes (nothing would be admitted alone meanwhile) nor as spent.
 * KEYS: the counters, then their in-flight sets, leases and lease ends, as BUDGET_RESERVE_SCRIPT's.
 * ARGV[1]: the hold id; ARGV[2]: the instance's id; ARGV[3]: the hold (nano-dollars); ARGV[4]: a lease
 * end (ms); then per counter '1' for a hard budget or '0', then per counter its expireAtMs ('' = never).
 * Where the hold is found, on a hard budget it becomes part of the instance's lease (the counter keeps
 * it): the script may have taken part of the hold from that lease, which this instance, unaware, may
 * have spent alone meanwhile, so the lease is made whole, never short. On a soft budget it leaves the
 * counter.
 */
export const BUDGET_RECLAIM_SCRIPT: LuaScript = luaScript(`
local n = #KEYS / 4
for i = 1, n do
  if redis.call('ZREM', KEYS[n + i], ARGV[1]) == 1 then
    if ARGV[4 + i] == '1' then
      redis.call('HINCRBY', KEYS[2 * n + i], ARGV[2], ARGV[3])
      redis.call('ZADD', KEYS[3 * n + i], 'GT', ARGV[4], ARGV[2])
      local expireAt = ARGV[4 + n + i]
      if expireAt ~= '' then
        redis.call('PEXPIREAT', KEYS[2 * n + i], expireAt)
        redis.call('PEXPIREAT', KEYS[3 * n + i], expireAt)
      end
    elseif redis.call('EXISTS', KEYS[i]) == 1 then
      redis.call('DECRBY', KEYS[i], ARGV[3])
    end
  end
end
return 1
`);
