// The provider wants tool ids matching ^[a-zA-Z0-9_-]+$ and unique in the whole conversation.
// Other providers' ids (`Bash:12`, `call_x|fc_y`) and ids some clients reuse every turn (`call_0`)
// are rewritten here. Tool results refer to the id allocated for their call, so both sides agree.

import type { Warnings } from './invalid.js';

const VALID_ID = /^[a-zA-Z0-9_-]+$/;
const INVALID_CHARS = /[^a-zA-Z0-9_-]/g;

export class ToolIdAllocator {
  private readonly taken = new Set<string>();
  /** Next suffix to try per rewritten base, so thousands of reused ids cost no quadratic search. */
  private readonly nextSuffix = new Map<string, number>();

  constructor(private readonly warnings: Warnings) {}

  /** A provider-safe id for a tool call, never handed out twice; a rewrite adds a warning naming `param`. */
  allocate(original: string, param: string): string {
    let id = original;
    if (!VALID_ID.test(id) || this.taken.has(id)) {
      const base = original.replace(INVALID_CHARS, '_') || 'call';
      id = base;
      let n = this.nextSuffix.get(base) ?? 2;
      while (this.taken.has(id)) id = `${base}_${n++}`;
      this.nextSuffix.set(base, n);
      this.warnings.add('tool_id_rewritten', param);
    }
    this.taken.add(id);
    return id;
  }
}
