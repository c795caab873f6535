// The budget counters' server-side scripts: one atomic script per reserve and per settle, one round
// trip each. Every KEY of one call carries the customer's hash tag, so the script may touch them all on
// Redis Cluster too. Counters are integer nano-dollars (INCRBY); they stay below 2^53, so Lua's doubles
// compare them exactly.
import { luaScript, type LuaScript } from '../../../stores/redis/lua-script.js';

/**
 * KEYS: the counters of the request's budgets (key first, then customer).
 * ARGV[1]: the cost to reserve; then per counter i three values: limit ('' = soft: never refuses),
 * expireAtMs ('' = never), seed ('' = not read yet).
 * Replies {'seed'} when a counter is missing and no seed was given (nothing changed); otherwise
 * {allowed '1'|'0', refusedBy index from 0 or '-1', spentBefore per counter...}. The rule is firstRefusal's
 * (budget-ledger.ts): the first hard budget whose spent + cost passes its limit refuses.
 */
export const BUDGET_RESERVE_SCRIPT: LuaScript = luaScript(`
local cost = tonumber(ARGV[1])
local spent = {}
for i = 1, #KEYS do
  spent[i] = redis.call('GET', KEYS[i])
  if not spent[i] and ARGV[(i - 1) * 3 + 4] == '' then return { 'seed' } end
end
for i = 1, #KEYS do
  if not spent[i] then
    -- First use in this period (or after a flush): what the usage store says was spent.
    spent[i] = ARGV[(i - 1) * 3 + 4]
    redis.call('SET', KEYS[i], spent[i])
    local expireAt = ARGV[(i - 1) * 3 + 3]
    if expireAt ~= '' then redis.call('PEXPIREAT', KEYS[i], expireAt) end
  end
end
local out = { '1', '-1' }
for i = 1, #KEYS do
  local limit = ARGV[(i - 1) * 3 + 2]
  if limit ~= '' and tonumber(spent[i]) + cost > tonumber(limit) then
    out[1] = '0'
    out[2] = tostring(i - 1)
    break
  end
end
for i = 1, #KEYS do
  table.insert(out, spent[i])
  if out[1] == '1' then redis.call('INCRBY', KEYS[i], ARGV[1]) end
end
return out
`);

/**
 * KEYS: the counters a reservation was made in. ARGV[1]: real cost minus reserved (may be negative).
 * A counter gone (flushed, expired) is left alone: it is seeded again from the usage store, which has the row.
 */
export const BUDGET_SETTLE_SCRIPT: LuaScript = luaScript(`
for i = 1, #KEYS do
  if redis.call('EXISTS', KEYS[i]) == 1 then redis.call('INCRBY', KEYS[i], ARGV[1]) end
end
return 1
`);
