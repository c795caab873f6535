// A real OTLP/HTTP trace receiver on 127.0.0.1, standing in for a collector: it takes
// `POST /v1/traces` in both encodings (protobuf, decoded with protobufjs from the OTLP trace schema;
// JSON) and keeps every span in one plain shape, plus the raw bodies (to look for what must never be
// exported). `silent` makes it a dead collector: it reads each export and never answers.
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import protobuf from 'protobufjs';
import { waitFor } from './wait.js';

export type AttributeValue = string | number | boolean | AttributeValue[] | { [key: string]: AttributeValue } | null;

export interface ReceivedEvent {
  name: string;
  timeUnixNano: bigint;
  attributes: Record<string, AttributeValue>;
}

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  /** '' for a root span. */
  parentSpanId: string;
  traceState: string;
  name: string;
  kind: 'INTERNAL' | 'SERVER' | 'CLIENT' | 'PRODUCER' | 'CONSUMER' | 'UNSPECIFIED';
  startTimeUnixNano: bigint;
  endTimeUnixNano: bigint;
  attributes: Record<string, AttributeValue>;
  events: ReceivedEvent[];
  status: { code: 'UNSET' | 'OK' | 'ERROR'; message: string };
  resource: Record<string, AttributeValue>;
  scope: string;
}

export interface ReceivedExport {
  contentType: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

export interface OtlpReceiver {
  /** The collector's base URL (OTEL_EXPORTER_OTLP_ENDPOINT). */
  readonly url: string;
  readonly spans: ReceivedSpan[];
  readonly exports: ReceivedExport[];
  /** Waits until `check` holds for the spans received so far. */
  waitForSpans(check: (spans: ReceivedSpan[]) => boolean, ms?: number): Promise<ReceivedSpan[]>;
  close(): Promise<void>;
}

// The OTLP trace schema (opentelemetry-proto, trace/v1, common/v1, resource/v1), the fields a span uses.
const SCHEMA = `
syntax = "proto3";
package otlp;
message ExportTraceServiceRequest { repeated ResourceSpans resource_spans = 1; }
message ResourceSpans { Resource resource = 1; repeated ScopeSpans scope_spans = 2; string schema_url = 3; }
message Resource { repeated KeyValue attributes = 1; uint32 dropped_attributes_count = 2; }
message ScopeSpans { InstrumentationScope scope = 1; repeated Span spans = 2; string schema_url = 3; }
message InstrumentationScope { string name = 1; string version = 2; repeated KeyValue attributes = 3; uint32 dropped_attributes_count = 4; }
message Span {
  bytes trace_id = 1; bytes span_id = 2; string trace_state = 3; bytes parent_span_id = 4; fixed32 flags = 16;
  string name = 5; int32 kind = 6; fixed64 start_time_unix_nano = 7; fixed64 end_time_unix_nano = 8;
  repeated KeyValue attributes = 9; uint32 dropped_attributes_count = 10;
  repeated Event events = 11; uint32 dropped_events_count = 12; repeated Link links = 13; uint32 dropped_links_count = 14;
  Status status = 15;
}
message Event { fixed64 time_unix_nano = 1; string name = 2; repeated KeyValue attributes = 3; uint32 dropped_attributes_count = 4; }
message Link { bytes trace_id = 1; bytes span_id = 2; string trace_state = 3; repeated KeyValue attributes = 4; uint32 dropped_attributes_count = 5; fixed32 flags = 6; }
message Status { string message = 2; int32 code = 3; }
message KeyValue { string key = 1; AnyValue value = 2; }
message AnyValue {
  oneof value { string string_value = 1; bool bool_value = 2; int64 int_value = 3; double double_value = 4; ArrayValue array_value = 5; KeyValueList kvlist_value = 6; bytes bytes_value = 7; }
}
message ArrayValue { repeated AnyValue values = 1; }
message KeyValueList { repeated KeyValue values = 1; }
`;

const ExportRequest = protobuf.parse(SCHEMA, { keepCase: false }).root.lookupType('otlp.ExportTraceServiceRequest');

const KINDS: ReceivedSpan['kind'][] = ['UNSPECIFIED', 'INTERNAL', 'SERVER', 'CLIENT', 'PRODUCER', 'CONSUMER'];
const STATUS_CODES: ReceivedSpan['status']['code'][] = ['UNSET', 'OK', 'ERROR'];

/** Both encodings decode to this: protobuf as protobufjs's plain object (bytes as hex, 64-bit as strings), JSON as sent. */
type Plain = Record<string, unknown>;

export function decodeProtobuf(body: Buffer): ReceivedSpan[] {
  const message = ExportRequest.decode(body);
  const plain = ExportRequest.toObject(message, { longs: String, bytes: String, defaults: true, oneofs: false }) as Plain;
  return spansOf(plain, (b) => Buffer.from(String(b), 'base64').toString('hex'));
}

export function decodeJson(body: Buffer): ReceivedSpan[] {
  // OTLP/JSON writes ids as hex strings (not base64) and 64-bit integers as strings or numbers.
  return spansOf(JSON.parse(body.toString('utf8')) as Plain, (b) => String(b ?? ''));
}

function spansOf(request: Plain, id: (raw: unknown) => string): ReceivedSpan[] {
  const out: ReceivedSpan[] = [];
  for (const rs of list(request.resourceSpans)) {
    const resource = attributesOf(list((rs.resource as Plain | undefined)?.attributes));
    for (const ss of list(rs.scopeSpans)) {
      const scope = String((ss.scope as Plain | undefined)?.name ?? '');
      for (const s of list(ss.spans)) {
        const status = (s.status as Plain | undefined) ?? {};
        out.push({
          traceId: id(s.traceId),
          spanId: id(s.spanId),
          parentSpanId: id(s.parentSpanId),
          traceState: String(s.traceState ?? ''),
          name: String(s.name),
          kind: KINDS[Number(s.kind ?? 0)] ?? 'UNSPECIFIED',
          startTimeUnixNano: BigInt(String(s.startTimeUnixNano ?? 0)),
          endTimeUnixNano: BigInt(String(s.endTimeUnixNano ?? 0)),
          attributes: attributesOf(list(s.attributes)),
          events: list(s.events).map((e) => ({ name: String(e.name), timeUnixNano: BigInt(String(e.timeUnixNano ?? 0)), attributes: attributesOf(list(e.attributes)) })),
          status: { code: STATUS_CODES[Number(status.code ?? 0)] ?? 'UNSET', message: String(status.message ?? '') },
          resource,
          scope,
        });
      }
    }
  }
  return out;
}

function list(v: unknown): Plain[] {
  return Array.isArray(v) ? (v as Plain[]) : [];
}

function attributesOf(kvs: Plain[]): Record<string, AttributeValue> {
  const out: Record<string, AttributeValue> = {};
  for (const kv of kvs) out[String(kv.key)] = valueOf(kv.value as Plain | undefined);
  return out;
}

function valueOf(v: Plain | undefined): AttributeValue {
  if (v === undefined || v === null) return null;
  if (v.stringValue !== undefined && v.stringValue !== null) return String(v.stringValue);
  if (v.boolValue !== undefined && v.boolValue !== null) return Boolean(v.boolValue);
  if (v.intValue !== undefined && v.intValue !== null) return Number(v.intValue);
  if (v.doubleValue !== undefined && v.doubleValue !== null) return Number(v.doubleValue);
  if (v.arrayValue !== undefined && v.arrayValue !== null) return list((v.arrayValue as Plain).values).map(valueOf);
  if (v.kvlistValue !== undefined && v.kvlistValue !== null) return attributesOf(list((v.kvlistValue as Plain).values));
  return null;
}

export async function startOtlpReceiver(opts: { silent?: boolean } = {}): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const exports: ReceivedExport[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const contentType = String(req.headers['content-type'] ?? '');
      exports.push({ contentType, headers: req.headers, body });
      if (opts.silent) return; // a collector that never answers
      if (req.method !== 'POST' || req.url !== '/v1/traces') {
        res.writeHead(404).end();
        return;
      }
      try {
        spans.push(...(contentType.startsWith('application/json') ? decodeJson(body) : decodeProtobuf(body)));
      } catch (err) {
        res.writeHead(400, { 'content-type': 'text/plain' }).end(String(err));
        return;
      }
      if (contentType.startsWith('application/json')) res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      else res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    exports,
    async waitForSpans(check, ms = 10_000) {
      await waitFor(() => check(spans), ms);
      return spans;
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
