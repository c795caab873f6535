// The soak run's request mix: both surfaces, streamed and not, count_tokens and model lists,
// cancellations mid-stream, client errors, a rate-limited key, and upstream faults now and then.
import type { Dispatcher } from 'undici';
import { request } from 'undici';
import type { Fault, Simulator } from '../../src/apps/simulator/index.js';

export interface TrafficTarget {
  url: string;
  simulator: Simulator;
  dispatcher: Dispatcher;
  key: string;
  /** A key with a small requests-per-minute limit: most of its requests get 429. */
  limitedKey: string;
}

export type Kind =
  | 'messages'
  | 'messages-stream'
  | 'chat'
  | 'chat-stream'
  | 'count-tokens'
  | 'models'
  | 'cancel-messages-stream'
  | 'cancel-chat-stream'
  | 'bad-request'
  | 'bad-key'
  | 'rate-limited'
  | 'upstream-fault';

/** Weights of each kind in the mix (out of 100). */
export const MIX: ReadonlyArray<[Kind, number]> = [
  ['messages', 18],
  ['messages-stream', 18],
  ['chat', 14],
  ['chat-stream', 14],
  ['count-tokens', 4],
  ['models', 4],
  ['cancel-messages-stream', 7],
  ['cancel-chat-stream', 7],
  ['bad-request', 4],
  ['bad-key', 3],
  ['rate-limited', 4],
  ['upstream-fault', 3],
];

const FAULTS: Fault[] = [
  { kind: 'status', status: 529, errorType: 'overloaded_error', retryAfter: 0 },
  { kind: 'reset-mid-stream', afterEvents: 4 },
  { kind: 'error-event', afterEvents: 4 },
  { kind: 'status', status: 500 },
];

const MESSAGES = '/gateway/v1/messages';
const CHAT = '/gateway/openai/v1/chat/completions';

export function kindAt(i: number): Kind {
  // A fixed, well-spread sequence: the mix is the same on every run.
  let slot = (i * 37) % 100;
  for (const [kind, weight] of MIX) {
    if (slot < weight) return kind;
    slot -= weight;
  }
  return 'messages';
}

/** Sends one request of the kind and reads its answer to the end; returns the HTTP status. */
export async function send(target: TrafficTarget, kind: Kind, i: number): Promise<number> {
  const body = (stream: boolean) => JSON.stringify({ model: 'claude-sonnet-4-6', max_tokens: 64, stream, messages: [{ role: 'user', content: `soak request ${i}` }] });
  switch (kind) {
    case 'messages':
      return post(target, MESSAGES, target.key, body(false));
    case 'messages-stream':
      return post(target, MESSAGES, target.key, body(true));
    case 'chat':
      return post(target, CHAT, target.key, body(false));
    case 'chat-stream':
      return post(target, CHAT, target.key, body(true));
    case 'count-tokens':
      return post(target, `${MESSAGES}/count_tokens`, target.key, JSON.stringify({ model: 'claude-sonnet-4-6', messages: [{ role: 'user', content: 'count me' }] }));
    case 'models':
      return get(target, i % 2 ? '/gateway/openai/v1/models' : '/gateway/v1/models', target.key);
    case 'cancel-messages-stream':
      return post(target, MESSAGES, target.key, body(true), true);
    case 'cancel-chat-stream':
      return post(target, CHAT, target.key, body(true), true);
    case 'bad-request':
      return post(target, i % 2 ? CHAT : MESSAGES, target.key, '{"model":');
    case 'bad-key':
      return post(target, MESSAGES, 'mgw_unknownunknown00_notarealsecret', body(false));
    case 'rate-limited':
      return post(target, CHAT, target.limitedKey, body(false));
    case 'upstream-fault':
      target.simulator.injectFault(FAULTS[i % FAULTS.length]!);
      return post(target, i % 2 ? CHAT : MESSAGES, target.key, body(i % 4 < 2));
  }
}

async function post(target: TrafficTarget, path: string, key: string, body: string, cancel = false): Promise<number> {
  const controller = new AbortController();
  const res = await request(`${target.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body,
    signal: controller.signal,
    dispatcher: target.dispatcher,
  });
  try {
    for await (const _chunk of res.body) {
      if (cancel) {
        controller.abort();
        break;
      }
    }
  } catch {
    // the cancellation, or a cut stream
  }
  return res.statusCode;
}

async function get(target: TrafficTarget, path: string, key: string): Promise<number> {
  const res = await request(`${target.url}${path}`, { headers: { authorization: `Bearer ${key}` }, dispatcher: target.dispatcher });
  await res.body.dump();
  return res.statusCode;
}
