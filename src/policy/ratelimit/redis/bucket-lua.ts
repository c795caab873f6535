// The token bucket of token-bucket.ts written again in Lua, so a script running inside Redis does
// the very same floating-point operations in the same order as the in-process limiter. Shared by
// the acquire and settle scripts; a property test compares both implementations step by step.
//
// An entry (one Redis hash per key or per customer) holds up to two buckets: requests (fields
// rc, rl, ru: capacity, level, updated-at) and tokens (tc, tl, tu). Numbers are stored with 17
// significant digits so a level survives the round trip through a string bit for bit.
//
// While instances hold leases of an entry (lease.ts), it also records what they hold (fields hg, r0, r1,
// t0, t1: a lease generation and the requests and tokens granted in it and in the one before), and a
// bucket refills only up to its capacity less what is held: what the fleet can accept never exceeds
// what one bucket alone would. A lease is used within one generation's length of its grant, so a
// generation's grants stop counting two generations on, given back or not (an instance that died).
// Without leases these fields do not exist and the arithmetic is the in-process one, operation for
// operation.
import { RATE_WINDOW_MS } from '../memory-limiter.js';
import { LEASE_TTL_MS } from './lease.js';

export const BUCKET_LUA = String.raw`
local WINDOW_MS = ${RATE_WINDOW_MS}
local GENERATION_MS = ${LEASE_TTL_MS}

local function fmt(x)
  return string.format('%.17g', x)
end

-- The same text as fmt for a whole number below 1e15 (limits, counts, waits, capacities), at about
-- half the cost: a script formats a dozen of them per request.
local function whole(x)
  if x == math.floor(x) and x > -1e15 and x < 1e15 then return string.format('%d', x) end
  return fmt(x)
end

-- The bucket clock: the server's, in milliseconds; a test may pin it with an explicit value.
local function clock(pinned)
  if pinned ~= nil and pinned ~= '' then return tonumber(pinned) end
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
end

-- '' stands for "no limit on this dimension".
local function limitOf(arg)
  if arg == nil or arg == '' then return nil end
  return tonumber(arg)
end

local function newBucket(cap, now)
  return { cap = cap, level = cap, at = now, perMs = cap / WINDOW_MS }
end

-- Refills up to 'to' with the bucket's ceiling 'top'.
local function fill(b, to, top)
  local elapsed = to - b.at
  if elapsed <= 0 then return end
  b.at = to
  if b.level < top then b.level = math.min(top, b.level + elapsed * b.perMs) end
end

-- b.hold: while leases are held, the steps of what they hold, { until (ms), amount } in time order.
local function heldAt(b, t)
  if b.hold == nil then return 0 end
  for _, step in ipairs(b.hold) do
    if t < step[1] then return step[2] end
  end
  return 0
end

local function refill(b, now)
  if b.hold ~= nil then
    for _, step in ipairs(b.hold) do
      if b.at < step[1] then fill(b, math.min(now, step[1]), b.cap - step[2]) end
    end
  end
  fill(b, now, b.cap)
end

local function resize(b, cap, now)
  if cap == b.cap then return end
  refill(b, now)
  b.cap = cap
  b.perMs = cap / WINDOW_MS
  if b.level > cap then b.level = cap end
end

local function available(b, now)
  refill(b, now)
  return b.level
end

local function msUntil(b, amount, now)
  local missing = amount - available(b, now)
  if missing <= 0 then return 0 end
  return math.ceil(missing / b.perMs)
end

local function take(b, amount, now)
  refill(b, now)
  b.level = math.min(b.cap - heldAt(b, now), b.level - amount)
end

local function fit(b, limit, now)
  if limit == nil then return nil end
  if b == nil then return newBucket(limit, now) end
  resize(b, limit, now)
  return b
end

local function decode(cap, level, at)
  if not cap then return nil end
  local c = tonumber(cap)
  return { cap = c, level = tonumber(level), at = tonumber(at), perMs = c / WINDOW_MS }
end

local function generationOf(t)
  return math.floor(t / GENERATION_MS)
end

-- What x0 (granted in generation g) and x1 (in g - 1) hold over time, as refill and take read it.
local function holdSteps(g, x0, x1)
  local out = {}
  if x0 + x1 > 0 then table.insert(out, { (g + 1) * GENERATION_MS, x0 + x1 }) end
  if x0 > 0 then table.insert(out, { (g + 2) * GENERATION_MS, x0 }) end
  if #out == 0 then return nil end
  return out
end

local function applyHold(e)
  local h = e.held
  if h == nil then return end
  if e.requests ~= nil then e.requests.hold = holdSteps(h.g, h.r0, h.r1) end
  if e.tokens ~= nil then e.tokens.hold = holdSteps(h.g, h.t0, h.t1) end
end

-- The entry's lease record moved to the generation of 'now' (grants two generations old are over).
-- Its buckets must be refilled to 'now' first: the steps before 'now' are the old record's.
local function heldNow(e, now)
  local g = generationOf(now)
  local h = e.held
  if h == nil or h.g < g - 1 or h.g > g then
    h = { g = g, r0 = 0, r1 = 0, t0 = 0, t1 = 0 }
  elseif h.g == g - 1 then
    h = { g = g, r0 = 0, r1 = h.r0, t0 = 0, t1 = h.t0 }
  end
  e.held = h
  return h
end

-- A lease granted now of these buckets (already taken from them).
local function recordGrant(e, requests, tokens, now)
  local h = heldNow(e, now)
  if e.requests ~= nil then h.r0 = h.r0 + requests end
  if e.tokens ~= nil then h.t0 = h.t0 + tokens end
  applyHold(e)
  e.changed = true
end

-- A lease of generation 'gen' given back or over: it holds nothing any more.
local function releaseGrant(e, gen, requests, tokens, now)
  if e.held == nil then return end
  if e.requests ~= nil then refill(e.requests, now) end
  if e.tokens ~= nil then refill(e.tokens, now) end
  local h = heldNow(e, now)
  if gen == h.g then
    h.r0, h.t0 = math.max(0, h.r0 - requests), math.max(0, h.t0 - tokens)
  elseif gen == h.g - 1 then
    h.r1, h.t1 = math.max(0, h.r1 - requests), math.max(0, h.t1 - tokens)
  end
  applyHold(e)
  e.changed = true
end

-- stored: which buckets (and lease record) the hash holds now, so saving deletes only fields that are there.
local function loadEntry(key)
  local v = redis.call('HMGET', key, 'rc', 'rl', 'ru', 'tc', 'tl', 'tu', 'hg', 'r0', 'r1', 't0', 't1')
  local requests, tokens = decode(v[1], v[2], v[3]), decode(v[4], v[5], v[6])
  local e = { requests = requests, tokens = tokens, stored = { r = requests ~= nil, t = tokens ~= nil, h = false } }
  if v[7] then
    e.stored.h = true
    e.held = { g = tonumber(v[7]), r0 = tonumber(v[8]), r1 = tonumber(v[9]), t0 = tonumber(v[10]), t1 = tonumber(v[11]) }
    applyHold(e)
  end
  return e
end

-- A script reads each entry from Redis once and writes back the ones it changed once, at its end
-- (saveChanged): the settles an acquire carries and the acquire itself work on the same tables, which
-- is the same as writing and reading them again in between (levels survive the string round trip).
local loaded, loadOrder = {}, {}

local function entryOf(key)
  local e = loaded[key]
  if e == nil then
    e = loadEntry(key)
    e.changed = false
    loaded[key] = e
    table.insert(loadOrder, key)
  end
  return e
end

-- An entry is in Redis exactly when it holds a bucket (saving one without any deletes the hash).
local function exists(e)
  return e.requests ~= nil or e.tokens ~= nil
end

-- The entry, created or brought in step with the limits of this request (keys can be edited).
local function entryFor(key, rpm, tpm, now)
  local e = entryOf(key)
  e.requests = fit(e.requests, rpm, now)
  e.tokens = fit(e.tokens, tpm, now)
  return e
end

local function msUntilFullFrom(b)
  if b == nil or b.cap <= 0 then return 0 end
  return math.max(0, (b.cap - b.level) / b.perMs)
end

-- Writes the entry back. It expires one window after it would be full again: a full bucket is
-- the same as a missing one, so idle keys cost no memory (the in-process limiter's sweep).
local function saveEntry(key, e, now)
  local fields = {}
  local gone = {}
  local function put(prefix, b)
    if b == nil then
      if e.stored[prefix] then
        table.insert(gone, prefix .. 'c'); table.insert(gone, prefix .. 'l'); table.insert(gone, prefix .. 'u')
      end
    else
      table.insert(fields, prefix .. 'c'); table.insert(fields, whole(b.cap))
      table.insert(fields, prefix .. 'l'); table.insert(fields, fmt(b.level))
      table.insert(fields, prefix .. 'u'); table.insert(fields, fmt(b.at))
    end
  end
  put('r', e.requests)
  put('t', e.tokens)
  local h = e.held
  if h ~= nil and exists(e) and generationOf(now) < h.g + 2 and h.r0 + h.r1 + h.t0 + h.t1 > 0 then
    table.insert(fields, 'hg'); table.insert(fields, whole(h.g))
    table.insert(fields, 'r0'); table.insert(fields, fmt(h.r0)); table.insert(fields, 'r1'); table.insert(fields, fmt(h.r1))
    table.insert(fields, 't0'); table.insert(fields, fmt(h.t0)); table.insert(fields, 't1'); table.insert(fields, fmt(h.t1))
  elseif e.stored.h then
    table.insert(gone, 'hg'); table.insert(gone, 'r0'); table.insert(gone, 'r1'); table.insert(gone, 't0'); table.insert(gone, 't1')
  end
  if #gone > 0 then redis.call('HDEL', key, unpack(gone)) end
  if #fields > 0 then
    redis.call('HSET', key, unpack(fields))
    local ttl = math.max(msUntilFullFrom(e.requests), msUntilFullFrom(e.tokens))
    redis.call('PEXPIRE', key, math.ceil(ttl) + WINDOW_MS)
  end
end

local function saveChanged(now)
  for _, key in ipairs(loadOrder) do
    local e = loaded[key]
    if e.changed then saveEntry(key, e, now) end
  end
end
`;
