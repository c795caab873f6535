// Plain HTTP calls for tests that must see status, headers and bytes exactly.
import { request } from 'undici';

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a test reads the body in the shape it then asserts
  json<T = any>(): T;
}

export async function call(
  url: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<RawResponse> {
  const res = await request(url, { method: (opts.method ?? (opts.body === undefined ? 'GET' : 'POST')) as 'GET', headers: opts.headers, body: opts.body });
  const text = await res.body.text();
  return { status: res.statusCode, headers: res.headers, text, json: () => JSON.parse(text) };
}

export function bearer(key: string, extra: Record<string, string> = {}): Record<string, string> {
  return { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...extra };
}

/** Awaits an SDK call that must fail, and returns the HTTP status the SDK's error carries. */
export async function statusOfRejection(promise: Promise<unknown>): Promise<number | 'resolved'> {
  try {
    await promise;
    return 'resolved';
  } catch (err) {
    return (err as { status?: number }).status ?? -1;
  }
}

/** Starts a long stream, reads about 4 KB of it, then hangs up: a client that cancels mid-stream. */
export async function cancelMidStream(url: string, key: string, body: Record<string, unknown>): Promise<void> {
  const controller = new AbortController();
  const res = await request(url, { method: 'POST', headers: bearer(key), body: JSON.stringify(body), signal: controller.signal });
  let seen = 0;
  for await (const chunk of res.body) {
    seen += (chunk as Buffer).length;
    if (seen > 4000) break;
  }
  controller.abort();
}
