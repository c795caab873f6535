// Copies a byte source to the client with backpressure: the source is pulled only as fast as the
// client reads, so a slow reader slows the upstream read and memory stays flat.
import { once } from 'node:events';
import type { ServerResponse } from 'node:http';

export type PumpEnd = 'complete' | 'client_gone' | 'source_failed';

export interface PumpResult {
  end: PumpEnd;
  error: unknown;
}

/** `seen`: called with each chunk before it is written (to watch what passes). */
export async function pumpToClient(
  res: ServerResponse,
  source: AsyncIterable<Buffer>,
  signal: AbortSignal,
  seen?: (chunk: Buffer) => void,
): Promise<PumpResult> {
  try {
    for await (const chunk of source) {
      if (res.destroyed) return { end: 'client_gone', error: null };
      seen?.(chunk);
      if (!res.write(chunk)) await once(res, 'drain', { signal });
    }
    return { end: 'complete', error: null };
  } catch (err) {
    if (signal.aborted || res.destroyed) return { end: 'client_gone', error: err };
    return { end: 'source_failed', error: err };
  }
}
