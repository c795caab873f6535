// The tests' OTLP receiver decodes what the OpenTelemetry SDK's own exporters send, in both
// encodings: spans made by the SDK are exported to it by the SDK (OTLP/HTTP protobuf and JSON)
// and compared, field by field, with the same spans as the SDK holds them (an in-memory exporter).
import t from 'tap';
import { SpanKind, SpanStatusCode, ROOT_CONTEXT, trace, TraceFlags } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { OTLPTraceExporter as ProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { TraceState } from '@opentelemetry/core';
import { startOtlpReceiver } from '../../../helpers/otlp-receiver.js';
import type { ReceivedSpan } from '../../../helpers/otlp-receiver.js';

const KIND_NAMES: Record<SpanKind, ReceivedSpan['kind']> = {
  [SpanKind.INTERNAL]: 'INTERNAL',
  [SpanKind.SERVER]: 'SERVER',
  [SpanKind.CLIENT]: 'CLIENT',
  [SpanKind.PRODUCER]: 'PRODUCER',
  [SpanKind.CONSUMER]: 'CONSUMER',
};

function nanos([s, ns]: [number, number]): bigint {
  return BigInt(s) * 1_000_000_000n + BigInt(ns);
}

for (const [protocol, Exporter] of [
  ['http/protobuf', ProtobufExporter],
  ['http/json', JsonExporter],
] as const) {
  t.test(`${protocol}: every field of the SDK's spans arrives as the SDK holds it`, async (t) => {
    const receiver = await startOtlpReceiver();
    t.teardown(() => receiver.close());
    const memory = new InMemorySpanExporter();
    const provider = new TracerProvider({
      resource: resourceFromAttributes({ 'service.name': 'reference', 'deployment.environment.name': 'test' }),
      spanProcessors: [new SimpleSpanProcessor({ exporter: memory }), new SimpleSpanProcessor({ exporter: new Exporter({ url: `${receiver.url}/v1/traces` }) })],
    });
    const tracer = provider.getTracer('reference-scope');
    // A parent from elsewhere (with its tracestate), a server span under it, a client span under that.
    const remote = trace.setSpanContext(ROOT_CONTEXT, {
      traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
      spanId: '00f067aa0ba902b7',
      traceFlags: TraceFlags.SAMPLED,
      isRemote: true,
      traceState: new TraceState('vendor=opaque,other=1'),
    });
    const server = tracer.startSpan('chat claude-sonnet-4-6', { kind: SpanKind.SERVER }, remote);
    const client = tracer.startSpan('chat claude-sonnet-4-6', { kind: SpanKind.CLIENT }, trace.setSpan(ROOT_CONTEXT, server));
    client.setAttributes({ 'http.response.status_code': 529, 'error.type': '529' });
    client.setStatus({ code: SpanStatusCode.ERROR, message: 'overloaded' });
    client.end();
    server.setAttributes({
      'gen_ai.request.model': 'claude-sonnet-4-6',
      'gen_ai.usage.input_tokens': 1234,
      'gen_ai.request.temperature': 0.25,
      'gen_ai.response.finish_reasons': ['end_turn', 'max_tokens'],
      'model_gateway.flag': true,
    });
    server.addEvent('gen_ai.first_token', { 'gen_ai.note': 'x' });
    server.end();
    await provider.forceFlush();
    const received = await receiver.waitForSpans((s) => s.length === 2);
    t.match(receiver.exports[0]?.contentType, protocol === 'http/json' ? /^application\/json/ : /^application\/x-protobuf/);

    const held = memory.getFinishedSpans();
    t.equal(held.length, 2);
    for (const sdk of held) {
      const got = received.find((r) => r.spanId === sdk.spanContext().spanId);
      t.ok(got, `${KIND_NAMES[sdk.kind]} span received`);
      if (got === undefined) continue;
      t.same(got, expected(sdk), `${KIND_NAMES[sdk.kind]} span: every field`);
    }
    const [serverGot] = received.filter((r) => r.kind === 'SERVER');
    t.equal(serverGot.parentSpanId, '00f067aa0ba902b7', 'the remote parent');
    t.equal(serverGot.traceState, 'vendor=opaque,other=1');
    await provider.shutdown();
  });
}

/** A span as the receiver should have decoded it, from the SDK's own record of it. */
function expected(sdk: ReadableSpan): ReceivedSpan {
  return {
    traceId: sdk.spanContext().traceId,
    spanId: sdk.spanContext().spanId,
    parentSpanId: sdk.parentSpanContext?.spanId ?? '',
    traceState: sdk.spanContext().traceState?.serialize() ?? '',
    name: sdk.name,
    kind: KIND_NAMES[sdk.kind],
    startTimeUnixNano: nanos(sdk.startTime),
    endTimeUnixNano: nanos(sdk.endTime),
    attributes: sdk.attributes as ReceivedSpan['attributes'],
    events: sdk.events.map((e) => ({ name: e.name, timeUnixNano: nanos(e.time), attributes: (e.attributes ?? {}) as ReceivedSpan['attributes'] })),
    status: { code: sdk.status.code === SpanStatusCode.ERROR ? 'ERROR' : sdk.status.code === SpanStatusCode.OK ? 'OK' : 'UNSET', message: sdk.status.message ?? '' },
    resource: sdk.resource.attributes as ReceivedSpan['attributes'],
    scope: sdk.instrumentationScope.name,
  };
}
