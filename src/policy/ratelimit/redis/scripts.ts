// The server-side scripts: each acquire is one atomic script, one round trip, and carries the settles
// that waited for it (pending-settles.ts); settles no acquire picked up go as one script per key.
// KEYS[1] is the key's entry and KEYS[2] its customer's; both carry the customer's hash tag so
// they live in one slot (required by Redis Cluster for a multi-key script).
import { luaScript } from '../../../stores/redis/lua-script.js';
import { BUCKET_LUA } from './bucket-lua.js';
import { SETTLE_ARGS } from './pending-settles.js';
import { MIN_LEASE_REQUESTS } from './lease.js';

/**
 * Settles as both scripts take them, from ARGV[from]: their count, then SETTLE_ARGS values each
 * (used, keyTokens, customerTokens, keyRpm, keyTpm, customerRpm, customerTpm; the limits the
 * reservation was made under). Each one on its own, as MemoryRateLimiter.settle does it.
 */
const SETTLES_LUA = `
local function adjust(entryKey, delta, rpm, tpm, now)
  if tpm == nil or delta == 0 then return end
  -- A missing entry is full: giving tokens back changes nothing, a debt needs an entry. An
  -- existing entry is used as it is (not resized): the limits may have been edited since.
  local e = entryOf(entryKey)
  if not exists(e) then
    if delta < 0 then return end
    entryFor(entryKey, rpm, tpm, now)
  end
  if e.tokens == nil then return end
  take(e.tokens, delta, now)
  e.changed = true
end

local function applySettles(from, now)
  local count = tonumber(ARGV[from])
  for i = 0, count - 1 do
    local at = from + 1 + i * ${SETTLE_ARGS}
    local used = tonumber(ARGV[at])
    adjust(KEYS[1], used - tonumber(ARGV[at + 1]), limitOf(ARGV[at + 3]), limitOf(ARGV[at + 4]), now)
    adjust(KEYS[2], used - tonumber(ARGV[at + 2]), limitOf(ARGV[at + 5]), limitOf(ARGV[at + 6]), now)
  end
end
`;

/** Values per acquire in the acquire script's arguments and in its reply. */
export const ACQUIRE_ARGS = 5;
export const ACQUIRE_REPLY = 11;
/** Values of a lease given back in the acquire script's arguments (GIVE_BACK_LUA). */
export const GIVE_BACK_ARGS = 9;
/** The acquire script's arguments before the acquires: pinnedNow, count, then the lease asked for and the one given back. */
export const ACQUIRE_HEAD = 2 + 3 + GIVE_BACK_ARGS;
/** Appended to the acquire script's reply: the lease granted (requests), its generation and the windows after it. */
export const LEASE_REPLY = 8;

/**
 * A lease given back (lease.ts): it holds nothing any more, and what it did not use returns to the buckets.
 * ARGV from `from`, GIVE_BACK_ARGS values: its generation ('' = no lease), the requests and tokens granted,
 * the requests and tokens returned, then the limits it was taken under (keyRpm, keyTpm, customerRpm,
 * customerTpm); only the buckets limited then are touched. A missing entry is full: nothing to give.
 */
const GIVE_BACK_LUA = `
local function giveBack(entryKey, gen, granted, grantedTokens, requests, tokens, rpm, tpm, now)
  if rpm == nil and tpm == nil then return end
  local e = entryOf(entryKey)
  if not exists(e) then return end
  releaseGrant(e, gen, granted, grantedTokens, now)
  if rpm ~= nil and requests > 0 and e.requests ~= nil then take(e.requests, -requests, now) end
  if tpm ~= nil and tokens > 0 and e.tokens ~= nil then take(e.tokens, -tokens, now) end
end

local function applyGiveBack(from, now)
  if ARGV[from] == '' then return end
  local gen = tonumber(ARGV[from])
  local granted, grantedTokens = tonumber(ARGV[from + 1]), tonumber(ARGV[from + 2])
  local requests, tokens = tonumber(ARGV[from + 3]), tonumber(ARGV[from + 4])
  giveBack(KEYS[1], gen, granted, grantedTokens, requests, tokens, limitOf(ARGV[from + 5]), limitOf(ARGV[from + 6]), now)
  giveBack(KEYS[2], gen, granted, grantedTokens, requests, tokens, limitOf(ARGV[from + 7]), limitOf(ARGV[from + 8]), now)
end
`;

/**
 * A batch of acquires of one key and customer, decided one after the other in this order, atomically.
 * ARGV (ACQUIRE_HEAD values first): pinnedNow ('' = server TIME), the count N, the lease asked for (requests
 * wanted, the tokens of each, the divisor: LEASE_DIVISOR times the live instances), the lease given back
 * (GIVE_BACK_LUA: GIVE_BACK_ARGS values, the first '' when none), then ACQUIRE_ARGS per acquire (tokens,
 * keyRpm, keyTpm, customerRpm, customerTpm; '' = none), then the settles of this key and customer that waited
 * (SETTLES_LUA; '0' when none). The lease given back and the settles are applied first, as if each had
 * been sent alone just before.
 * Returns ACQUIRE_REPLY values per acquire, in order: [allowed '1'|'0', scope, retryAfterMs, keyTokens,
 * customerTokens, reqLimit, reqRemaining, reqResetMs, tokLimit, tokRemaining, tokResetMs] ('' = no window),
 * then LEASE_REPLY values: the requests leased (each with the tokens asked; '0': none), the lease's
 * generation (what giving it back names) and the six window values as the lease left them. A lease is
 * granted only when the last acquire was allowed, holds at most the level of each limited bucket over the
 * divisor, and at least MIN_LEASE_REQUESTS (else none).
 */
export const ACQUIRE_SCRIPT = luaScript(`${BUCKET_LUA}${SETTLES_LUA}${GIVE_BACK_LUA}
local now = clock(ARGV[1])
local count = tonumber(ARGV[2])
applyGiveBack(6, now)
applySettles(${ACQUIRE_HEAD + 1} + count * ${ACQUIRE_ARGS}, now)

-- A reservation larger than the whole bucket could never pass; it reserves the bucket instead.
local function clampTo(e, tokens)
  if e == nil or e.tokens == nil then return 0 end
  return math.min(tokens, e.tokens.cap)
end

local function waitFor(e, amount)
  if e == nil then return 0 end
  local requestWait, tokenWait = 0, 0
  if e.requests ~= nil then requestWait = msUntil(e.requests, 1, now) end
  if e.tokens ~= nil then tokenWait = msUntil(e.tokens, amount, now) end
  return math.max(requestWait, tokenWait)
end

local function windowOf(b)
  if b == nil then return nil end
  return { b.cap, math.max(0, math.floor(available(b, now))), msUntil(b, b.cap, now) }
end

local function tighter(a, b)
  if a == nil then return b end
  if b == nil then return a end
  if b[2] < a[2] then return b end
  return a
end

local function dimension(e, name)
  if e == nil then return nil end
  return e[name]
end

local function status(out, key, customer)
  local windows = {
    tighter(windowOf(dimension(key, 'requests')), windowOf(dimension(customer, 'requests'))),
    tighter(windowOf(dimension(key, 'tokens')), windowOf(dimension(customer, 'tokens'))),
  }
  for i = 1, 2 do
    local w = windows[i]
    if w == nil then
      table.insert(out, ''); table.insert(out, ''); table.insert(out, '')
    else
      table.insert(out, whole(w[1])); table.insert(out, whole(w[2])); table.insert(out, whole(w[3]))
    end
  end
end

-- The entries and outcome of the batch's last acquire: what a lease is taken from, and when.
local lastKey, lastCustomer, lastAllowed = nil, nil, false

local function acquire(at, out)
  local tokens = tonumber(ARGV[at])
  local keyRpm, keyTpm = limitOf(ARGV[at + 1]), limitOf(ARGV[at + 2])
  local custRpm, custTpm = limitOf(ARGV[at + 3]), limitOf(ARGV[at + 4])
  local key = nil
  if keyRpm ~= nil or keyTpm ~= nil then key = entryFor(KEYS[1], keyRpm, keyTpm, now) end
  local customer = nil
  if custRpm ~= nil or custTpm ~= nil then customer = entryFor(KEYS[2], custRpm, custTpm, now) end
  local keyTokens, customerTokens = clampTo(key, tokens), clampTo(customer, tokens)
  local keyWait, customerWait = waitFor(key, keyTokens), waitFor(customer, customerTokens)
  if keyWait > 0 or customerWait > 0 then
    local scope = 'customer'
    if keyWait >= customerWait then scope = 'key' end
    table.insert(out, '0'); table.insert(out, scope); table.insert(out, whole(math.max(keyWait, customerWait)))
    table.insert(out, '0'); table.insert(out, '0')
  else
    for _, e in ipairs({ { key, keyTokens }, { customer, customerTokens } }) do
      local entry, amount = e[1], e[2]
      if entry ~= nil then
        if entry.requests ~= nil then take(entry.requests, 1, now) end
        if entry.tokens ~= nil then take(entry.tokens, amount, now) end
      end
    end
    table.insert(out, '1'); table.insert(out, ''); table.insert(out, '0')
    table.insert(out, whole(keyTokens)); table.insert(out, whole(customerTokens))
  end
  status(out, key, customer)
  lastKey, lastCustomer, lastAllowed = key, customer, keyWait <= 0 and customerWait <= 0
  -- A refused request still keeps its entries (created full, or resized), as the in-process limiter does.
  if key ~= nil then key.changed = true end
  if customer ~= nil then customer.changed = true end
end

local out = {}
for i = 0, count - 1 do acquire(${ACQUIRE_HEAD + 1} + i * ${ACQUIRE_ARGS}, out) end

-- How many leased requests of 'each' tokens an entry's limited buckets allow: a share of their level.
local function room(e, n, each, divisor)
  if e == nil then return n end
  if e.requests ~= nil then n = math.min(n, math.floor(available(e.requests, now) / divisor)) end
  if e.tokens ~= nil and each > 0 then n = math.min(n, math.floor(available(e.tokens, now) / (each * divisor))) end
  return n
end

local function hold(e, n, each)
  if e == nil then return end
  if e.requests ~= nil then take(e.requests, n, now) end
  if e.tokens ~= nil then take(e.tokens, n * each, now) end
  recordGrant(e, n, n * each, now)
end

local leased = 0
local want, each, divisor = tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
if lastAllowed and want > 0 then
  leased = room(lastCustomer, room(lastKey, want, each, divisor), each, divisor)
  if leased >= ${MIN_LEASE_REQUESTS} then
    hold(lastKey, leased, each)
    hold(lastCustomer, leased, each)
  else
    leased = 0
  end
end
table.insert(out, whole(leased))
table.insert(out, whole(generationOf(now)))
status(out, lastKey, lastCustomer)
saveChanged(now)
return out
`);

/**
 * ARGV: pinnedNow, then the settles of one key and customer (see SETTLES_LUA). Gives back what each
 * reservation did not use, or records a debt where more was used, in the order they were made.
 */
export const SETTLE_SCRIPT = luaScript(`${BUCKET_LUA}${SETTLES_LUA}
local now = clock(ARGV[1])
applySettles(2, now)
saveChanged(now)
return 1
`);
