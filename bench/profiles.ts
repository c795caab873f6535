// Where the profiled processes write their V8 CPU profiles. Node writes one profile per thread (the
// gateway's translation pool, a module loader's thread), all under one --cpu-prof-name if one is given,
// so each would overwrite the other. Each process gets a folder of its own instead, and once it has
// exited its profiles are moved beside the others: `gateway-<time>.cpuprofile` for the main thread,
// `gateway-<time>-thread<N>.cpuprofile` for the others.
import { readdirSync, renameSync, rmdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Node's own name for a profile: CPU.<date>.<time>.<pid>.<thread id>.<sequence>.cpuprofile */
const NODE_PROFILE_NAME = /^CPU\.\d+\.\d+\.\d+\.(\d+)\.\d+\.cpuprofile$/;

export function profileFlags(profileDir: string, processName: string): string[] {
  return ['--cpu-prof', `--cpu-prof-dir=${join(profileDir, `${processName}-${Date.now()}`)}`];
}

/** Moves the profiles out of each process's folder (after the processes exited); returns their new paths. */
export function gatherProfiles(profileDir: string): string[] {
  const moved: string[] = [];
  for (const entry of readdirSync(profileDir)) {
    const folder = join(profileDir, entry);
    if (!statSync(folder).isDirectory()) continue;
    const files = readdirSync(folder);
    for (const file of files) {
      const m = NODE_PROFILE_NAME.exec(file);
      if (m === null) continue;
      const thread = Number(m[1]);
      const to = join(profileDir, thread === 0 ? `${entry}.cpuprofile` : `${entry}-thread${thread}.cpuprofile`);
      renameSync(join(folder, file), to);
      moved.push(to);
    }
    if (readdirSync(folder).length === 0) rmdirSync(folder);
  }
  return moved.sort();
}
