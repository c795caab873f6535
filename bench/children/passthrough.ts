// Child process: the bare pass-through proxy in front of the simulator.
import type { AddressInfo } from 'node:net';
import { createPassThrough } from '../passthrough.js';
import { failStart, send, serveStats } from './stats.js';

interface PassThroughArgs {
  upstream: string;
  connections: number;
}

async function main(): Promise<void> {
  const args = JSON.parse(process.argv[2] ?? '{}') as PassThroughArgs;
  const proxy = createPassThrough(args.upstream, args.connections);
  await new Promise<void>((resolve) => proxy.server.listen(0, '127.0.0.1', resolve));
  const { port } = proxy.server.address() as AddressInfo;
  serveStats({ close: () => proxy.close() });
  send({ type: 'ready', url: `http://127.0.0.1:${port}` });
}

main().catch(failStart);
