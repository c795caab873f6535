// Validates --gateway: the gateway's base URL, the part before `/gateway/...`.
import { ProxyUsageError } from './usage-error.js';

/** Paths a user may paste from an SDK setting; the proxy adds them itself. */
const SURFACE_SUFFIX = /\/gateway(\/openai)?(\/v1)?$/;

export function parseGatewayUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ProxyUsageError('--gateway is not a URL (expected e.g. https://gateway.example.com)');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ProxyUsageError('--gateway must be an http:// or https:// URL');
  if (url.username !== '' || url.password !== '') throw new ProxyUsageError('--gateway must not carry credentials; the key comes from MODEL_GATEWAY_KEY or --key-file');
  if (url.search !== '' || url.hash !== '') throw new ProxyUsageError('--gateway must not have a query or fragment');
  const path = url.pathname.replace(/\/+$/, '');
  if (SURFACE_SUFFIX.test(path)) throw new ProxyUsageError('--gateway is the base URL without /gateway/...; the proxy adds the surface paths itself');
  url.pathname = path === '' ? '/' : path;
  return url;
}
