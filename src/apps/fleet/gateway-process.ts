// One `model-gateway serve` child process of a local fleet: started on a fixed port, known to be
// listening when it logs so, stopped by a signal and waited for.
import { spawn } from 'node:child_process';
import { get as httpGet } from 'node:http';
import type { ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { SERVE_NODE_FLAGS } from '../serve/node-flags.js';

/** How to run `model-gateway`: node, its options (a TypeScript loader under tests) and the entry script. */
export interface GatewayCommand {
  readonly execPath: string;
  readonly args: readonly string[];
  /** What the loader needs in the environment (its settings), put under the instance's own. */
  readonly env: Readonly<Record<string, string>>;
}

/** This build's `model-gateway`: dist/src/main.js beside the compiled fleet, with the flags it is served with. */
export function gatewayCommand(): GatewayCommand {
  return { execPath: process.execPath, args: [...SERVE_NODE_FLAGS, fileURLToPath(new URL('../../main.js', import.meta.url))], env: {} };
}

export interface GatewayProcessOptions {
  readonly name: string;
  readonly port: number;
  readonly command: GatewayCommand;
  /** The whole environment of the child (nothing is inherited beyond it). */
  readonly env: Readonly<Record<string, string>>;
  /** Its own process group: a Ctrl-C at the terminal reaches the fleet alone, which then stops the instances in order. */
  readonly detached?: boolean;
  /** Every line the child writes (its JSON log on stdout, anything on stderr). */
  readonly onLine?: (name: string, line: string) => void;
  readonly startTimeoutMs?: number;
}

const TAIL_BYTES = 16 * 1024;

export class GatewayProcess {
  private child: ChildProcess | null = null;
  private exited: Promise<number | null> = Promise.resolve(null);
  private tailText = '';

  constructor(private readonly opts: GatewayProcessOptions) {}

  get name(): string {
    return this.opts.name;
  }

  get port(): number {
    return this.opts.port;
  }

  get pid(): number | null {
    return this.running ? (this.child?.pid ?? null) : null;
  }

  get running(): boolean {
    return this.child !== null && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** The newest output, for the message of a failed start. */
  tail(): string {
    return this.tailText;
  }

  /** Starts the process and resolves once it answers /healthz; rejects (and kills it) when it exits or hangs first. */
  async start(): Promise<void> {
    if (this.running) throw new Error(`${this.name} is already running`);
    const { command, env, detached = false, startTimeoutMs = 60_000 } = this.opts;
    const child = spawn(command.execPath, [...command.args, 'serve'], { env: { ...command.env, ...env, PORT: String(this.port) }, detached, stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    this.exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
    for (const stream of [child.stdout!, child.stderr!]) {
      createInterface({ input: stream }).on('line', (line) => {
        this.keep(line);
        this.opts.onLine?.(this.name, line);
      });
    }
    // Asked over HTTP rather than read from the log: LOG_LEVEL may hide the "listening" line.
    const deadline = performance.now() + startTimeoutMs;
    while (!(await answersHealthz(this.port))) {
      if (!this.running) throw new Error(`${this.name} exited (code ${child.exitCode}) before it listened:\n${this.tailText}`);
      if (performance.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`${this.name} did not listen within ${startTimeoutMs} ms:\n${this.tailText}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** Sends the signal and resolves with the exit code once the process is gone (null: ended by the signal). */
  stop(signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM'): Promise<number | null> {
    if (this.running) this.child!.kill(signal);
    return this.exited;
  }

  private keep(line: string): void {
    this.tailText = `${this.tailText}${line}\n`.slice(-TAIL_BYTES);
  }
}

/** /healthz, not /readyz: asking readiness would tell the instance a balancer watches it (server.ts, drain). */
function answersHealthz(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const req = httpGet({ host: '127.0.0.1', port, path: '/healthz', timeout: 1000 }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(false));
  });
}
