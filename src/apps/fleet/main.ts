#!/usr/bin/env node
// `npm run fleet -- --instances 3`: a local fleet in one command. N `serve` instances on this machine's
// PostgreSQL and Redis behind HAProxy, until Ctrl-C; then each instance drains (server.ts, drain),
// HAProxy stops and the temporary files go.
import { newAdminToken } from '../../config/admin-token.js';
import { MAX_PORT, nonNegativeIntegerArg, parseCommandArgs, positiveIntegerArg, processIo, runCommand, type CliIo } from '../args.js';
import { untilStopped, type SignalSource } from '../cli/signals.js';
import { ensurePostgresDatabase, migrateDatabase, shownDatabaseUrl } from './database.js';
import { gatewayCommand } from './gateway-process.js';
import { startLocalFleet } from './local-fleet.js';

const USAGE = 'npm run fleet -- [--instances 3] [--port 8080] [--host 127.0.0.1]';
const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/model_gateway_fleet';
const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';
const MAX_INSTANCES = 32;

type Env = Record<string, string | undefined>;

export async function runFleet(argv: string[], io: CliIo = processIo, env: Env = process.env, signals: SignalSource = process): Promise<number> {
  return runCommand(io, 'fleet', async () => {
    const { values } = parseCommandArgs(argv, { instances: { type: 'string' }, port: { type: 'string' }, host: { type: 'string' } }, USAGE);
    const instances = Math.min(positiveIntegerArg('instances', values.instances) ?? 3, MAX_INSTANCES);
    const port = nonNegativeIntegerArg('port', values.port, 8080, MAX_PORT);
    const host = values.host ?? '127.0.0.1';
    if (nonEmpty(env.GATEWAY_METRICS_PORT)) throw new Error('GATEWAY_METRICS_PORT would be the same port for every instance: unset it for the fleet');

    const databaseUrl = nonEmpty(env.DATABASE_URL) ?? DEFAULT_DATABASE_URL;
    if (!/^postgres(ql)?:\/\//.test(databaseUrl)) throw new Error('the fleet shares one PostgreSQL database: DATABASE_URL must be postgres://...');
    const generatedToken = nonEmpty(env.GATEWAY_ADMIN_TOKEN) === undefined ? newAdminToken() : null;
    const instanceEnv = definedOnly({
      ...env,
      DATABASE_URL: databaseUrl,
      REDIS_URL: nonEmpty(env.REDIS_URL) ?? DEFAULT_REDIS_URL,
      GATEWAY_ADMIN_TOKEN: generatedToken ?? env.GATEWAY_ADMIN_TOKEN,
      // Every request of every instance would otherwise be an access line here; LOG_LEVEL=info brings them back.
      LOG_LEVEL: nonEmpty(env.LOG_LEVEL) ?? 'warn',
    });

    const command = gatewayCommand();
    const shownUrl = shownDatabaseUrl(databaseUrl);
    io.out(`database ${shownUrl}: ${ensurePostgresDatabase(databaseUrl)}; ${migrateDatabase(command, instanceEnv)}\n`);
    io.out(`starting ${instances} instances and haproxy...\n`);
    const fleet = await startLocalFleet({
      instances,
      command,
      env: instanceEnv,
      bindHost: host,
      bindPort: port,
      detached: true,
      onLine: (name, line) => io.err(`[${name}] ${line}\n`),
    });
    const stopped = untilStopped(signals);
    io.out(
      [
        `model-gateway fleet: ${instances} instances (${fleet.instances.map((i) => `${i.name} :${i.port}`).join(', ')}) behind haproxy`,
        `  use:        ${fleet.url}   (messages: ${fleet.url}/gateway/v1/messages, chat: ${fleet.url}/gateway/openai/v1/chat/completions)`,
        `  a key:      DATABASE_URL=${shownUrl} node dist/src/main.js keys create --customer you`,
        `  dashboard:  ${fleet.url}/dashboard`,
        ...(generatedToken === null
          ? ['  admin token: GATEWAY_ADMIN_TOKEN from the environment']
          : [`  admin token (generated for this run, shown once; set GATEWAY_ADMIN_TOKEN to choose it): ${generatedToken}`]),
        `  health checks every ${fleet.check.interMs} ms on /readyz (out after ${fleet.check.fall} failures, back after ${fleet.check.rise}); drain delay ${fleet.drainDelayMs} ms`,
        '  Ctrl-C stops everything',
        '',
      ].join('\n'),
    );
    const signal = await stopped;
    io.out(`${signal}: draining the instances...\n`);
    await fleet.stop();
    io.out('fleet stopped\n');
    return 0;
  });
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}

function definedOnly(env: Env): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
}

void runFleet(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
