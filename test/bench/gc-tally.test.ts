// The bench's garbage-collection figures: V8's GC profile tallied by kind, the pauses summed, and what
// the scavenges promoted read from the old generation's growth across each; then per request over a
// target's windows. The last test reads a real profile of this process.
import t from 'tap';
import { GCProfiler } from 'node:v8';
import { addGcProfile, emptyGcTally, sumGcTallies, type GcTally } from '../../bench/gc-tally.js';
import { summarizeProcess } from '../../bench/results.js';
import type { ProcessStats } from '../../bench/ipc.js';

type Stat = Parameters<typeof addGcProfile>[1]['statistics'][number];

function space(name: string, used: number) {
  return { spaceName: name, spaceSize: 0, spaceUsedSize: used, spaceAvailableSize: 0, physicalSpaceSize: 0 };
}

function gcOf(gcType: string, cost: number, before: [number, number], after: [number, number]): Stat {
  const heap = {} as Stat['beforeGC']['heapStatistics'];
  const spaces = ([old, large]: [number, number]) => [space('new_space', 999), space('old_space', old), space('large_object_space', large), space('code_space', 5)];
  return { gcType, cost, beforeGC: { heapStatistics: heap, heapSpaceStatistics: spaces(before) }, afterGC: { heapStatistics: heap, heapSpaceStatistics: spaces(after) } };
}

t.test('addGcProfile, table-driven', async (t) => {
  const cases: Array<[string, Stat[], GcTally]> = [
    ['nothing ran', [], emptyGcTally()],
    ['a scavenge promoting into the old and large-object spaces', [gcOf('Scavenge', 800, [1000, 0], [1500, 200])], { scavenges: 1, fullCollections: 0, pauseUs: 800, promotedBytes: 700 }],
    ['a full collection shrinks the old space: nothing counted as promoted', [gcOf('MarkSweepCompact', 3000, [5000, 0], [1000, 0])], { scavenges: 0, fullCollections: 1, pauseUs: 3000, promotedBytes: 0 }],
    ['a scavenge while the sweeper freed more than it promoted: never below 0', [gcOf('Scavenge', 100, [2000, 0], [1900, 0])], { scavenges: 1, fullCollections: 0, pauseUs: 100, promotedBytes: 0 }],
    [
      'marking steps and weak callbacks count as pauses only',
      [gcOf('IncrementalMarking', 50, [0, 0], [0, 0]), gcOf('ProcessWeakCallbacks', 5, [0, 0], [0, 0]), gcOf('Scavenge', 10, [0, 0], [64, 0])],
      { scavenges: 1, fullCollections: 0, pauseUs: 65, promotedBytes: 64 },
    ],
  ];
  for (const [name, statistics, want] of cases) {
    const tally = emptyGcTally();
    addGcProfile(tally, { statistics });
    t.same(tally, want, name);
  }
});

t.test('sumGcTallies, and per request in a target summary', async (t) => {
  const a: GcTally = { scavenges: 3, fullCollections: 1, pauseUs: 900, promotedBytes: 30_000 };
  const b: GcTally = { scavenges: 2, fullCollections: 0, pauseUs: 100, promotedBytes: 0 };
  t.same(sumGcTallies([a, b]), { scavenges: 5, fullCollections: 1, pauseUs: 1000, promotedBytes: 30_000 });
  const stats = (gc: GcTally): ProcessStats => ({ rssBytes: 0, rssPeakBytes: 0, heapUsedBytes: 0, eldP50Ms: 0, eldP99Ms: 0, eldMaxMs: 0, cpuUs: 1000, wallMs: 1, inFlightPeak: 0, gc });
  t.same(summarizeProcess([[stats(a), 600], [stats(b), 400]]).gc, { scavenges: 5, fullCollections: 1, pauseUsPerRequest: 1, promotedBytesPerRequest: 30 });
  t.ok(Number.isNaN(summarizeProcess([[stats(a), 0]]).gc.promotedBytesPerRequest), 'no requests: no per-request figure');
});

t.test('a real profile: objects kept across scavenges are counted as promoted', async (t) => {
  const profiler = new GCProfiler();
  profiler.start();
  const kept: object[] = [];
  // ~40 MB of small objects, every one kept: the young generation fills several times over.
  for (let i = 0; i < 1_000_000; i++) kept.push({ i, pad: [i, i + 1, i + 2] });
  const tally = emptyGcTally();
  addGcProfile(tally, profiler.stop());
  t.ok(tally.scavenges >= 1, `${tally.scavenges} scavenges`);
  t.ok(tally.promotedBytes > 1_000_000, `${tally.promotedBytes} bytes promoted`);
  t.ok(tally.pauseUs > 0);
  t.equal(kept.length, 1_000_000);
});
