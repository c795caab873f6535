// The token bucket of token-bucket.ts written again in Lua, so a script running inside Redis does
// the very same floating-point operations in the same order as the in-process limiter. Shared by
// the acquire and settle scripts; a property test compares both implementations step by step.
//
// An entry (one Redis hash per key or per customer) holds up to two buckets: requests (fields
// rc, rl, ru: capacity, level, updated-at) and tokens (tc, tl, tu). Numbers are stored with 17
// significant digits so a level survives the round trip through a string bit for bit.
export const BUCKET_LUA = String.raw`
local WINDOW_MS = 60000

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

local function refill(b, now)
  local elapsed = now - b.at
  if elapsed <= 0 then return end
  b.at = now
  if b.level < b.cap then b.level = math.min(b.cap, b.level + elapsed * b.perMs) end
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
  b.level = math.min(b.cap, b.level - amount)
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

-- stored: which buckets the hash holds now, so saving deletes only fields that are there.
local function loadEntry(key)
  local v = redis.call('HMGET', key, 'rc', 'rl', 'ru', 'tc', 'tl', 'tu')
  local requests, tokens = decode(v[1], v[2], v[3]), decode(v[4], v[5], v[6])
  return { requests = requests, tokens = tokens, stored = { r = requests ~= nil, t = tokens ~= nil } }
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
local function saveEntry(key, e)
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
  if #gone > 0 then redis.call('HDEL', key, unpack(gone)) end
  if #fields > 0 then
    redis.call('HSET', key, unpack(fields))
    local ttl = math.max(msUntilFullFrom(e.requests), msUntilFullFrom(e.tokens))
    redis.call('PEXPIRE', key, math.ceil(ttl) + WINDOW_MS)
  end
end

local function saveChanged()
  for _, key in ipairs(loadOrder) do
    local e = loaded[key]
    if e.changed then saveEntry(key, e) end
  end
end
`;
