// Unit group 2 of 3: see groups.ts.
import t from 'tap';
import { runUnitGroup } from './groups.js';

// A third of the unit files in one process: tap's per-file timeout would be theirs together.
t.setTimeout(600_000);
await runUnitGroup(2);
