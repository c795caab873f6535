// A TCP relay in front of a server (Redis, PostgreSQL) that can be cut: while cut it keeps every connection open but
// drops all bytes both ways, which is what a network partition looks like to the client (no
// reset, no close, just silence).
import net from 'node:net';

export class CuttableRelay {
  private cut = false;
  private readonly sockets = new Set<net.Socket>();
  private server: net.Server | null = null;

  constructor(
    private readonly upstreamHost: string,
    private readonly upstreamPort: number,
  ) {}

  async listen(): Promise<number> {
    const server = net.createServer((client) => {
      const upstream = net.connect(this.upstreamPort, this.upstreamHost);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => {});
      }
      client.on('data', (chunk) => this.cut || upstream.write(chunk));
      upstream.on('data', (chunk) => this.cut || client.write(chunk));
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    this.server = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return (server.address() as net.AddressInfo).port;
  }

  drop(): void {
    this.cut = true;
  }

  restore(): void {
    this.cut = false;
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
