// `model-gateway simulator`: the provider simulator as a standalone server, for demos and
// out-of-process benchmarks. Runs until SIGINT or SIGTERM, then closes and exits 0.
import { startSimulator } from '../simulator/index.js';
import { MAX_PORT, nonNegativeIntegerArg, parseCommandArgs, processIo, runCommand, type CliIo } from '../args.js';
import { untilStopped, type SignalSource } from './signals.js';

const USAGE = 'model-gateway simulator [--port 9099] [--host 127.0.0.1] [--ttft-ms N] [--tokens-per-second N] [--reply-tokens N]';

const OPTIONS = {
  port: { type: 'string' },
  host: { type: 'string' },
  'ttft-ms': { type: 'string' },
  'tokens-per-second': { type: 'string' },
  'reply-tokens': { type: 'string' },
} as const;

export async function runSimulator(argv: string[], io: CliIo = processIo, signals: SignalSource = process): Promise<number> {
  return runCommand(io, 'simulator', async () => {
    const { values } = parseCommandArgs(argv, OPTIONS, USAGE);
    const port = nonNegativeIntegerArg('port', values.port, 9099, MAX_PORT);
    const host = values.host ?? '127.0.0.1';
    const sim = await startSimulator({
      port,
      host,
      ttftMs: nonNegativeIntegerArg('ttft-ms', values['ttft-ms'], 0),
      tokensPerSecond: nonNegativeIntegerArg('tokens-per-second', values['tokens-per-second'], 0),
      replyTokens: nonNegativeIntegerArg('reply-tokens', values['reply-tokens'], 12),
    });
    const stopped = untilStopped(signals);
    io.out(`simulator listening on ${sim.url}\n`);
    await stopped;
    await sim.close();
    return 0;
  });
}
