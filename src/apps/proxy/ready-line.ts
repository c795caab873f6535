// The one line printed at start: what to give clients.
import { isIP } from 'node:net';

export function proxyBaseUrl(host: string, port: number): string {
  const shown = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '[::1]' : isIP(host) === 6 ? `[${host}]` : host;
  return `http://${shown}:${port}`;
}

export function readyLine(baseUrl: string): string {
  return `model-gateway proxy ready: ANTHROPIC_BASE_URL=${baseUrl} OPENAI_BASE_URL=${baseUrl}/v1 (any API key value works; the proxy sends the gateway key)`;
}
