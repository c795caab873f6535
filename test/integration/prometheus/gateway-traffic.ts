// Real traffic for the dashboard check: requests through both surfaces of a running gateway
// (streamed and not), plus the failures the dashboard has panels for: a bad key, a rate-limited
// key, an unknown model, upstream errors injected into the simulator.
import type { Simulator } from '../../../src/apps/simulator/index.js';
import { bearer, call } from '../../helpers/http.js';

export interface GatewayTrafficOptions {
  url: string;
  simulator: Simulator;
  /** A key without limits. */
  key: string;
  /** A key allowed one request per minute (the second is rate-limited). */
  limitedKey: string;
}

const MODEL = 'claude-sonnet-4-6';
const messagesBody = (stream: boolean) => JSON.stringify({ model: MODEL, max_tokens: 32, stream, messages: [{ role: 'user', content: 'Hello' }] });
// temperature 1.5 is clamped to 1 by the chat translation: a translation warning.
const chatBody = (stream: boolean) =>
  JSON.stringify({ model: MODEL, stream, temperature: 1.5, stream_options: stream ? { include_usage: true } : undefined, messages: [{ role: 'user', content: 'Hello' }] });

export async function driveGateway(o: GatewayTrafficOptions): Promise<void> {
  const messages = `${o.url}/gateway/v1/messages`;
  const chat = `${o.url}/gateway/openai/v1/chat/completions`;
  const headers = { ...bearer(o.key), 'anthropic-version': '2023-06-01' };
  for (const stream of [false, true]) {
    await call(messages, { headers, body: messagesBody(stream) });
    await call(chat, { headers: bearer(o.key), body: chatBody(stream) });
  }
  await call(`${o.url}/gateway/openai/v1/models`, { headers: bearer(o.key) });
  await call(`${o.url}/gateway/v1/models`, { headers });
  await call(chat, { headers: bearer('mgw_unknown_key0000000000000000'), body: chatBody(false) });
  await call(chat, { headers: bearer(o.key), body: JSON.stringify({ model: 'no-such-model', messages: [{ role: 'user', content: 'x' }] }) });
  for (let i = 0; i < 2; i++) await call(chat, { headers: bearer(o.limitedKey), body: chatBody(false) });

  // A 500 without retry-after is retried with backoff until the attempts run out (the chat surface
  // sends a buffered body, which can be replayed; the messages surface streams the client's body).
  o.simulator.injectFault({ kind: 'status', status: 500, errorType: 'api_error' }, 5);
  await call(chat, { headers: bearer(o.key), body: chatBody(false) });
  o.simulator.clearFaults();
  o.simulator.injectFault({ kind: 'reset-before-headers' }, 5);
  await call(messages, { headers, body: messagesBody(true) });
  o.simulator.clearFaults();
}
