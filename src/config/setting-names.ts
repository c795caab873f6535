// Every environment variable the gateway reads as a setting. The loader (config.ts) reads the
// environment only through `knownSettingsOnly`, so reading a name missing here fails at once, and the
// deployment files (deploy/) are checked against these lists (test/unit/deploy), so they cannot set a
// variable the gateway would silently ignore. Beside the loader's settings, PROVIDER_SETTING_NAMES
// lists the cloud credentials the models file's provider types read by their standard names.

export const SETTING_NAMES = [
  'PORT',
  'HOST',
  'NODE_ENV',
  'LOG_LEVEL',
  'DATABASE_URL',
  'GATEWAY_DB_POOL_MAX',
  'GATEWAY_DB_TIMEOUT_MS',
  'GATEWAY_DATA_DIR',
  'ANTHROPIC_BASE_URL',
  'ANTHROPIC_API_KEY',
  'GATEWAY_ADMIN_TOKEN',
  'REDIS_URL',
  'GATEWAY_REDIS_PREFIX',
  'GATEWAY_MODELS_FILE',
  'GATEWAY_MODELS_REFRESH_MS',
  'GATEWAY_KEY_REFRESH_MS',
  'GATEWAY_MAX_KEYS_PER_CUSTOMER',
  'GATEWAY_USAGE_FLUSH_MS',
  'GATEWAY_USAGE_SPILL_AFTER_MS',
  'GATEWAY_USAGE_SPILL_MAX_ROWS',
  'GATEWAY_AUDIT_RETENTION_DAYS',
  'GATEWAY_UPSTREAM_CONNECTIONS',
  'GATEWAY_TRANSLATE_THREADS',
  'GATEWAY_TRANSLATE_MIN_BYTES',
  'GATEWAY_MAX_BODY_BYTES',
  'GATEWAY_CLIENT_HEADERS_TIMEOUT_MS',
  'GATEWAY_CLIENT_BODY_TIMEOUT_MS',
  'GATEWAY_MAX_HEADER_BYTES',
  'GATEWAY_MAX_JSON_DEPTH',
  'GATEWAY_MAX_IN_FLIGHT',
  'GATEWAY_MAX_MESSAGES',
  'GATEWAY_UPSTREAM_CONNECT_TIMEOUT_MS',
  'GATEWAY_UPSTREAM_HEADERS_TIMEOUT_MS',
  'GATEWAY_STREAM_IDLE_TIMEOUT_MS',
  'GATEWAY_SHUTDOWN_GRACE_MS',
  'GATEWAY_DRAIN_DELAY_MS',
  'GATEWAY_CUSTOMER_LIMITS',
  'GATEWAY_AUTH_FAILURES_PER_MINUTE',
  'GATEWAY_TRUSTED_PROXIES',
  'GATEWAY_RETRY_ATTEMPTS',
  'GATEWAY_RETRY_BASE_DELAY_MS',
  'GATEWAY_RETRY_MAX_DELAY_MS',
  'GATEWAY_RETRY_AFTER_CAP_MS',
  'GATEWAY_RETRY_DEADLINE_MS',
  'GATEWAY_BREAKER_MIN_CALLS',
  /** The older name of GATEWAY_BREAKER_MIN_CALLS, still read. */
  'GATEWAY_BREAKER_FAILURES',
  'GATEWAY_BREAKER_FAILURE_PERCENT',
  'GATEWAY_BREAKER_WINDOW_MS',
  'GATEWAY_BREAKER_COOLDOWN_MS',
  'GATEWAY_METRICS_PORT',
  'GATEWAY_METRICS_HOST',
  'GATEWAY_METRICS_TOKEN',
  // OpenTelemetry's standard variables (tracing-config.ts): tracing is on when an endpoint is set.
  'OTEL_SDK_DISABLED',
  'OTEL_TRACES_EXPORTER',
  'OTEL_EXPORTER_OTLP_ENDPOINT',
  'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
  'OTEL_EXPORTER_OTLP_PROTOCOL',
  'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL',
  'OTEL_EXPORTER_OTLP_HEADERS',
  'OTEL_EXPORTER_OTLP_TRACES_HEADERS',
  'OTEL_EXPORTER_OTLP_TIMEOUT',
  'OTEL_EXPORTER_OTLP_TRACES_TIMEOUT',
  'OTEL_SERVICE_NAME',
  'OTEL_RESOURCE_ATTRIBUTES',
  'OTEL_TRACES_SAMPLER',
  'OTEL_TRACES_SAMPLER_ARG',
  'OTEL_BSP_SCHEDULE_DELAY',
  'OTEL_BSP_EXPORT_TIMEOUT',
  'OTEL_BSP_MAX_QUEUE_SIZE',
  'OTEL_BSP_MAX_EXPORT_BATCH_SIZE',
] as const;

export type SettingName = (typeof SETTING_NAMES)[number];

/**
 * The variables a `bedrock` or `vertex` entry of the models file reads by the names AWS's and Google's
 * own tools use, when the entry names no variables of its own (src/providers/bedrock/bedrock-type.ts,
 * vertex/vertex-type.ts). The loader does not read them: only a provider configured to. A variable
 * an entry names itself (`apiKeyEnv`, `accessKeyIdEnv`, …) is the operator's to choose, in no list.
 */
export const PROVIDER_SETTING_NAMES = [
  'AWS_ACCESS_KEY_ID',
  'AWS_SECRET_ACCESS_KEY',
  'AWS_SESSION_TOKEN',
  /** A Bedrock API key, sent as a bearer token. */
  'AWS_BEARER_TOKEN_BEDROCK',
  /** The path of a service-account key file. */
  'GOOGLE_APPLICATION_CREDENTIALS',
] as const;

export type ProviderSettingName = (typeof PROVIDER_SETTING_NAMES)[number];

/** Every variable the gateway reads by a name of its own: what a deployment file may set. */
export const ALL_SETTING_NAMES: readonly string[] = [...SETTING_NAMES, ...PROVIDER_SETTING_NAMES];

type Env = Record<string, string | undefined>;

const KNOWN: ReadonlySet<string> = new Set(SETTING_NAMES);

/**
 * `env` as the loader sees it: reading a variable that SETTING_NAMES does not list throws (a
 * programming error, caught by any test that loads a configuration), so the list stays complete.
 */
export function knownSettingsOnly(env: Env): Env {
  return new Proxy(env, {
    get(target, name, receiver) {
      if (typeof name === 'string' && !KNOWN.has(name)) throw new Error(`the configuration reads ${name}, which SETTING_NAMES (src/config/setting-names.ts) does not list`);
      return Reflect.get(target, name, receiver);
    },
  });
}
