// The OTEL_* variables as the gateway reads them: off unless an endpoint is set, OpenTelemetry's
// documented defaults, and a value that does not parse is a warning and the default, never a crash.
import t from 'tap';
import { loadConfig } from '../../../src/config/config.js';
import { tracingConfig } from '../../../src/config/tracing-config.js';

const ENDPOINT = 'http://collector.internal:4318';

t.test('off: no endpoint, OTEL_SDK_DISABLED=true, or OTEL_TRACES_EXPORTER=none', async (t) => {
  const cases: Array<[string, Record<string, string>]> = [
    ['nothing set', {}],
    ['only other OTEL_* variables', { OTEL_SERVICE_NAME: 'gw', OTEL_TRACES_SAMPLER: 'always_on' }],
    ['disabled', { OTEL_EXPORTER_OTLP_ENDPOINT: ENDPOINT, OTEL_SDK_DISABLED: 'true' }],
    ['disabled, any case', { OTEL_EXPORTER_OTLP_ENDPOINT: ENDPOINT, OTEL_SDK_DISABLED: 'TRUE' }],
    ['exporter none', { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${ENDPOINT}/v1/traces`, OTEL_TRACES_EXPORTER: 'none' }],
  ];
  for (const [name, env] of cases) {
    const c = tracingConfig(env);
    t.equal(c.settings, null, name);
    t.same(c.warnings, [], `${name}: no warning`);
  }
});

t.test('on with an endpoint: OpenTelemetry defaults', async (t) => {
  const { settings, warnings } = tracingConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: `${ENDPOINT}/` });
  t.same(warnings, []);
  t.same(settings, {
    exporter: { url: `${ENDPOINT}/v1/traces`, protocol: 'http/protobuf', headers: {}, timeoutMs: 10_000 },
    serviceName: 'model-gateway',
    resourceAttributes: {},
    sampler: { name: 'parentbased_always_on', ratio: 1 },
    batch: { maxQueueSize: 2048, maxExportBatchSize: 512, scheduleDelayMs: 5000, exportTimeoutMs: 30_000 },
  });
});

t.test('every variable read as the specification says', async (t) => {
  const { settings, warnings } = tracingConfig({
    OTEL_EXPORTER_OTLP_ENDPOINT: 'http://ignored:4318',
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://collector.example/custom/path',
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
    OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
    OTEL_EXPORTER_OTLP_HEADERS: 'x-shared=one,Authorization=Basic%20c2VjcmV0',
    OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'x-shared=two',
    OTEL_EXPORTER_OTLP_TIMEOUT: '5000',
    OTEL_EXPORTER_OTLP_TRACES_TIMEOUT: '2500',
    OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment.name=prod,service.name=from-resource,service.instance.id=gw%2D1',
    OTEL_SERVICE_NAME: 'edge-gateway',
    OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
    OTEL_TRACES_SAMPLER_ARG: '0.25',
    OTEL_BSP_MAX_QUEUE_SIZE: '100',
    OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '50',
    OTEL_BSP_SCHEDULE_DELAY: '200',
    OTEL_BSP_EXPORT_TIMEOUT: '1000',
    OTEL_SDK_DISABLED: 'false',
  });
  t.same(warnings, []);
  t.same(settings, {
    exporter: {
      // The signal's own endpoint is used as given, the shared one gets /v1/traces.
      url: 'https://collector.example/custom/path',
      protocol: 'http/json',
      headers: { 'x-shared': 'two', authorization: 'Basic c2VjcmV0' },
      timeoutMs: 2500,
    },
    serviceName: 'edge-gateway',
    resourceAttributes: { 'deployment.environment.name': 'prod', 'service.instance.id': 'gw-1' },
    sampler: { name: 'parentbased_traceidratio', ratio: 0.25 },
    batch: { maxQueueSize: 100, maxExportBatchSize: 50, scheduleDelayMs: 200, exportTimeoutMs: 1000 },
  });
  t.equal(tracingConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: ENDPOINT, OTEL_RESOURCE_ATTRIBUTES: 'service.name=svc' }).settings?.serviceName, 'svc', 'service.name from the resource when OTEL_SERVICE_NAME is unset');
});

t.test('an invalid value: one warning each, the documented default, never a crash', async (t) => {
  const cases: Array<{ env: Record<string, string>; warning: RegExp; check: (s: NonNullable<ReturnType<typeof tracingConfig>['settings']>) => unknown; expect: unknown }> = [
    { env: { OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }, warning: /OTEL_EXPORTER_OTLP_PROTOCOL "grpc" is not supported.*using http\/protobuf/, check: (s) => s.exporter.protocol, expect: 'http/protobuf' },
    { env: { OTEL_TRACES_SAMPLER: 'jaeger_remote' }, warning: /OTEL_TRACES_SAMPLER "jaeger_remote".*using parentbased_always_on/, check: (s) => s.sampler.name, expect: 'parentbased_always_on' },
    { env: { OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '1.5' }, warning: /OTEL_TRACES_SAMPLER_ARG .*"1.5"; using 1/, check: (s) => s.sampler, expect: { name: 'traceidratio', ratio: 1 } },
    { env: { OTEL_BSP_MAX_QUEUE_SIZE: 'lots' }, warning: /OTEL_BSP_MAX_QUEUE_SIZE must be an integer >= 1, got "lots"; using 2048/, check: (s) => s.batch.maxQueueSize, expect: 2048 },
    { env: { OTEL_BSP_MAX_QUEUE_SIZE: '10', OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '20' }, warning: /exceeds OTEL_BSP_MAX_QUEUE_SIZE \(10\); using 10/, check: (s) => s.batch.maxExportBatchSize, expect: 10 },
    { env: { OTEL_EXPORTER_OTLP_TIMEOUT: '-1' }, warning: /OTEL_EXPORTER_OTLP_TIMEOUT must be an integer >= 1, got "-1"; using 10000/, check: (s) => s.exporter.timeoutMs, expect: 10_000 },
    { env: { OTEL_SDK_DISABLED: 'yes' }, warning: /OTEL_SDK_DISABLED must be true or false, got "yes"; using false/, check: (s) => s.exporter.url, expect: `${ENDPOINT}/v1/traces` },
    { env: { OTEL_TRACES_EXPORTER: 'zipkin' }, warning: /only otlp is supported; using otlp/, check: (s) => s.exporter.protocol, expect: 'http/protobuf' },
    { env: { OTEL_RESOURCE_ATTRIBUTES: 'ok=1,broken' }, warning: /OTEL_RESOURCE_ATTRIBUTES: entry 2 is not key=value.*"broken"; skipped/, check: (s) => s.resourceAttributes, expect: { ok: '1' } },
  ];
  for (const { env, warning, check, expect } of cases) {
    const { settings, warnings } = tracingConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: ENDPOINT, ...env });
    const name = Object.keys(env).join(' + ');
    t.equal(warnings.length, 1, `${name}: one warning`);
    t.match(warnings[0], warning, name);
    t.same(settings === null ? null : check(settings), expect, `${name}: the default`);
  }
  const bad = tracingConfig({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'collector:4318' });
  t.match(bad.warnings, [/OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is not an http\(s\) URL; using http:\/\/localhost:4318\/v1\/traces/]);
  t.equal(bad.settings?.exporter.url, 'http://localhost:4318/v1/traces');
});

t.test('a header that does not parse is skipped, and its value never appears in the warning', async (t) => {
  const secret = 'sk-collector-0123456789';
  const { settings, warnings } = tracingConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: ENDPOINT, OTEL_EXPORTER_OTLP_HEADERS: `api-key=${secret},${secret}-without-a-name,x-bad=%E0%A4%A` });
  t.same(settings?.exporter.headers, { 'api-key': secret });
  t.equal(warnings.length, 2);
  for (const w of warnings) t.notMatch(w, secret, 'no header value in a warning');
});

t.test('loadConfig: tracing and its warnings are part of the configuration', async (t) => {
  const c = loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: ENDPOINT, OTEL_TRACES_SAMPLER: 'nope' });
  t.equal(c.tracing?.exporter.url, `${ENDPOINT}/v1/traces`);
  t.equal(c.warnings.length, 1);
  t.ok(Object.isFrozen(c.tracing), 'frozen like every setting');
  t.equal(loadConfig({}).tracing, null, 'off by default');
});
