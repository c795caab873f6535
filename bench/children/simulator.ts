// Child process: the provider simulator with zero latency, answering as fast as it can.
import { startSimulator } from '../../src/apps/simulator/index.js';
import { failStart, send, serveStats } from './stats.js';

interface SimulatorArgs {
  apiKey: string;
  replyTokens: number;
}

async function main(): Promise<void> {
  const args = JSON.parse(process.argv[2] ?? '{}') as SimulatorArgs;
  const simulator = await startSimulator({
    port: 0,
    host: '127.0.0.1',
    apiKey: args.apiKey,
    replyTokens: args.replyTokens,
    ttftMs: 0,
    tokensPerSecond: 0,
  });
  serveStats({
    configure: ({ tokensPerSecond, streamChunkBytes }) =>
      simulator.setOptions({ tokensPerSecond, ...(streamChunkBytes === undefined ? {} : { streamChunkBytes: streamChunkBytes ?? undefined }) }),
    close: () => simulator.close(),
  });
  send({ type: 'ready', url: simulator.url });
}

main().catch(failStart);
