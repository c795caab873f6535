// The floor for any Node proxy: node:http in, an undici keep-alive pool out, bytes piped both ways.
// No auth, no parsing, no logging: whatever the gateway costs beyond this is its own work.
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage, OutgoingHttpHeaders, Server, ServerResponse } from 'node:http';
import { Pool } from 'undici';
import type { Dispatcher } from 'undici';

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-connection', 'te', 'trailer', 'host']);

export interface PassThrough {
  readonly server: Server;
  close(): Promise<void>;
}

export function createPassThrough(upstreamOrigin: string, connections: number): PassThrough {
  const pool = new Pool(upstreamOrigin, { connections, pipelining: 1, keepAliveTimeout: 30_000 });
  const server = createServer({ keepAliveTimeout: 65_000 }, (req, res) => forward(pool, req, res));
  return {
    server,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await pool.destroy();
    },
  };
}

function forward(pool: Pool, req: IncomingMessage, res: ServerResponse): void {
  const options: Dispatcher.RequestOptions = {
    method: req.method as Dispatcher.HttpMethod,
    path: req.url ?? '/',
    headers: withoutHopByHop(req.headers),
    body: req.method === 'GET' || req.method === 'HEAD' ? null : req,
  };
  pool.stream(
    options,
    ({ statusCode, headers }) => {
      res.writeHead(statusCode, withoutHopByHop(headers as IncomingHttpHeaders) as OutgoingHttpHeaders);
      return res;
    },
    (err) => {
      if (err === null) return;
      if (!res.headersSent) {
        res.writeHead(502, { 'content-type': 'text/plain' });
        res.end('upstream failed');
      } else res.destroy();
    },
  );
}

function withoutHopByHop(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const out: IncomingHttpHeaders = {};
  for (const name in headers) if (!HOP_BY_HOP.has(name)) out[name] = headers[name];
  return out;
}

// Run alone (`node dist/bench/passthrough.js <upstream origin> [connections]`), as tools/instructions.ts
// does under valgrind: it says where it listens on stdout in the gateway's log shape.
if (process.argv[1]?.endsWith('bench/passthrough.js')) {
  const proxy = createPassThrough(process.argv[2]!, Number(process.argv[3] ?? 32));
  proxy.server.listen(0, '127.0.0.1', () => {
    const { port } = proxy.server.address() as { port: number };
    process.stdout.write(`${JSON.stringify({ port, msg: 'pass-through listening' })}\n`);
  });
}
