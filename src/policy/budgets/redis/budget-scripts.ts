// The budget counters' server-side scripts: one atomic script per reserve and per settle, one round
// trip each. Every KEY of one call carries the customer's hash tag, so the script may touch them all on
// Redis Cluster too. Counters are integer nano-dollars (INCRBY); they stay below 2^53, so Lua's doubles
// compare them exactly.
import { luaScript, type LuaScript } from '../../../stores/redis/lua-script.js';

/**
 * KEYS: the counters of the request's budgets (key first, then customer), then each counter's in-flight
 * set (a sorted set of hold ids scored by the hold's lease end, ms), in the same order.
 * ARGV[1]: the hold (cushioned maximum); ARGV[2]: the base (uncushioned maximum); ARGV[3]: the hold id;
 * ARGV[4]: now (ms); ARGV[5]: the lease end (ms): a hold of an instance that died before settling stops
 * counting as in flight then. Then per counter i three values: limit ('' = soft: never refuses),
 * expireAtMs ('' = never), seed ('' = not read yet).
 * Replies {'seed'} when a counter is missing and no seed was given (nothing changed); otherwise
 * {allowed '1'|'0', refusedBy index from 0 or '-1', spentBefore per counter...}. The rule is admits'
 * (budget-ledger.ts): a hard budget admits while the hold fits, else only alone and if the base fits.
 */
export const BUDGET_RESERVE_SCRIPT: LuaScript = luaScript(`
local n = #KEYS / 2
local cost = tonumber(ARGV[1])
local base = tonumber(ARGV[2])
local spent = {}
for i = 1, n do
  spent[i] = redis.call('GET', KEYS[i])
  if not spent[i] and ARGV[(i - 1) * 3 + 8] == '' then return { 'seed' } end
end
for i = 1, n do
  if not spent[i] then
    -- First use in this period (or after a flush): what the usage store says was spent.
    spent[i] = ARGV[(i - 1) * 3 + 8]
    redis.call('SET', KEYS[i], spent[i])
    local expireAt = ARGV[(i - 1) * 3 + 7]
    if expireAt ~= '' then redis.call('PEXPIREAT', KEYS[i], expireAt) end
  end
end
local out = { '1', '-1' }
for i = 1, n do
  local limit = ARGV[(i - 1) * 3 + 6]
  if limit ~= '' then
    local s = tonumber(spent[i])
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
  table.insert(out, spent[i])
  if out[1] == '1' then
    redis.call('INCRBY', KEYS[i], ARGV[1])
    redis.call('ZADD', KEYS[n + i], ARGV[5], ARGV[3])
    redis.call('PEXPIREAT', KEYS[n + i], ARGV[5])
  end
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
 * KEYS[1]: the counter. ARGV[1]: its growth there since the last hand-over; ARGV[2]: all the instance
 * counted there (its seed included); ARGV[3]: expireAtMs ('' = never).
 * A counter Redis has gets the growth. One it does not have (first used during the outage, or flushed)
 * starts from the instance's whole count: seeded from the usage store instead, it would miss the holds
 * still in flight and the rows still in write buffers, and the fleet would spend them again. Spend of
 * other instances that both include is then counted twice: the error is on the side of refusing early.
 */
export const BUDGET_HAND_OVER_SCRIPT: LuaScript = luaScript(`
if redis.call('EXISTS', KEYS[1]) == 1 then
  if ARGV[1] ~= '0' then redis.call('INCRBY', KEYS[1], ARGV[1]) end
  return 1
end
redis.call('SET', KEYS[1], ARGV[2])
if ARGV[3] ~= '' then redis.call('PEXPIREAT', KEYS[1], ARGV[3]) end
return 1
`);
