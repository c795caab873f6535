// Sequential requests over one keep-alive connection: the latency a lone client sees, and for streams
// the time to the first token (the first text delta, whichever shape the stream has).
import { Client } from 'undici';
import type { RequestSpec, StreamShape } from './scenarios.js';
import { Samples } from './percentiles.js';

export interface ProbeSpec {
  url: string;
  request: RequestSpec;
  expectStatus: number;
  /** For streams: how to recognise the first token. */
  stream: StreamShape | null;
  /** Stop after this long, or after maxRequests, whichever comes first. */
  durationMs: number;
  maxRequests?: number;
  /** Stops before the next request once aborted (the request under way ends first). */
  stop?: AbortSignal;
}

export interface ProbeResult {
  latencyMs: Samples;
  /** When each request of latencyMs began, milliseconds since the epoch (comparable across processes). */
  startedAtMs: Samples;
  ttftMs: Samples;
  unexpected: number;
}

export async function runProbe(spec: ProbeSpec): Promise<ProbeResult> {
  const client = new Client(spec.url, { pipelining: 1, keepAliveTimeout: 30_000 });
  const latencyMs = new Samples();
  const startedAtMs = new Samples();
  const ttftMs = new Samples();
  let unexpected = 0;
  const until = performance.now() + spec.durationMs;
  const max = spec.maxRequests ?? Number.POSITIVE_INFINITY;
  const body = spec.request.body === undefined ? null : Buffer.from(spec.request.body);
  try {
    for (let n = 0; n < max && performance.now() < until && spec.stop?.aborted !== true; n++) {
      const start = performance.now();
      const res = await client.request({ method: spec.request.method, path: spec.request.path, headers: spec.request.headers, body });
      const detector = spec.stream === null ? null : new FirstTokenDetector(spec.stream);
      let firstToken = -1;
      for await (const chunk of res.body) {
        if (detector !== null && firstToken < 0 && detector.push(chunk as Buffer)) firstToken = performance.now() - start;
      }
      latencyMs.add(performance.now() - start);
      startedAtMs.add(performance.timeOrigin + start);
      if (firstToken >= 0) ttftMs.add(firstToken);
      if (res.statusCode !== spec.expectStatus || (detector !== null && firstToken < 0)) unexpected++;
    }
  } finally {
    await client.close();
  }
  return { latencyMs, startedAtMs, ttftMs, unexpected };
}

/** Reads SSE text until the first event that carries generated text. */
export class FirstTokenDetector {
  private pending = '';

  constructor(private readonly shape: StreamShape) {}

  push(chunk: Buffer): boolean {
    this.pending += chunk.toString('utf8');
    let newline: number;
    while ((newline = this.pending.indexOf('\n')) !== -1) {
      const line = this.pending.slice(0, newline).trim();
      this.pending = this.pending.slice(newline + 1);
      if (line.startsWith('data:') && this.isToken(line.slice(5).trim())) return true;
    }
    return false;
  }

  private isToken(data: string): boolean {
    if (data === '' || data === '[DONE]') return false;
    let event: { type?: string; delta?: unknown; choices?: { delta?: { content?: unknown } }[] };
    try {
      event = JSON.parse(data) as typeof event;
    } catch {
      return false;
    }
    if (this.shape === 'messages') return event.type === 'content_block_delta';
    if (this.shape === 'responses') return event.type === 'response.output_text.delta';
    const content = event.choices?.[0]?.delta?.content;
    return typeof content === 'string' && content !== '';
  }
}
