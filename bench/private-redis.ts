// A redis-server of the bench's own on a free port, without persistence: its INFO commandstats count
// only what the measured gateways sent (the machine's Redis also serves every other test running).
import { spawn } from 'node:child_process';
import { createClient } from 'redis';
import { freePort } from '../src/apps/fleet/free-port.js';

export interface PrivateRedis {
  readonly url: string;
  stop(): Promise<void>;
}

const HOST = '127.0.0.1';

export async function startPrivateRedis(timeoutMs = 10_000): Promise<PrivateRedis> {
  const port = await freePort(HOST);
  const child = spawn('redis-server', ['--port', String(port), '--bind', HOST, '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const failed = new Promise<never>((_, reject) => {
    child.once('error', (err) => reject(new Error(`redis-server could not be started (apt-get install redis-server): ${err.message}`)));
  });
  failed.catch(() => {});
  const url = `redis://${HOST}:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const client = createClient({ url, socket: { connectTimeout: 500, reconnectStrategy: false } });
    client.on('error', () => {});
    const answered = await Promise.race([
      failed,
      client
        .connect()
        .then(() => client.ping())
        .then(() => true)
        .catch(() => false)
        .finally(() => client.isOpen && client.quit()),
    ]);
    if (answered) return { url, stop };
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`redis-server did not answer on ${url} within ${timeoutMs} ms: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
