#!/usr/bin/env node
// Process entry: `model-gateway <command>`; every failure ends with a one-line reason on stderr.
type Command = (argv: string[]) => Promise<number>;

const COMMANDS: Record<string, () => Promise<Command>> = {
  serve: async () => (await import('./cli/serve.js')).runServe,
  keys: async () => {
    const { runKeys } = await import('./cli/keys.js');
    const { databaseUrlOf } = await import('./config/config.js');
    return (argv) => runKeys(argv, { databaseUrl: databaseUrlOf() });
  },
  usage: async () => {
    const { runUsage } = await import('./cli/usage.js');
    const { databaseUrlOf } = await import('./config/config.js');
    return (argv) => runUsage(argv, { databaseUrl: databaseUrlOf() });
  },
  simulator: async () => (await import('./cli/simulator.js')).runSimulator,
  proxy: async () => (await import('./cli/proxy.js')).runProxy,
};

const USAGE = `usage: model-gateway <command>
  serve                 start the gateway (default)
  keys create|list|revoke
  usage [--customer C] [--since DATE] [--json]
  proxy --gateway <url> [--port 3099] [--host 127.0.0.1]
  simulator [--port 9099]`;

async function main(argv: string[]): Promise<number> {
  const [first, ...rest] = argv;
  if (first === '--help' || first === '-h' || first === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const name = first === undefined || first.startsWith('-') ? 'serve' : first;
  const args = first === undefined || first.startsWith('-') ? argv : rest;
  const load = COMMANDS[name];
  if (load === undefined) {
    process.stderr.write(`model-gateway: unknown command "${name}"\n${USAGE}\n`);
    return 2;
  }
  return (await load())(args);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    const message = err instanceof Error ? err.message : String(err);
    process.stderr.write(`model-gateway: ${message.split('\n')[0]}\n`);
    process.exitCode = 1;
  },
);
