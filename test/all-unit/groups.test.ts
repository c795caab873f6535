// The unit groups cover every unit file exactly once, and a group runner exists for every group.
import { existsSync } from 'node:fs';
import t from 'tap';
import { filesOfGroup, groupOf, UNIT_GROUP_COUNT, compiledTestFiles } from './groups.js';

t.test('every compiled unit file is in exactly one group', async (t) => {
  const files = compiledTestFiles();
  t.ok(files.length > 100, `found ${files.length} unit files`);
  const grouped = [];
  for (let g = 1; g <= UNIT_GROUP_COUNT; g++) {
    const share = filesOfGroup(g, files);
    t.ok(share.length > files.length / (UNIT_GROUP_COUNT * 2), `group ${g} has ${share.length} files, a fair share`);
    grouped.push(...share);
  }
  t.same(grouped.sort(), files);
});

t.test('a file keeps its group when other files come and go', async (t) => {
  const file = 'gateway/compose.test.js';
  t.equal(groupOf(file), groupOf(file));
  t.equal(filesOfGroup(groupOf(file), [file, 'a/new.test.js']).includes(file), true);
  t.ok(groupOf(file) >= 1 && groupOf(file) <= UNIT_GROUP_COUNT);
});

t.test('fixtures and helpers are not run as tests', async (t) => {
  t.notOk(compiledTestFiles().some((f) => f.includes('/fixtures/') || !f.endsWith('.test.js')));
});

t.test('a runner file for every group', async (t) => {
  for (let g = 1; g <= UNIT_GROUP_COUNT; g++) t.ok(existsSync(new URL(`./unit-${g}.test.js`, import.meta.url)), `unit-${g}.test.js`);
});
