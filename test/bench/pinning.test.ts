// bench/pinning.ts on real processes: the measured ones get the last core, the others and the named
// servers the rest, and releasing gives the servers every core again.
import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { allowedCpus, pinMeasuredAlone } from '../../bench/pinning.js';

const sleeper = () => spawn('sleep', ['30'], { stdio: 'ignore' });

t.test('measured, others and a named server each on their cores; the server gets them all back', { skip: cpus().length < 2 ? 'one core' : false }, async (t) => {
  const last = cpus().length - 1;
  const all = `0-${last}`;
  const measured = sleeper();
  const other = sleeper();
  // A program of a name of its own stands for the machine's server (redis-server, postgres): pgrep -x
  // matches the program's name, at most 15 characters.
  const dir = mkdtempSync(join(tmpdir(), 'mgw-pin-'));
  const name = `mgwpin${process.pid}`.slice(0, 15);
  copyFileSync('/bin/sleep', join(dir, name));
  const server = spawn(join(dir, name), ['30'], { stdio: 'ignore' });
  t.teardown(() => {
    for (const child of [measured, other, server]) child.kill();
    rmSync(dir, { recursive: true, force: true });
  });
  await new Promise((resolve) => setTimeout(resolve, 200));
  const pinning = pinMeasuredAlone([measured.pid!], [other.pid!], [name]);
  const others = last === 1 ? '0' : `0-${last - 1}`;
  t.equal(allowedCpus(measured.pid!), String(last), 'the measured process has the last core');
  t.equal(allowedCpus(other.pid!), others, 'the others have the rest');
  t.equal(allowedCpus(server.pid!), others, 'so has the named server');
  pinning.release();
  t.equal(allowedCpus(server.pid!), all, 'released: the server may run anywhere again');
});

t.test('a pinned run writes a section of its own, titled and explained as pinned', async (t) => {
  const { pinnedVariant } = await import('../../bench/pinning.js');
  t.same(pinnedVariant('stores-cpu', 'bench/tools/stores-cpu.ts', false, 'PostgreSQL', 'the database'), {
    section: 'stores-cpu',
    title: ' (`bench/tools/stores-cpu.ts`)',
    note: [],
  });
  const pinned = pinnedVariant('stores-cpu', 'bench/tools/stores-cpu.ts', true, 'PostgreSQL', 'the database');
  t.equal(pinned.section, 'stores-cpu-pinned');
  t.equal(pinned.title, ', the gateway on a core of its own (`bench/tools/stores-cpu.ts --pin`)');
  t.match(pinned.note[0], /^Pinned \(`--pin`\): .* and PostgreSQL on the other, as with the database on a host of its own\.$/);
});
