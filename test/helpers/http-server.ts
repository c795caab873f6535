// A real node:http server on 127.0.0.1 for tests that script a provider (or a client-facing side) write
// by write, and need to see what happened to its connections (opened, closed, requests received).
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Test } from 'tap';

export interface TestServer {
  readonly server: Server;
  readonly url: string;
  readonly port: number;
  /** Connections accepted so far. */
  readonly connections: number;
  /** Connections the peer (or the server) closed so far. */
  readonly closedConnections: number;
  /** Requests received so far. */
  readonly requests: number;
}

/** A test's request handler; an async one that rejects fails the test (rather than going unhandled). */
export type TestHandler = (req: IncomingMessage, res: ServerResponse) => unknown;

/** Starts the server and closes it (and every connection still open) when the test ends. */
export async function startServer(t: Test, handler: TestHandler): Promise<TestServer> {
  const counts = { connections: 0, closedConnections: 0, requests: 0 };
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    counts.requests++;
    const done = handler(req, res);
    if (done instanceof Promise) done.catch((err: unknown) => t.threw(err));
  });
  server.on('connection', (socket: Socket) => {
    counts.connections++;
    sockets.add(socket);
    socket.once('close', () => {
      counts.closedConnections++;
      sockets.delete(socket);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as { port: number }).port;
  t.teardown(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((r) => server.close(() => r()));
  });
  return {
    server,
    url: `http://127.0.0.1:${port}`,
    port,
    get connections() {
      return counts.connections;
    },
    get closedConnections() {
      return counts.closedConnections;
    },
    get requests() {
      return counts.requests;
    },
  };
}

/** A promise with its resolve at hand: lets a test hold a scripted server at a given write. */
export interface Gate<T = void> {
  readonly promise: Promise<T>;
  open(value: T): void;
}

export function gate<T = void>(): Gate<T> {
  let open!: (value: T) => void;
  const promise = new Promise<T>((r) => (open = r));
  return { promise, open };
}

/** Resolves when the response is closed: `finished` false means the connection went before the end. */
export function closeOf(res: ServerResponse): Promise<{ finished: boolean }> {
  return new Promise((r) => res.once('close', () => r({ finished: res.writableFinished })));
}
