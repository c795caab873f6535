// The command-line flags every interleaved A/B tool takes (a target against another, round by round),
// and the run options they make: one place for their names and defaults.

export const AB_FLAGS = {
  rounds: { type: 'string', default: '6' },
  duration: { type: 'string', default: '4' },
  connections: { type: 'string', default: '32' },
  'no-write': { type: 'boolean', default: false },
} as const;

export interface AbRunOptions {
  rounds: number;
  durationSec: number;
  connections: number;
}

export function abRunOptions(values: { rounds: string; duration: string; connections: string }): AbRunOptions {
  return { rounds: Number(values.rounds), durationSec: Number(values.duration), connections: Number(values.connections) };
}
