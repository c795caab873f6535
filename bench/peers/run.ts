// `npm run bench:peers`: our gateway against the npm-published peer gateway on the same simulator, in
// one run: the chat scenario (non-streamed; the peer's streaming path fails on Node 20) under load and
// at one connection, interleaved with the simulator direct and the bare pass-through.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Window } from '../measure.js';
import { measureWindow } from '../measure.js';
import { parseOptions, UsageError } from '../options.js';
import type { ProbeTarget } from '../phases/latency.js';
import { oneConnectionLatency } from '../phases/latency.js';
import { rotate } from '../phases/scenarios.js';
import { machine } from '../report.js';
import { combineWindows, MiB, round } from '../results.js';
import type { TargetResult } from '../results.js';
import type { Scenario } from '../scenarios.js';
import { buildScenarios } from '../scenarios.js';
import type { Endpoint } from '../targets.js';
import { requestFor, startProcesses, targetOf, UPSTREAM_KEY } from '../targets.js';
import { installPeer, PEER_PACKAGE, PEER_VERSION, peerRequest, startPeer } from './peer.js';
import type { PeerProcess } from './peer.js';

type Name = 'direct' | 'passthrough' | 'gateway' | 'peer';
const NAMES: readonly Name[] = ['direct', 'passthrough', 'gateway', 'peer'];

interface Contender {
  endpoint: Endpoint;
  scenario: Scenario;
}

async function main(): Promise<number> {
  const opts = parseOptions(process.argv.slice(2), process.env);
  const log = opts.verbose ? (line: string) => process.stderr.write(`[bench:peers] ${line}\n`) : () => {};
  const dir = mkdtempSync(join(tmpdir(), 'mgw-peers-'));
  log(`installing ${PEER_PACKAGE}@${PEER_VERSION} into ${dir}`);
  const entry = await installPeer(dir);
  const p = await startProcesses({ logLevel: opts.logLevel, gatewayEnv: opts.gatewayEnv, profileDir: null });
  let peer: PeerProcess | null = null;
  try {
    peer = await startPeer(dir, entry);
    const chat = buildScenarios({ gatewayKey: p.gatewayKey, upstreamKey: UPSTREAM_KEY }).find((s) => s.name === 'chat')!;
    const contenders: Record<Name, Contender> = {
      direct: { endpoint: targetOf(p, 'direct'), scenario: chat },
      passthrough: { endpoint: targetOf(p, 'passthrough'), scenario: chat },
      gateway: { endpoint: targetOf(p, 'gateway'), scenario: chat },
      peer: { endpoint: { url: peer.url, proxy: null, kind: 'gateway' }, scenario: { ...chat, gateway: peerRequest(chat.gateway, p.simulator.url, UPSTREAM_KEY) } },
    };
    log(`simulator ${p.simulator.url}, pass-through ${p.passthrough.url}, gateway ${p.gateway.url}, peer ${peer.url}`);

    const windows: Record<Name, Window[]> = { direct: [], passthrough: [], gateway: [], peer: [] };
    const peerCpu = { us: 0, answered: 0 };
    const window = async (name: Name, seconds: number) => {
      const before = peer!.cpuUs();
      const w = await measureWindow(p, contenders[name].endpoint, contenders[name].scenario, opts.connections, seconds);
      if (name === 'peer') {
        peerCpu.us += peer!.cpuUs() - before;
        peerCpu.answered += w.answered;
      }
      return w;
    };
    if (opts.warmupSec > 0) for (const name of NAMES) await window(name, opts.warmupSec);
    peerCpu.us = 0;
    peerCpu.answered = 0;
    for (let r = 0; r < opts.rounds; r++) {
      for (const name of rotate(NAMES, r)) {
        const w = await window(name, opts.durationSec);
        windows[name].push(w);
        log(`chat round ${r + 1} ${name}: ${round(w.load.rps, 0)} req/s${w.load.unexpected > 0 ? `, ${w.load.unexpected} unexpected` : ''}`);
      }
    }
    const load = Object.fromEntries(NAMES.map((n) => [n, combineWindows(windows[n])])) as Record<Name, TargetResult>;
    const latency = await oneConnection(contenders, opts.probeSec, opts.rounds);
    const results = {
      startedAt: new Date().toISOString(),
      machine: machine(),
      peer: `${PEER_PACKAGE}@${PEER_VERSION}`,
      options: opts,
      load,
      peerProcess: { cpuUsPerRequest: round(peerCpu.us / peerCpu.answered, 1), rssMiB: round(peer.rssBytes() / MiB, 1) },
      latency,
      targets: {
        throughputVsPeer: round(load.gateway.rps / load.peer.rps, 2),
        addedP99VsPeer: round(latency.added.gateway.p99 / latency.added.peer.p99, 3),
      },
    };
    mkdirSync(opts.resultsDir, { recursive: true });
    const file = join(opts.resultsDir, `peers-${results.startedAt.replace(/[:.]/g, '-')}.json`);
    writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
    process.stdout.write(`${markdown(results)}\n\nResults: ${file}\n`);
    return 0;
  } finally {
    await peer?.stop();
    await p.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One-connection latency at each contender, warmed up with at most 300 requests each. */
function oneConnection(contenders: Record<Name, Contender>, probeSec: number, rounds: number) {
  const probed = (name: Name) => {
    const { endpoint, scenario } = contenders[name];
    return { url: endpoint.url, request: requestFor(scenario, endpoint.kind), expectStatus: 200 };
  };
  const probes = Object.fromEntries(NAMES.map((n) => [n, probed(n)])) as Record<Name, ProbeTarget>;
  return oneConnectionLatency(probes, NAMES, { probeSec, rounds, warmupRequests: 300 });
}

type PeersResults = {
  machine: ReturnType<typeof machine>;
  peer: string;
  options: { connections: number; durationSec: number; rounds: number };
  load: Record<Name, TargetResult>;
  peerProcess: { cpuUsPerRequest: number; rssMiB: number };
  latency: Awaited<ReturnType<typeof oneConnection>>;
  targets: { throughputVsPeer: number; addedP99VsPeer: number };
};

function markdown(r: PeersResults): string {
  const m = r.machine;
  const cpu = (n: Name) => (n === 'peer' ? r.peerProcess.cpuUsPerRequest : (r.load[n].proxy?.cpuUsPerRequest ?? '-'));
  const out = [
    `Peer: ${r.peer}. Machine: ${m.cpu}, ${m.cores} cores, Node ${m.node}. chat, non-streamed; ${r.options.connections} connections, ${r.options.durationSec} s × ${r.options.rounds} rounds each.`,
    '',
    '| chat, non-streamed | req/s | p50 / p99 ms under load | CPU µs/req | one connection p50 / p99 ms | added over direct p50 / p99 ms |',
    '|---|---:|---|---:|---|---|',
  ];
  for (const n of NAMES) {
    const t = r.load[n];
    const l = r.latency.targets[n];
    const added = n === 'direct' ? '-' : `+${r.latency.added[n].p50} / +${r.latency.added[n].p99}`;
    out.push(`| ${n} | ${round(t.rps, 0)} | ${round(t.latencyMs.p50, 2)} / ${round(t.latencyMs.p99, 2)} | ${cpu(n)} | ${round(l.p50, 3)} / ${round(l.p99, 3)} | ${added} |`);
  }
  const t = r.targets;
  out.push('', '| target | goal | measured | |', '|---|---|---|---|');
  out.push(`| our throughput / the peer's | ≥ 5 | ${t.throughputVsPeer} | ${t.throughputVsPeer >= 5 ? 'met' : '**missed**'} |`);
  out.push(`| our added p99 / the peer's | ≤ 0.2 | ${t.addedP99VsPeer} | ${t.addedP99VsPeer <= 0.2 ? 'met' : '**missed**'} |`);
  return out.join('\n');
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(err instanceof UsageError ? `${err.message}\n` : `bench:peers failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = err instanceof UsageError ? 2 : 1;
  },
);
