// The profile summary's arithmetic on a small hand-made profile.
import t from 'tap';
import { hotSpots, inclusiveTimes } from '../../bench/tools/profile-top.js';

const frame = (functionName: string, url: string) => ({ functionName, url, lineNumber: 0 });
// root → handle (src/a.js) → parse (src/b.js) → JSON.parse (native)
//                           → handle again (recursion) → parse
const profile = {
  nodes: [
    { id: 1, callFrame: frame('(root)', ''), children: [2] },
    { id: 2, callFrame: frame('handle', 'file:///x/dist/src/a.js'), children: [3, 5] },
    { id: 3, callFrame: frame('parse', 'file:///x/dist/src/b.js'), children: [4] },
    { id: 4, callFrame: frame('JSON.parse', ''), children: [] },
    { id: 5, callFrame: frame('handle', 'file:///x/dist/src/a.js'), children: [6] },
    { id: 6, callFrame: frame('parse', 'file:///x/dist/src/b.js'), children: [] },
  ],
  samples: [4, 4, 4, 2, 6, 1],
  timeDeltas: [1000, 1000, 1000, 1000, 1000, 1000],
};

t.test('self time by function and by file', async (t) => {
  const { byFunction, byFile, totalMs } = hotSpots(profile);
  t.equal(totalMs, 6);
  t.same(byFunction[0], { name: 'JSON.parse (native):1', selfMs: 3, share: 50 });
  t.same(byFile.find((h) => h.name === 'src/b.js'), { name: 'src/b.js', selfMs: 1, share: 16.7 });
});

t.test('inclusive time counts each sample once per function, recursion included', async (t) => {
  const incl = inclusiveTimes(profile, 'src/');
  t.same(incl.map((h) => [h.name, h.selfMs]), [
    ['handle src/a.js:1', 5],
    ['parse src/b.js:1', 4],
  ]);
});
