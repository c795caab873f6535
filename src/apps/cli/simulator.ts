// `model-gateway simulator`: the provider simulator as a standalone server, for demos and
// out-of-process benchmarks. Runs until SIGINT or SIGTERM, then closes and exits 0.
import { AccountsFileError, readAccountsFile } from '../simulator/accounts-file.js';
import { startSimulator } from '../simulator/index.js';
import type { AccountOptions } from '../simulator/index.js';
import { generateServiceAccount, writeServiceAccountFile } from '../simulator/vertex/service-account-file.js';
import { ArgError, MAX_PORT, nonNegativeIntegerArg, parseCommandArgs, processIo, runCommand, type CliIo } from '../args.js';
import { untilStopped, type SignalSource } from './signals.js';

const USAGE =
  'model-gateway simulator [--port 9099] [--host 127.0.0.1] [--ttft-ms N] [--tokens-per-second N] [--reply-tokens N] [--accounts-file <json>] [--vertex-credentials-out <path>]';

const OPTIONS = {
  port: { type: 'string' },
  host: { type: 'string' },
  'ttft-ms': { type: 'string' },
  'tokens-per-second': { type: 'string' },
  'reply-tokens': { type: 'string' },
  'accounts-file': { type: 'string' },
  'vertex-credentials-out': { type: 'string' },
} as const;

async function accountsOf(file: string | undefined): Promise<AccountOptions> {
  if (file === undefined) return {};
  try {
    return await readAccountsFile(file);
  } catch (err) {
    // A file that does not say what the simulator needs is a bad argument, as a bad flag is.
    if (err instanceof AccountsFileError || (err as Error).name === 'ServiceAccountError') throw new ArgError((err as Error).message);
    throw err;
  }
}

export async function runSimulator(argv: string[], io: CliIo = processIo, signals: SignalSource = process): Promise<number> {
  return runCommand(io, 'simulator', async () => {
    const { values } = parseCommandArgs(argv, OPTIONS, USAGE);
    const port = nonNegativeIntegerArg('port', values.port, 9099, MAX_PORT);
    const host = values.host ?? '127.0.0.1';
    const accounts = await accountsOf(values['accounts-file']);
    // A fresh service account the simulator knows, its key file written once the token URL is known.
    const generated = values['vertex-credentials-out'] === undefined ? null : generateServiceAccount();
    if (generated !== null) accounts.vertex = [...(accounts.vertex ?? []), { id: 'vertex-local', clientEmail: generated.clientEmail, publicKey: generated.publicKeyPem }];
    const sim = await startSimulator({
      port,
      host,
      ttftMs: nonNegativeIntegerArg('ttft-ms', values['ttft-ms'], 0),
      tokensPerSecond: nonNegativeIntegerArg('tokens-per-second', values['tokens-per-second'], 0),
      replyTokens: nonNegativeIntegerArg('reply-tokens', values['reply-tokens'], 12),
      ...accounts,
    });
    const stopped = untilStopped(signals);
    try {
      if (generated !== null) await writeServiceAccountFile(values['vertex-credentials-out']!, generated, sim.tokenUrl);
    } catch (err) {
      await sim.close();
      throw err;
    }
    io.out(`simulator listening on ${sim.url}\n`);
    await stopped;
    await sim.close();
    return 0;
  });
}
