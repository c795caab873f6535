// The only reader of process.env: settings are parsed and validated once, then frozen.

export interface Limits {
  bodyBytes: number;
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
  headerBytes: number;
  jsonDepth: number;
  maxInFlight: number;
}

export interface Timeouts {
  upstreamConnectMs: number;
  upstreamHeadersMs: number;
  streamIdleMs: number;
  shutdownGraceMs: number;
}

export interface GatewayConfig {
  port: number;
  host: string;
  databaseUrl: string;
  /** Folder for the generated admin token and, by default, the database. */
  dataDir: string;
  /** null: answer from the built-in simulator, started in-process. */
  upstreamBaseUrl: string | null;
  upstreamApiKey: string | null;
  adminToken: string | null;
  redisUrl: string | null;
  logLevel: string;
  production: boolean;
  /** Optional JSON file adding or overriding catalogue entries. */
  modelsFile: string | null;
  modelsRefreshMs: number;
  keyRefreshMs: number;
  usageFlushMs: number;
  upstreamConnections: number;
  limits: Limits;
  timeouts: Timeouts;
}

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

function integer(env: Env, name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new ConfigError(`${name} must be an integer >= ${min}, got "${raw}"`);
  return n;
}

function text(env: Env, name: string): string | null {
  const raw = env[name];
  return raw === undefined || raw.trim() === '' ? null : raw.trim();
}

function dataDirOf(databaseUrl: string): string {
  if (!databaseUrl.startsWith('file:')) return './data';
  const path = databaseUrl.slice('file:'.length);
  if (path === '' || path.startsWith(':memory:')) return './data';
  const slash = path.lastIndexOf('/');
  return slash <= 0 ? '.' : path.slice(0, slash);
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

export function loadConfig(env: Env = process.env): GatewayConfig {
  const databaseUrl = text(env, 'DATABASE_URL') ?? 'file:./data/gateway.db';
  const upstreamApiKey = text(env, 'ANTHROPIC_API_KEY');
  const explicitBase = text(env, 'ANTHROPIC_BASE_URL');
  const production = env.NODE_ENV === 'production';
  const upstreamBaseUrl =
    explicitBase === null && upstreamApiKey === null ? null : baseUrl(explicitBase ?? 'https://api.anthropic.com');
  if (production && upstreamApiKey === null) {
    throw new ConfigError('NODE_ENV=production needs ANTHROPIC_API_KEY: refusing to start without an upstream credential');
  }
  const config: GatewayConfig = {
    port: integer(env, 'PORT', 8080),
    host: text(env, 'HOST') ?? '0.0.0.0',
    databaseUrl,
    dataDir: text(env, 'GATEWAY_DATA_DIR') ?? dataDirOf(databaseUrl),
    upstreamBaseUrl,
    upstreamApiKey,
    adminToken: text(env, 'GATEWAY_ADMIN_TOKEN'),
    redisUrl: text(env, 'REDIS_URL'),
    logLevel: text(env, 'LOG_LEVEL') ?? 'info',
    production,
    modelsFile: text(env, 'GATEWAY_MODELS_FILE'),
    modelsRefreshMs: integer(env, 'GATEWAY_MODELS_REFRESH_MS', 10 * 60_000, 1000),
    keyRefreshMs: integer(env, 'GATEWAY_KEY_REFRESH_MS', 1000, 100),
    usageFlushMs: integer(env, 'GATEWAY_USAGE_FLUSH_MS', 1000, 10),
    upstreamConnections: integer(env, 'GATEWAY_UPSTREAM_CONNECTIONS', 256, 1),
    limits: {
      bodyBytes: integer(env, 'GATEWAY_MAX_BODY_BYTES', 32 * 1024 * 1024, 1024),
      headersTimeoutMs: integer(env, 'GATEWAY_CLIENT_HEADERS_TIMEOUT_MS', 30_000, 1),
      bodyTimeoutMs: integer(env, 'GATEWAY_CLIENT_BODY_TIMEOUT_MS', 60_000, 1),
      headerBytes: integer(env, 'GATEWAY_MAX_HEADER_BYTES', 16 * 1024, 1024),
      jsonDepth: integer(env, 'GATEWAY_MAX_JSON_DEPTH', 64, 2),
      maxInFlight: integer(env, 'GATEWAY_MAX_IN_FLIGHT', 4096, 1),
    },
    timeouts: {
      upstreamConnectMs: integer(env, 'GATEWAY_UPSTREAM_CONNECT_TIMEOUT_MS', 10_000, 1),
      upstreamHeadersMs: integer(env, 'GATEWAY_UPSTREAM_HEADERS_TIMEOUT_MS', 10 * 60_000, 1),
      streamIdleMs: integer(env, 'GATEWAY_STREAM_IDLE_TIMEOUT_MS', 5 * 60_000, 1),
      shutdownGraceMs: integer(env, 'GATEWAY_SHUTDOWN_GRACE_MS', 30_000, 0),
    },
  };
  return deepFreeze(config);
}

function deepFreeze<T extends object>(o: T): T {
  for (const v of Object.values(o)) if (v && typeof v === 'object') deepFreeze(v as object);
  return Object.freeze(o);
}
