// The server span names the route that answered, not merely the last one tried: the router may give
// back an answer it kept from an earlier route when a later attempt failed.
import t, { type Test } from 'tap';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { ATTR, OtelRequestTrace } from '../../../../../src/observability/tracing/otel/spans.js';
import type { RequestFacts } from '../../../../../src/observability/tracing/request-trace.js';

function facts(over: Partial<RequestFacts>): RequestFacts {
  return {
    endedAt: performance.now(), surface: 'messages', requestModel: 'claude-sonnet-4-6', responseModel: null, responseId: null,
    finishReason: null, maxTokens: null, temperature: null, usage: null, status: 529, errorType: '529', customer: null,
    keyId: null, route: null, provider: null, firstTokenAt: null, ...over,
  };
}

function tracing(t: Test) {
  const exporter = new InMemorySpanExporter();
  const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  t.teardown(() => provider.shutdown());
  const start = () => OtelRequestTrace.start(provider.getTracer('test'), new W3CTraceContextPropagator(), {}, performance.now());
  const server = () => exporter.getFinishedSpans().find((s) => s.kind === 1)!;
  return { start, server };
}

t.test('two routes tried, the first one\'s answer kept: the server span names the first', async (t) => {
  const { start, server } = tracing(t);
  const trace = start();
  trace.attempt('primary', 'anthropic', 'claude-sonnet-4-6').end(529);
  trace.attempt('bedrock-east', 'aws.bedrock', 'claude-sonnet-4-6').end('connection_error');
  trace.end(facts({ route: 'primary', provider: 'anthropic' }));
  t.equal(server().attributes[ATTR.route], 'primary');
  t.equal(server().attributes[ATTR.provider], 'anthropic');
});

t.test('no route answered: the server span names the last one tried', async (t) => {
  const { start, server } = tracing(t);
  const trace = start();
  trace.attempt('primary', 'anthropic', null).end('connection_error');
  trace.attempt('bedrock-east', 'aws.bedrock', null).end('timeout');
  trace.end(facts({ status: 502, errorType: 'connection_error' }));
  t.equal(server().attributes[ATTR.route], 'bedrock-east');
  t.equal(server().attributes[ATTR.provider], 'aws.bedrock');
});
