// Each profiled process writes into a folder of its own; its profiles are then named after it, one per thread.
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { gatherProfiles, profileFlags } from '../../bench/profiles.js';

t.test('a folder per process, named after it', async (t) => {
  const [flag, dirFlag] = profileFlags('/r/profiles', 'gateway');
  t.equal(flag, '--cpu-prof');
  t.match(dirFlag, /^--cpu-prof-dir=\/r\/profiles\/gateway-\d{13}$/);
});

t.test('profiles move out of their folders: the main thread under the process name, other threads numbered', async (t) => {
  const dir = t.testdir({
    'gateway-100': {
      'CPU.20261124.142228.9167.0.001.cpuprofile': '{}',
      'CPU.20261124.142228.9167.1.002.cpuprofile': '{}',
      'notes.txt': 'kept',
    },
    'passthrough-99': { 'CPU.20261124.142228.9168.0.001.cpuprofile': '{}' },
    'gateway-50.cpuprofile': '{}',
  });
  const moved = gatherProfiles(dir);
  t.same(moved, [join(dir, 'gateway-100-thread1.cpuprofile'), join(dir, 'gateway-100.cpuprofile'), join(dir, 'passthrough-99.cpuprofile')]);
  t.same(readdirSync(dir).sort(), ['gateway-100', 'gateway-100-thread1.cpuprofile', 'gateway-100.cpuprofile', 'gateway-50.cpuprofile', 'passthrough-99.cpuprofile']);
  t.same(readdirSync(join(dir, 'gateway-100')), ['notes.txt'], 'a folder with other files stays');
  t.same(gatherProfiles(dir), [], 'nothing is moved twice');
  mkdirSync(join(dir, 'gateway-200'));
  writeFileSync(join(dir, 'gateway-200', 'CPU.20261124.142229.9170.0.001.cpuprofile'), '{}');
  t.same(gatherProfiles(dir), [join(dir, 'gateway-200.cpuprofile')]);
});
