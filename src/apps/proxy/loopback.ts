// Whether an address or host name only ever reaches this machine.
import { isIP } from 'node:net';

export function isLoopbackHost(host: string): boolean {
  const h = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  const lower = h.toLowerCase();
  if (lower === 'localhost' || lower.endsWith('.localhost')) return true;
  if (isIP(lower) === 4) return lower.startsWith('127.');
  if (isIP(lower) === 6) return lower === '::1' || /^(0{1,4}:){7}0{0,3}1$/.test(lower) || lower.startsWith('::ffff:127.');
  return false;
}
