// Plain node:http calls to the simulator, for what an SDK hides: raw bytes, resets, hangs.
import { request, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';

export const API_HEADERS = { 'x-api-key': 'sk-test', 'anthropic-version': '2023-06-01', 'content-type': 'application/json' };

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** Sends a request and resolves with the response head, before reading the body. */
export function open(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = API_HEADERS,
  signal?: AbortSignal,
): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, base), { method, headers, agent: false, signal }, resolve);
    req.on('error', reject);
    if (body === undefined) req.end();
    else req.end(typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body));
  });
}

export function readAll(res: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    res.on('error', reject);
    res.on('aborted', () => reject(Object.assign(new Error('aborted'), { partial: Buffer.concat(chunks).toString('utf8') })));
  });
}

export async function call(base: string, method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<RawResponse> {
  const res = await open(base, method, path, body, headers);
  return { status: res.statusCode ?? 0, headers: res.headers, body: await readAll(res) };
}

/** The event names of an SSE text, in order. */
export function eventNames(sse: string): string[] {
  return sse
    .split('\n')
    .filter((l) => l.startsWith('event: '))
    .map((l) => l.slice(7));
}

/** Polls until `check` holds (for things that settle after a socket closes); fails after ~5 s. */
export async function eventually(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`never happened: ${what}`);
}

export const TEXT_REQUEST = { model: 'claude-sonnet-4-6', max_tokens: 200, messages: [{ role: 'user', content: 'Hello simulator' }] };
export const STREAM_REQUEST = { ...TEXT_REQUEST, stream: true };
