// A loopback port that was free a moment ago: the fleet fixes each instance's port once, so a restarted
// instance comes back where the load balancer already looks for it.
import { createServer } from 'node:net';

export async function freePort(host: string, taken: readonly number[] = []): Promise<number> {
  for (;;) {
    const srv = createServer();
    await new Promise<void>((resolve, reject) => {
      srv.once('error', reject);
      srv.listen(0, host, () => resolve());
    });
    const { port } = srv.address() as { port: number };
    await new Promise<void>((resolve) => srv.close(() => resolve()));
    if (!taken.includes(port)) return port;
  }
}
