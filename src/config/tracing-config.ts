// Tracing settings, from OpenTelemetry's standard OTEL_* variables and nothing else, so an operator's
// usual setup works as it does for any other service. Tracing is on only when an OTLP endpoint is set
// (and OTEL_SDK_DISABLED is not true). A value that does not parse is not worth refusing a start
// for: it becomes one warning (logged once at start) and OpenTelemetry's documented default.
// Every value the SDK would otherwise read from the environment is decided here and passed to it.

type Env = Record<string, string | undefined>;

export type OtlpProtocol = 'http/protobuf' | 'http/json';
export const OTLP_PROTOCOLS: readonly OtlpProtocol[] = ['http/protobuf', 'http/json'];

export type SamplerName = 'always_on' | 'always_off' | 'traceidratio' | 'parentbased_always_on' | 'parentbased_always_off' | 'parentbased_traceidratio';
export const SAMPLER_NAMES: readonly SamplerName[] = ['always_on', 'always_off', 'traceidratio', 'parentbased_always_on', 'parentbased_always_off', 'parentbased_traceidratio'];

export interface TracingSettings {
  exporter: {
    /** Where spans are posted (the traces path included). */
    url: string;
    protocol: OtlpProtocol;
    /** Sent with every export (often a collector's API key: never logged). */
    headers: Readonly<Record<string, string>>;
    timeoutMs: number;
  };
  serviceName: string;
  /** OTEL_RESOURCE_ATTRIBUTES, service.name left out (serviceName has it). */
  resourceAttributes: Readonly<Record<string, string>>;
  sampler: { name: SamplerName; ratio: number };
  /** The batch span processor: what it holds at most, how much it sends at once and how often. */
  batch: { maxQueueSize: number; maxExportBatchSize: number; scheduleDelayMs: number; exportTimeoutMs: number };
}

export interface TracingConfig {
  /** null: tracing off (no endpoint, OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none). */
  settings: TracingSettings | null;
  /** One line per value that did not parse, naming the default used instead (never a header value). */
  warnings: string[];
}

// OpenTelemetry's documented defaults (the SDK environment variable specification).
const DEFAULT_ENDPOINT = 'http://localhost:4318/v1/traces';
const DEFAULT_PROTOCOL: OtlpProtocol = 'http/protobuf';
const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_SAMPLER: SamplerName = 'parentbased_always_on';
const DEFAULT_BATCH = { maxQueueSize: 2048, maxExportBatchSize: 512, scheduleDelayMs: 5000, exportTimeoutMs: 30_000 };
export const DEFAULT_SERVICE_NAME = 'model-gateway';

export function tracingConfig(env: Env): TracingConfig {
  const warnings: string[] = [];
  const warn = (line: string) => warnings.push(line);
  const disabled = flag(env, 'OTEL_SDK_DISABLED', warn);
  const endpoint = endpointOf(env, warn);
  const otlp = otlpExporterChosen(env, warn);
  const settings = settingsOf(env, endpoint ?? DEFAULT_ENDPOINT, warn);
  // Every variable is read either way (the list of settings is the list read); off, none matters.
  if (disabled || endpoint === null || !otlp) return { settings: null, warnings: [] };
  return { settings, warnings };
}

function settingsOf(env: Env, endpoint: string, warn: (line: string) => void): TracingSettings {
  const resource = keyValueList(env, 'OTEL_RESOURCE_ATTRIBUTES', warn, false);
  const serviceName = set(env.OTEL_SERVICE_NAME) ?? resource['service.name'] ?? DEFAULT_SERVICE_NAME;
  delete resource['service.name'];
  const maxQueueSize = count(env, 'OTEL_BSP_MAX_QUEUE_SIZE', DEFAULT_BATCH.maxQueueSize, 1, warn);
  let maxExportBatchSize = count(env, 'OTEL_BSP_MAX_EXPORT_BATCH_SIZE', DEFAULT_BATCH.maxExportBatchSize, 1, warn);
  if (maxExportBatchSize > maxQueueSize) {
    warn(`OTEL_BSP_MAX_EXPORT_BATCH_SIZE (${maxExportBatchSize}) exceeds OTEL_BSP_MAX_QUEUE_SIZE (${maxQueueSize}); using ${maxQueueSize}`);
    maxExportBatchSize = maxQueueSize;
  }
  return {
    exporter: {
      url: endpoint,
      protocol: protocolOf(env, warn),
      headers: { ...keyValueList(env, 'OTEL_EXPORTER_OTLP_HEADERS', warn, true), ...keyValueList(env, 'OTEL_EXPORTER_OTLP_TRACES_HEADERS', warn, true) },
      timeoutMs: count(env, set(env.OTEL_EXPORTER_OTLP_TRACES_TIMEOUT) === null ? 'OTEL_EXPORTER_OTLP_TIMEOUT' : 'OTEL_EXPORTER_OTLP_TRACES_TIMEOUT', DEFAULT_TIMEOUT_MS, 1, warn),
    },
    serviceName,
    resourceAttributes: resource,
    sampler: samplerOf(env, warn),
    batch: {
      maxQueueSize,
      maxExportBatchSize,
      scheduleDelayMs: count(env, 'OTEL_BSP_SCHEDULE_DELAY', DEFAULT_BATCH.scheduleDelayMs, 0, warn),
      exportTimeoutMs: count(env, 'OTEL_BSP_EXPORT_TIMEOUT', DEFAULT_BATCH.exportTimeoutMs, 1, warn),
    },
  };
}

function set(raw: string | undefined): string | null {
  return raw === undefined || raw.trim() === '' ? null : raw.trim();
}

function flag(env: Env, name: string, warn: (line: string) => void): boolean {
  const raw = set(env[name]);
  if (raw === null) return false;
  const lower = raw.toLowerCase();
  if (lower === 'true') return true;
  if (lower !== 'false') warn(`${name} must be true or false, got "${raw}"; using false`);
  return false;
}

/** The traces URL: the signal's own endpoint as given, else the shared one with /v1/traces added; null: none set. */
function endpointOf(env: Env, warn: (line: string) => void): string | null {
  const own = set(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
  const shared = set(env.OTEL_EXPORTER_OTLP_ENDPOINT);
  if (own === null && shared === null) return null;
  const name = own !== null ? 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT' : 'OTEL_EXPORTER_OTLP_ENDPOINT';
  const raw = (own ?? shared)!;
  if (!isHttpUrl(raw)) {
    warn(`${name} is not an http(s) URL; using ${DEFAULT_ENDPOINT}`);
    return DEFAULT_ENDPOINT;
  }
  return own !== null ? raw : `${raw.replace(/\/+$/, '')}/v1/traces`;
}

function isHttpUrl(raw: string): boolean {
  try {
    const url = new URL(raw);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** OTEL_TRACES_EXPORTER: `otlp` (the default) or `none`; the gateway has no other exporter. */
function otlpExporterChosen(env: Env, warn: (line: string) => void): boolean {
  const raw = set(env.OTEL_TRACES_EXPORTER);
  if (raw === null) return true;
  const names = raw.split(',').map((s) => s.trim().toLowerCase());
  if (names.includes('none')) return false;
  if (names.some((n) => n !== 'otlp')) warn(`OTEL_TRACES_EXPORTER "${raw}": only otlp is supported; using otlp`);
  return true;
}

function protocolOf(env: Env, warn: (line: string) => void): OtlpProtocol {
  const name = set(env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL) !== null ? 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL' : 'OTEL_EXPORTER_OTLP_PROTOCOL';
  const raw = set(env[name]);
  if (raw === null) return DEFAULT_PROTOCOL;
  if ((OTLP_PROTOCOLS as readonly string[]).includes(raw)) return raw as OtlpProtocol;
  warn(`${name} "${raw}" is not supported (http/protobuf or http/json); using ${DEFAULT_PROTOCOL}`);
  return DEFAULT_PROTOCOL;
}

function samplerOf(env: Env, warn: (line: string) => void): TracingSettings['sampler'] {
  const raw = set(env.OTEL_TRACES_SAMPLER)?.toLowerCase() ?? null;
  let name = DEFAULT_SAMPLER;
  if (raw !== null) {
    if ((SAMPLER_NAMES as readonly string[]).includes(raw)) name = raw as SamplerName;
    else warn(`OTEL_TRACES_SAMPLER "${raw}" is not supported (${SAMPLER_NAMES.join(', ')}); using ${DEFAULT_SAMPLER}`);
  }
  let ratio = 1;
  const arg = set(env.OTEL_TRACES_SAMPLER_ARG);
  if (arg !== null && name.endsWith('traceidratio')) {
    const n = Number(arg);
    if (Number.isFinite(n) && n >= 0 && n <= 1) ratio = n;
    else warn(`OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1, got "${arg}"; using 1`);
  }
  return { name, ratio };
}

function count(env: Env, name: string, fallback: number, min: number, warn: (line: string) => void): number {
  const raw = set(env[name]);
  if (raw === null) return fallback;
  const n = Number(raw);
  if (Number.isInteger(n) && n >= min) return n;
  warn(`${name} must be an integer >= ${min}, got "${raw}"; using ${fallback}`);
  return fallback;
}

/**
 * A W3C-baggage-like list, `key1=value1,key2=value2`, values percent-encoded. An entry that does
 * not parse is skipped with a warning; `secret` values (headers) are never repeated in it.
 */
function keyValueList(env: Env, name: string, warn: (line: string) => void, secret: boolean): Record<string, string> {
  const out: Record<string, string> = {};
  const raw = set(env[name]);
  if (raw === null) return out;
  raw.split(',').forEach((entry, i) => {
    if (entry.trim() === '') return;
    const eq = entry.indexOf('=');
    const key = eq <= 0 ? '' : entry.slice(0, eq).trim();
    let value: string | null = null;
    try {
      value = eq <= 0 ? null : decodeURIComponent(entry.slice(eq + 1).trim());
    } catch {
      value = null;
    }
    if (key === '' || value === null || !/^[\x21-\x7e]+$/.test(key) || /[\r\n\0]/.test(value)) {
      warn(`${name}: entry ${i + 1} is not key=value (percent-encoded)${secret ? '' : `: "${entry.trim()}"`}; skipped`);
      return;
    }
    out[secret ? key.toLowerCase() : key] = value;
  });
  return out;
}
