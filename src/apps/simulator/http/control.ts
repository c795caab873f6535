// The control endpoint for out-of-process use (benchmarks, the CLI simulator):
//   POST   /_simulator/faults          {"fault": Fault, "count": n, "account": id}  (count, account optional)
//   DELETE /_simulator/faults
//   PATCH  /_simulator/options         Partial<SimulatorOptions>
//   POST   /_simulator/clock           {"advanceMs": n}: the simulator's clock moves ahead
//   POST   /_simulator/accounts/reset  {"id": id}: limits refilled, cache emptied (every account without id)
// Control requests are not recorded and consume no fault.
import type { ServerResponse } from 'node:http';
import { endJson } from '../../../lib/json-response.js';
import type { ModelInfo } from '../../../dialects/anthropic/wire.js';
import type { Fault, SimulatorOptions } from '../types.js';
import { parseFault } from './faults.js';

export interface Controls {
  /** Throws for an unknown account. */
  injectFault(fault: Fault, count?: number, account?: string): void;
  clearFaults(): void;
  setOptions(partial: Partial<SimulatorOptions>): void;
  advanceClock(ms: number): void;
  /** Throws for an unknown account. */
  resetAccounts(id?: string): void;
}

function answer(res: ServerResponse, status: number, reason?: string): void {
  if (reason === undefined) {
    res.writeHead(status, { 'content-length': 0 });
    res.end();
    return;
  }
  endJson(res, status, JSON.stringify({ error: reason }));
}

/** Runs a control that may refuse (an unknown account): 204, or 400 with its reason. */
function attempt(res: ServerResponse, control: () => void): void {
  try {
    control();
  } catch (err) {
    return answer(res, 400, (err as Error).message);
  }
  answer(res, 204);
}

function isModelInfo(v: unknown): v is ModelInfo {
  if (typeof v !== 'object' || v === null) return false;
  const m = v as Record<string, unknown>;
  return m.type === 'model' && typeof m.id === 'string' && typeof m.display_name === 'string' && typeof m.created_at === 'string';
}

const NUMBER_OPTIONS = ['ttftMs', 'tokensPerSecond', 'replyTokens', 'streamChunkBytes'] as const;

/** Checks options that arrived as JSON; returns them, or a one-line reason. */
export function parseOptions(v: unknown): Partial<SimulatorOptions> | string {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return 'options must be an object';
  const o = v as Record<string, unknown>;
  const out: Partial<SimulatorOptions> = {};
  for (const key of Object.keys(o)) {
    const value = o[key];
    if ((NUMBER_OPTIONS as readonly string[]).includes(key)) {
      if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) return `${key} must be a non-negative number`;
      out[key as (typeof NUMBER_OPTIONS)[number]] = value;
    } else if (key === 'apiKey') {
      if (value !== null && typeof value !== 'string') return 'apiKey must be a string or null';
      out.apiKey = value ?? undefined;
    } else if (key === 'record') {
      if (typeof value !== 'boolean') return 'record must be a boolean';
      out.record = value;
    } else if (key === 'models') {
      if (!Array.isArray(value) || !value.every(isModelInfo)) return 'models must be an array of ModelInfo objects';
      out.models = value;
    } else {
      return `unknown option: ${key}`;
    }
  }
  return out;
}

function parseBody(body: Buffer): unknown {
  try {
    return body.length === 0 ? {} : JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
}

export function handleControl(res: ServerResponse, method: string, path: string, body: Buffer, controls: Controls): void {
  const parsed = parseBody(body);
  if (parsed === undefined) return answer(res, 400, 'body is not valid JSON');
  if (path === '/_simulator/faults' && method === 'DELETE') {
    controls.clearFaults();
    return answer(res, 204);
  }
  if (path === '/_simulator/faults' && method === 'POST') {
    const o = parsed as { fault?: unknown; count?: unknown; account?: unknown };
    const fault = parseFault(o.fault);
    if (typeof fault === 'string') return answer(res, 400, fault);
    const count = o.count ?? 1;
    if (typeof count !== 'number' || !Number.isInteger(count) || count < 1) return answer(res, 400, 'count must be a positive integer');
    if (o.account !== undefined && typeof o.account !== 'string') return answer(res, 400, 'account must be a string');
    return attempt(res, () => controls.injectFault(fault, count, o.account as string | undefined));
  }
  if (path === '/_simulator/clock' && method === 'POST') {
    const ms = (parsed as { advanceMs?: unknown }).advanceMs;
    if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) return answer(res, 400, 'advanceMs must be a non-negative number');
    controls.advanceClock(ms);
    return answer(res, 204);
  }
  if (path === '/_simulator/accounts/reset' && method === 'POST') {
    const id = (parsed as { id?: unknown }).id;
    if (id !== undefined && typeof id !== 'string') return answer(res, 400, 'id must be a string');
    return attempt(res, () => controls.resetAccounts(id));
  }
  if (path === '/_simulator/options' && method === 'PATCH') {
    const options = parseOptions(parsed);
    if (typeof options === 'string') return answer(res, 400, options);
    controls.setOptions(options);
    return answer(res, 204);
  }
  answer(res, 404, `no control endpoint ${method} ${path}`);
}
