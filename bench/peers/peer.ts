// The npm-published peer gateway (@portkey-ai/gateway), installed into a temporary folder (never a
// project dependency) and run on loopback in front of the same simulator, translating chat requests
// to the provider's messages API as our chat surface does.
import { spawn, execFile } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { Client } from 'undici';
import type { RequestSpec } from '../scenarios.js';

export const PEER_PACKAGE = '@portkey-ai/gateway';
/** Pinned: the numbers in bench/RESULTS.md are for this version. */
export const PEER_VERSION = '1.15.2';

// A listen() without a host (the peer's server does that) binds 127.0.0.1 instead of every interface.
const LOOPBACK_PRELOAD = `import net from 'node:net';
const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  if (typeof args[0] === 'number' && (args[1] === undefined || typeof args[1] === 'function')) args.splice(1, args[1] === undefined ? 1 : 0, '127.0.0.1');
  else if (args[0] !== null && typeof args[0] === 'object' && args[0].host === undefined && args[0].path === undefined) args[0] = { ...args[0], host: '127.0.0.1' };
  return listen.apply(this, args);
};
`;

/** npm install into `dir` (scripts off: the package's postinstall only patches its own dev tooling). */
export function installPeer(dir: string): Promise<string> {
  writeFileSync(join(dir, 'package.json'), '{"name":"bench-peers","private":true}\n');
  writeFileSync(join(dir, 'loopback.mjs'), LOOPBACK_PRELOAD);
  return new Promise((resolve, reject) => {
    execFile('npm', ['install', `${PEER_PACKAGE}@${PEER_VERSION}`, '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'], { cwd: dir }, (err, _out, stderr) => {
      if (err) return reject(new Error(`npm install ${PEER_PACKAGE} failed: ${stderr.trim().split('\n').pop() ?? err.message}`));
      resolve(join(dir, 'node_modules', PEER_PACKAGE, 'build', 'start-server.js'));
    });
  });
}

export interface PeerProcess {
  readonly url: string;
  readonly pid: number;
  /** CPU time (user + system) used so far, microseconds, from /proc. */
  cpuUs(): number;
  rssBytes(): number;
  stop(): Promise<void>;
}

export async function startPeer(dir: string, entry: string): Promise<PeerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', join(dir, 'loopback.mjs'), entry, `--port=${port}`, '--headless'], {
    cwd: dir,
    // production: no UI, no log page; nothing else of the shell's environment reaches it.
    env: { PATH: process.env.PATH, NODE_ENV: 'production' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  await waitForPeer(url, child);
  const pid = child.pid!;
  return {
    url,
    pid,
    cpuUs: () => procCpuUs(pid),
    rssBytes: () => procRssBytes(pid),
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The chat request as the peer takes it: its provider and custom-host headers, the upstream key as bearer. */
export function peerRequest(chat: RequestSpec, upstreamUrl: string, upstreamKey: string): RequestSpec {
  return {
    method: 'POST',
    path: '/v1/chat/completions',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${upstreamKey}`,
      'x-portkey-provider': 'anthropic',
      'x-portkey-custom-host': `${upstreamUrl}/v1`,
    },
    body: chat.body,
  };
}

async function waitForPeer(url: string, child: ChildProcess, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const client = new Client(url);
  try {
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`the peer gateway exited with code ${child.exitCode}`);
      try {
        const res = await client.request({ method: 'GET', path: '/' });
        await res.body.dump();
        if (res.statusCode === 200) return;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`the peer gateway did not answer within ${timeoutMs} ms`);
  } finally {
    await client.close();
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

const TICKS_PER_SECOND = 100;

/** User + system CPU of a process so far (all its threads), in µs. */
export function procCpuUs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces) start after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND) * 1e6;
}

function procRssBytes(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) * 1024 : NaN;
}
