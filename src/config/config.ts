// The only reader of process.env: settings are parsed and validated once, then frozen.
import { availableParallelism } from 'node:os';
import { dirname } from 'node:path';
import { parseDatabaseUrl } from './database-url.js';
import { AddressRanges } from '../lib/net/address-ranges.js';
import { ConfigError } from './config-error.js';
import { knownSettingsOnly } from './setting-names.js';
import { tracingConfig, type TracingSettings } from './tracing-config.js';

export interface RequestBounds {
  bodyBytes: number;
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
  headerBytes: number;
  jsonDepth: number;
  maxInFlight: number;
  /** Most entries in a request's `messages` array (400 beyond). */
  maxMessages: number;
}

export interface Timeouts {
  upstreamConnectMs: number;
  upstreamHeadersMs: number;
  streamIdleMs: number;
  shutdownGraceMs: number;
  /** After SIGTERM, /readyz answers 503 but requests are still served this long, so load balancers notice first. */
  drainDelayMs: number;
}

export interface GatewayConfig {
  port: number;
  host: string;
  databaseUrl: string;
  /** The PostgreSQL pool of each instance (a SQLite file has no pool): see README, Running many instances. */
  database: DatabasePoolSettings;
  /** Folder for the generated admin token and, by default, the database. */
  dataDir: string;
  /** null: answer from the built-in simulator, started in-process. */
  upstreamBaseUrl: string | null;
  upstreamApiKey: string | null;
  /** GATEWAY_ADMIN_TOKEN: null when unset; '' when set but blank, so the start refuses it instead of generating one. */
  adminToken: string | null;
  redisUrl: string | null;
  /** Put before every key the gateway writes in Redis (several fleets may share one Redis). */
  redisPrefix: string;
  logLevel: string;
  production: boolean;
  /** Optional JSON file adding or overriding catalogue entries, and listing upstream providers. */
  modelsFile: string | null;
  /**
   * Environment variables the models file names (secrets are given there by name, never written in
   * it): the one read of the environment outside the settings list, for names only the file knows.
   */
  environment: (name: string) => string | undefined;
  modelsRefreshMs: number;
  keyRefreshMs: number;
  /** Active (not revoked) keys a customer may hold; creating one more is refused. 0: no cap. */
  maxKeysPerCustomer: number;
  usageFlushMs: number;
  /** Usage the database cannot take for now, kept in a file under dataDir (docs/postgres.md). */
  usageSpill: UsageSpillSettings;
  /** Days the admin trail is kept; older rows are deleted at start and hourly. */
  auditRetentionDays: number;
  upstreamConnections: number;
  /** Worker threads for large chat bodies (0 = translate inline), and the size from which they are used. */
  translatePool: { threads: number; minBytes: number };
  limits: RequestBounds;
  timeouts: Timeouts;
  rateLimits: RateLimitSettings;
  retry: RetrySettings;
  breaker: BreakerSettings;
  metrics: MetricsEndpointSettings;
  /** OpenTelemetry tracing (OTEL_* variables); null: off. */
  tracing: TracingSettings | null;
  /** Settings that did not parse and were replaced by their default: logged once as warnings at start. */
  warnings: readonly string[];
}

export interface DatabasePoolSettings {
  /** Connections at most (the key change listener and a migration take one more each). */
  poolMax: number;
  /** How long a statement may run, and opening or waiting for a connection may take. */
  timeoutMs: number;
}

export interface UsageSpillSettings {
  /** How long usage writes may keep failing before the buffered rows go to the file. */
  afterMs: number;
  /** Rows the file keeps at most; rows beyond are dropped and counted. */
  maxRows: number;
}

type Env = Record<string, string | undefined>;

function integer(env: Env, name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new ConfigError(`${name} must be an integer >= ${min}, got "${raw}"`);
  return n;
}

function percent(env: Env, name: string, fallback: number): number {
  const n = integer(env, name, fallback, 1);
  if (n > 100) throw new ConfigError(`${name} must be a percentage from 1 to 100, got "${env[name]}"`);
  return n;
}

/** A comma-separated list of addresses and CIDR ranges; an entry that is neither refuses the start. */
function addressRanges(env: Env, name: string): AddressRanges {
  try {
    return AddressRanges.parse(env[name] ?? '');
  } catch (err) {
    throw new ConfigError(`${name}: ${(err as Error).message}`);
  }
}

function text(env: Env, name: string): string | null {
  const raw = env[name];
  return raw === undefined || raw.trim() === '' ? null : raw.trim();
}

/** The database file's folder, where the generated admin token is kept; './data' when there is no file. */
function dataDirOf(databaseUrl: string): string {
  const target = parseDatabaseUrl(databaseUrl);
  return target.kind === 'sqlite' && target.path !== ':memory:' ? dirname(target.path) : './data';
}

function baseUrl(raw: string | null): string | null {
  if (raw === null) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`ANTHROPIC_BASE_URL is not a URL: "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError('ANTHROPIC_BASE_URL must be http(s)');
  return url.origin + url.pathname.replace(/\/+$/, '');
}

/** The database setting alone: the key and usage commands need nothing else, so nothing else is checked. */
export function databaseUrlOf(env: Env = process.env): string {
  return text(knownSettingsOnly(env), 'DATABASE_URL') ?? 'file:./data/gateway.db';
}

/** GATEWAY_MAX_KEYS_PER_CUSTOMER, read alone: the key commands need it without the rest of the settings. */
export function maxKeysPerCustomerOf(env: Env = process.env): number {
  return integer(knownSettingsOnly(env), 'GATEWAY_MAX_KEYS_PER_CUSTOMER', 100, 0);
}

/** Production never falls back to the simulator. */
export const PRODUCTION_NEEDS_UPSTREAM =
  'NODE_ENV=production needs ANTHROPIC_API_KEY or providers in GATEWAY_MODELS_FILE: refusing to start without an upstream credential';

export function loadConfig(processEnv: Env = process.env): GatewayConfig {
  // Every read below goes through the list of settings (setting-names.ts): a name it lacks throws.
  const env = knownSettingsOnly(processEnv);
  const databaseUrl = databaseUrlOf(env);
  const upstreamApiKey = text(env, 'ANTHROPIC_API_KEY');
  const explicitBase = text(env, 'ANTHROPIC_BASE_URL');
  const production = env.NODE_ENV === 'production';
  const upstreamBaseUrl =
    explicitBase === null && upstreamApiKey === null ? null : baseUrl(explicitBase ?? 'https://api.anthropic.com');
  // A models file may name the providers instead (its credentials come from their own variables):
  // whether it does is known once it is read (apps/serve/build-upstream.ts checks again then).
  if (production && upstreamApiKey === null && text(env, 'GATEWAY_MODELS_FILE') === null) {
    throw new ConfigError(PRODUCTION_NEEDS_UPSTREAM);
  }
  const port = integer(env, 'PORT', 8080);
  const host = text(env, 'HOST') ?? '0.0.0.0';
  const tracing = tracingConfig(env);
  const config: GatewayConfig = {
    port,
    host,
    databaseUrl,
    database: {
      poolMax: integer(env, 'GATEWAY_DB_POOL_MAX', 10, 1),
      timeoutMs: integer(env, 'GATEWAY_DB_TIMEOUT_MS', 5000, 100),
    },
    dataDir: text(env, 'GATEWAY_DATA_DIR') ?? dataDirOf(databaseUrl),
    upstreamBaseUrl,
    upstreamApiKey,
    adminToken: env.GATEWAY_ADMIN_TOKEN?.trim() ?? null,
    redisUrl: text(env, 'REDIS_URL'),
    redisPrefix: redisPrefix(text(env, 'GATEWAY_REDIS_PREFIX') ?? 'mgw:rl:'),
    logLevel: text(env, 'LOG_LEVEL') ?? 'info',
    production,
    modelsFile: text(env, 'GATEWAY_MODELS_FILE'),
    environment: (name) => processEnv[name],
    modelsRefreshMs: integer(env, 'GATEWAY_MODELS_REFRESH_MS', 10 * 60_000, 1000),
    keyRefreshMs: integer(env, 'GATEWAY_KEY_REFRESH_MS', 1000, 100),
    maxKeysPerCustomer: maxKeysPerCustomerOf(env),
    usageFlushMs: integer(env, 'GATEWAY_USAGE_FLUSH_MS', 1000, 10),
    usageSpill: {
      afterMs: integer(env, 'GATEWAY_USAGE_SPILL_AFTER_MS', 30_000, 0),
      maxRows: integer(env, 'GATEWAY_USAGE_SPILL_MAX_ROWS', 1_000_000, 0),
    },
    auditRetentionDays: integer(env, 'GATEWAY_AUDIT_RETENTION_DAYS', 365, 1),
    // One connection per open stream (a stream holds its connection for minutes): the pool must reach
    // the in-flight limit or streams beyond it queue inside the gateway. Connections open lazily.
    upstreamConnections: integer(env, 'GATEWAY_UPSTREAM_CONNECTIONS', 4096, 1),
    translatePool: {
      // One worker thread where there is a core to spare: the bench's pool phase measured it lowering the
      // event-loop delay and the small requests' tail with 1 MiB bodies mixed in (bench/README.md, the pool phase).
      threads: integer(env, 'GATEWAY_TRANSLATE_THREADS', availableParallelism() > 1 ? 1 : 0, 0),
      minBytes: integer(env, 'GATEWAY_TRANSLATE_MIN_BYTES', 256 * 1024, 1024),
    },
    limits: {
      bodyBytes: integer(env, 'GATEWAY_MAX_BODY_BYTES', 32 * 1024 * 1024, 1024),
      headersTimeoutMs: integer(env, 'GATEWAY_CLIENT_HEADERS_TIMEOUT_MS', 30_000, 1),
      bodyTimeoutMs: integer(env, 'GATEWAY_CLIENT_BODY_TIMEOUT_MS', 60_000, 1),
      headerBytes: integer(env, 'GATEWAY_MAX_HEADER_BYTES', 16 * 1024, 1024),
      jsonDepth: integer(env, 'GATEWAY_MAX_JSON_DEPTH', 64, 2),
      maxInFlight: integer(env, 'GATEWAY_MAX_IN_FLIGHT', 4096, 1),
      maxMessages: integer(env, 'GATEWAY_MAX_MESSAGES', 100_000, 1),
    },
    ...resilienceSettings(env),
    metrics: metricsEndpointSettings(env, { port, host }),
    tracing: tracing.settings,
    warnings: tracing.warnings,
    timeouts: {
      upstreamConnectMs: integer(env, 'GATEWAY_UPSTREAM_CONNECT_TIMEOUT_MS', 10_000, 1),
      upstreamHeadersMs: integer(env, 'GATEWAY_UPSTREAM_HEADERS_TIMEOUT_MS', 10 * 60_000, 1),
      streamIdleMs: integer(env, 'GATEWAY_STREAM_IDLE_TIMEOUT_MS', 5 * 60_000, 1),
      shutdownGraceMs: integer(env, 'GATEWAY_SHUTDOWN_GRACE_MS', 30_000, 0),
      drainDelayMs: integer(env, 'GATEWAY_DRAIN_DELAY_MS', 5000, 0),
    },
  };
  return deepFreeze(config);
}

// ---- Rate limits, retries, circuit breaker (issue 8) ----

export interface LimitPair {
  rpm: number | null;
  tpm: number | null;
}

export interface RateLimitSettings {
  /** Customer name → limits; `*` applies to every customer without its own entry. Empty: none. */
  customers: Readonly<Record<string, LimitPair>>;
  /** Failed authentications allowed per client address per minute (burst the same); 0 = no throttle. */
  authFailuresPerMinute: number;
  /** Addresses and CIDR ranges of load balancers in front: for them, the client is read from X-Forwarded-For. */
  trustedProxies: AddressRanges;
}

export interface RetrySettings {
  /** Attempts per model, the first included; 1 = no retries. */
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** A `retry-after` longer than this is not waited for: the answer goes back to the client. */
  retryAfterCapMs: number;
  /** No new attempt (nor a wait) starts later than this after the first one. */
  deadlineMs: number;
}

/** One circuit breaker per model route (src/policy/resilience/circuit-breaker.ts). */
export interface BreakerSettings {
  /** Calls a route must have carried in the window before its failure rate can open it; 0 = no breakers. */
  minCalls: number;
  /** Failed calls, in percent of the window's calls (1-100), that open the circuit. */
  failurePercent: number;
  /** The rolling window the calls are counted in. */
  windowMs: number;
  /** How long an open circuit waits before a probe call may close it. */
  coolDownMs: number;
}

function resilienceSettings(env: Env): Pick<GatewayConfig, 'rateLimits' | 'retry' | 'breaker'> {
  return {
    rateLimits: {
      customers: customerLimits(env.GATEWAY_CUSTOMER_LIMITS),
      authFailuresPerMinute: integer(env, 'GATEWAY_AUTH_FAILURES_PER_MINUTE', 60, 0),
      trustedProxies: addressRanges(env, 'GATEWAY_TRUSTED_PROXIES'),
    },
    retry: {
      attempts: integer(env, 'GATEWAY_RETRY_ATTEMPTS', 3, 1),
      baseDelayMs: integer(env, 'GATEWAY_RETRY_BASE_DELAY_MS', 250, 0),
      maxDelayMs: integer(env, 'GATEWAY_RETRY_MAX_DELAY_MS', 4000, 0),
      retryAfterCapMs: integer(env, 'GATEWAY_RETRY_AFTER_CAP_MS', 10_000, 0),
      deadlineMs: integer(env, 'GATEWAY_RETRY_DEADLINE_MS', 30_000, 0),
    },
    breaker: {
      // GATEWAY_BREAKER_FAILURES is the older name: it opened on that many failures in a row, and
      // 0 switched the breaker off; read as the minimum volume, both keep their sense.
      minCalls: integer(env, 'GATEWAY_BREAKER_MIN_CALLS', integer(env, 'GATEWAY_BREAKER_FAILURES', 20, 0), 0),
      failurePercent: percent(env, 'GATEWAY_BREAKER_FAILURE_PERCENT', 50),
      windowMs: integer(env, 'GATEWAY_BREAKER_WINDOW_MS', 30_000, 10),
      coolDownMs: integer(env, 'GATEWAY_BREAKER_COOLDOWN_MS', 30_000, 1),
    },
  };
}

/** GATEWAY_CUSTOMER_LIMITS: JSON such as {"acme":{"rpm":600,"tpm":400000},"*":{"rpm":60}}. */
function customerLimits(raw: string | undefined): Record<string, LimitPair> {
  if (raw === undefined || raw.trim() === '') return {};
  const fail = (why: string) => new ConfigError(`GATEWAY_CUSTOMER_LIMITS ${why}`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw fail('is not JSON');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw fail('must be a JSON object of customer name → {rpm, tpm}');
  const out: Record<string, LimitPair> = Object.create(null);
  for (const [name, value] of Object.entries(parsed as Record<string, unknown>)) {
    const v = (value ?? {}) as Record<string, unknown>;
    const limit = (field: 'rpm' | 'tpm'): number | null => {
      const n = v[field];
      if (n === undefined || n === null) return null;
      if (typeof n !== 'number' || !Number.isInteger(n) || n < 1) throw fail(`: ${field} of "${name}" must be an integer >= 1`);
      return n;
    };
    out[name] = { rpm: limit('rpm'), tpm: limit('tpm') };
  }
  return out;
}

// ---- Where /metrics is served, and who may read it (issue 21) ----

export interface MetricsEndpointSettings {
  /** A listener of its own for /metrics (the main port then answers 404 there); null: the main port serves it. */
  port: number | null;
  /** Where that listener binds: GATEWAY_METRICS_HOST, else HOST. */
  host: string;
  /** Bearer token a scrape must present; null: open, as the main port's other operational paths. */
  token: string | null;
}

/** Operator secrets (the admin token, the metrics token): long enough that guessing them over the network is hopeless. */
export const MIN_OPERATOR_SECRET_LENGTH = 32;

function metricsEndpointSettings(env: Env, main: { port: number; host: string }): MetricsEndpointSettings {
  const port = env.GATEWAY_METRICS_PORT === undefined || env.GATEWAY_METRICS_PORT.trim() === '' ? null : integer(env, 'GATEWAY_METRICS_PORT', 0, 0);
  if (port !== null && port > 65535) throw new ConfigError(`GATEWAY_METRICS_PORT must be a TCP port (0-65535), got ${port}`);
  const host = text(env, 'GATEWAY_METRICS_HOST') ?? main.host;
  if (port !== null && port !== 0 && port === main.port && host === main.host) {
    throw new ConfigError(`GATEWAY_METRICS_PORT must differ from PORT (both ${port} on ${host})`);
  }
  // Set but blank (an unfilled secret in a template) would silently leave /metrics open: refused.
  const raw = env.GATEWAY_METRICS_TOKEN;
  const token = raw === undefined ? null : raw.trim();
  if (token !== null && token.length < MIN_OPERATOR_SECRET_LENGTH) {
    throw new ConfigError(`GATEWAY_METRICS_TOKEN must be at least ${MIN_OPERATOR_SECRET_LENGTH} characters${token === '' ? ' (it is set but empty)' : ''}`);
  }
  return { port, host, token };
}

function deepFreeze<T extends object>(o: T): T {
  for (const v of Object.values(o)) if (v && typeof v === 'object') deepFreeze(v as object);
  return Object.freeze(o);
}

/** A Redis key prefix may not hold braces: the part in braces is the hash tag that keeps a key and its customer together. */
function redisPrefix(prefix: string): string {
  if (/[{}]/.test(prefix)) throw new ConfigError('GATEWAY_REDIS_PREFIX must not contain { or }');
  return prefix;
}
