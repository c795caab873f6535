// Top-level members removed and added by editing bytes: every kept byte stays as it came, the result
// parses to the edited object, and the walk over the top level is the same on a string and on bytes.
import t from 'tap';
import fc from 'fast-check';
import { editMembers } from '../../../../src/lib/json/edit-members.js';
import { memberName, topLevelMembers } from '../../../../src/lib/json/top-level-members.js';

const edit = (text: string, remove: string[], add: Array<[string, unknown]> = []) => editMembers(Buffer.from(text, 'utf8'), { remove, addIfAbsent: add }).toString('utf8');

// [name, body, remove, add, expected bytes]
const CASES: Array<[string, string, string[], Array<[string, unknown]>, string]> = [
  ['first member removed', '{"model":"m","max_tokens":5}', ['model'], [], '{"max_tokens":5}'],
  ['middle member removed', '{"a":1,"model":"m","b":2}', ['model'], [], '{"a":1,"b":2}'],
  ['last member removed', '{"a":1,"stream":true}', ['stream'], [], '{"a":1}'],
  ['two neighbours removed', '{"model":"m","stream":true,"a":1}', ['model', 'stream'], [], '{"a":1}'],
  ['every member removed', '{"model":"m","stream":false}', ['model', 'stream'], [], '{}'],
  ['a member added after the last', '{"a":1}', [], [['anthropic_version', 'v']], '{"a":1,"anthropic_version":"v"}'],
  ['added to an empty object', '{}', [], [['v', 1], ['w', [2]]], '{"v":1,"w":[2]}'],
  ['removed and added', '{"model":"m","a":1}', ['model'], [['v', 'x']], '{"a":1,"v":"x"}'],
  ['not added when present', '{"anthropic_version":"mine","a":1}', [], [['anthropic_version', 'theirs']], '{"anthropic_version":"mine","a":1}'],
  [
    'whitespace, escapes and number spellings kept',
    '{\n  "model" : "m",\n  "temperature": 1.0E0,\n  "s": "a\\"b\\\\",\n  "x": {"model": 1}\n}\n',
    ['model'],
    [['v', 1]],
    '{\n  "temperature": 1.0E0,\n  "s": "a\\"b\\\\",\n  "x": {"model": 1},"v":1\n}\n',
  ],
  ['a name written with escapes is the same name', '{"mod\\u0065l":"m","a":1}', ['model'], [], '{"a":1}'],
  ['non-ASCII text kept byte for byte', '{"model":"m","t":"été 😀 \\ud83d\\ude00"}', ['model'], [], '{"t":"été 😀 \\ud83d\\ude00"}'],
];

for (const [name, body, remove, add, expected] of CASES) {
  t.test(name, async (t) => {
    t.equal(edit(body, remove, add), expected);
  });
}

t.test('nothing to change gives back the same buffer', async (t) => {
  const body = Buffer.from('{"a":1}');
  t.equal(editMembers(body, { remove: ['model'] }), body);
});

t.test('the scan finds the same members in a string and in its UTF-8 bytes', async (t) => {
  const text = '{"é":"😀","b":[1,{"c":"}"}],"d":null}';
  const bytes = Buffer.from(text, 'utf8');
  t.same(topLevelMembers(text).members.map((m) => memberName(text, m)), ['é', 'b', 'd']);
  t.same(topLevelMembers(bytes).members.map((m) => memberName(bytes, m)), ['é', 'b', 'd']);
});

function byName(o: Record<string, unknown>): Array<[string, unknown]> {
  return Object.entries(o).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

t.test('on generated objects the edit equals parse, delete, add', async (t) => {
  const key = fc.constantFrom('model', 'stream', 'a', 'mod\\u0065l', 'x"y', 'é');
  const value = fc.jsonValue({ maxDepth: 2 });
  const space = fc.constantFrom('', ' ', '\n  ');
  fc.assert(
    fc.property(fc.array(fc.tuple(key, value, space), { maxLength: 6 }), space, (members, end) => {
      const text = `{${members.map(([k, v, s]) => `${s}"${k.replace(/"/g, '\\"')}"${s}:${s}${JSON.stringify(v)}${s}`).join(',')}${end}}`;
      const expected = JSON.parse(text) as Record<string, unknown>;
      delete expected.model;
      delete expected.stream;
      if (!('v' in expected)) expected.v = 'added';
      const out = JSON.parse(edit(text, ['model', 'stream'], [['v', 'added']])) as Record<string, unknown>;
      // JSON.parse keeps the last of two equal names; the edit keeps them all, so compare the same way.
      // Sorted by name: a default sort would turn each value into a string, and a generated value such as
      // {"toString":""} cannot be.
      return JSON.stringify(byName(out)) === JSON.stringify(byName(expected));
    }),
    { numRuns: 1000 },
  );
  t.pass('1000 generated bodies agree');
});

t.test('set: a value replaced in place, every other byte kept; absent, appended; unchanged, the same Buffer', async (t) => {
  const cases: Array<[string, string, string]> = [
    ['in place', '{"model":"claude-sonnet-4-6", "max_tokens":5}', '{"model":"claude-sonnet-4-6-eu", "max_tokens":5}'],
    ['spacing around the colon kept', '{ "a":1 , "model" :  "x" }', '{ "a":1 , "model" :  "claude-sonnet-4-6-eu" }'],
    ['escaped name', '{"\\u006dodel":"x"}', '{"\\u006dodel":"claude-sonnet-4-6-eu"}'],
    ['absent: appended', '{"a":1}', '{"a":1,"model":"claude-sonnet-4-6-eu"}'],
    ['nested members of the same name left alone', '{"o":{"model":1},"model":2}', '{"o":{"model":1},"model":"claude-sonnet-4-6-eu"}'],
  ];
  for (const [name, input, want] of cases) t.equal(editMembers(Buffer.from(input), { set: [['model', 'claude-sonnet-4-6-eu']] }).toString(), want, name);
  const same = Buffer.from('{"model":"x"}');
  t.equal(editMembers(same, { set: [['model', 'x']] }), same);
  t.equal(editMembers(Buffer.from('{"model":"x","stream":true}'), { remove: ['stream', 'model'], set: [['model', 'y']] }).toString(), '{"model":"y"}', 'set wins over remove');
});
