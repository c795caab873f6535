// What every endpoint handler is given: the request as read, and the simulator's shared state.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AccountSet } from '../accounts/accounts.js';
import type { SimClock } from '../accounts/clock.js';
import type { ModelIndex } from '../models.js';
import type { ResolvedOptions } from '../types.js';
import type { IssuedTokens } from '../vertex/issued-tokens.js';
import type { FaultQueue } from './faults.js';
import type { ResponseScope } from './scope.js';

/** One request, its body read (or found too large). */
export interface Incoming {
  req: IncomingMessage;
  res: ServerResponse;
  scope: ResponseScope;
  requestId: string;
  method: string;
  /** The path as sent (still percent-encoded), without the query. */
  path: string;
  /** The query string as sent, without `?`. */
  rawQuery: string;
  body: Buffer;
  tooLarge: boolean;
}

export interface SimContext {
  readonly options: ResolvedOptions;
  readonly models: ModelIndex;
  readonly faults: FaultQueue;
  readonly clock: SimClock;
  readonly accounts: AccountSet;
  readonly tokens: IssuedTokens;
}

/** A path segment decoded; one that is not valid percent-encoding stays as it came. */
export function decodedSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
