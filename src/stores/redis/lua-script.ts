// A server-side script and its SHA-1, so the client can run it by hash (EVALSHA) and send the source only
// when the server does not know it yet. Every fleet counter (rate limits, budgets, throttles) runs
// its scripts through this one shape.
import { createHash } from 'node:crypto';

export interface LuaScript {
  readonly source: string;
  readonly sha1: string;
}

export function luaScript(source: string): LuaScript {
  return { source, sha1: createHash('sha1').update(source).digest('hex') };
}

/** What runs a script: the guarded client, or a test's counting wrapper around it. */
export interface ScriptRunner {
  evalScript(script: LuaScript, keys: string[], args: string[]): Promise<unknown>;
}
