// Any top-level member named twice is found however it is written (finding N7); nested members, names
// inside strings and bodies without a repeat pass.
import t from 'tap';
import fc from 'fast-check';
import { displayedMemberName, duplicateMember } from '../../../../src/lib/json/duplicate-members.js';
import { parseJsonObject } from '../../../../src/lib/json/json-object.js';
import { countTopLevelMembers } from '../../../../src/lib/json/top-level-members.js';

/** The check as parseJsonObject runs it: on valid JSON, told the parsed object's number of keys. */
const check = (text: string) => duplicateMember(text, Object.keys(JSON.parse(text) as object).length);

const REPEATED: [string, string, string][] = [
  ['model', '{"model":"a","max_tokens":5,"model":"b"}', 'plain'],
  ['model', '{ "model" : "a" ,\n "model" : "a" }', 'the same value, whitespace around'],
  ['stream', '{"stream":false,"model":"a","stream":true}', 'a boolean'],
  ['max_tokens', '{"model":"a","max_tokens":1,"messages":[],"max_tokens":100000}', 'the output budget'],
  ['max_completion_tokens', '{"max_completion_tokens":1,"max_completion_tokens":9}', 'the chat output budget'],
  ['max_output_tokens', '{"max_output_tokens":1,"max_output_\\u0074okens":9}', 'the responses output budget, escaped'],
  ['temperature', '{"temperature":0,"model":"a","temperature":2}', 'any member, not only the ones budgets read'],
  ['messages', '{"messages":[{"role":"user","content":"a"}],"messages":[]}', 'an array member'],
  ['system', '{"system":"x","model":"a","system":[{"type":"text","text":"y"}]}', 'values of different types'],
  ['tools', '{"tools":[],"a":{"tools":1},"tools":[{"name":"t"}]}', 'with the same name nested between'],
  ['model', '{"model":"a","mod\\u0065l":"b"}', 'one written with a \\u escape'],
  ['model', '{"\\u006d\\u006f\\u0064\\u0065\\u006c":"a","model":"b"}', 'every letter escaped'],
  ['max_tokens', '{"max_tokens":1,"max\\u005ftokens":100000}', 'the underscore escaped'],
  ['a/b', '{"a/b":1,"a\\/b":2}', 'the solidus escaped'],
  ['été', '{"\\u00e9t\\u00e9":1,"été":2}', 'a non-ASCII name, escaped once'],
  ['', '{"":1,"":2}', 'the empty name'],
  ['__proto__', '{"__proto__":1,"__proto__":{}}', '__proto__ is plain data'],
  ['z', '{"a":1,"b":2,"c":3,"z":4,"d":5,"z":6}', 'the repeat found after other members'],
];

const UNIQUE: [string, string][] = [
  ['{}', 'an empty object'],
  ['{"model":"a","stream":true,"max_tokens":5}', 'distinct members'],
  ['{"model":"model","metadata":{"model":"x","stream":1}}', 'the name as a value, and nested members'],
  ['{"model":"a","tools":[{"input_schema":{"properties":{"model":{},"stream":{}}}}],"x":{"model":1}}', 'members of nested objects repeat freely'],
  ['{"model":"a","messages":[{"role":"user","content":"say \\"model\\" and \\\\u0065 and \\",\\"model\\":\\""}]}', 'quotes and commas inside strings'],
  ['{"model":"a","note":"\\\\","stream":true,"s":"\\u0065\\"model\\":1"}', 'escaped backslashes and quotes'],
  ['{"stream":true,"\\u0073TREAM":false}', 'names are case-sensitive'],
  ['{"a":[1,2,[3,4,{"b":[5,6]}]],"b":{"c":{}},"c":[]}', 'commas inside nested arrays and objects'],
  [' \n{ "a" : 1 , "b" : [ ] }\n ', 'whitespace everywhere'],
];

t.test('a top-level member named twice is found, however it is written', async (t) => {
  for (const [name, text, why] of REPEATED) t.equal(check(text), name, why);
});

t.test('bodies without a top-level repeat pass', async (t) => {
  for (const [text, why] of UNIQUE) t.equal(check(text), null, why);
});

t.test('the member count agrees with the parsed keys on bodies without a repeat', async (t) => {
  for (const [text, why] of UNIQUE) t.equal(countTopLevelMembers(text), Object.keys(JSON.parse(text) as object).length, why);
  t.equal(countTopLevelMembers('{"a":1,"a":2,"a":3}'), 3, 'repeats are counted');
});

t.test('the check agrees with a reference on generated objects', async (t) => {
  const name = fc.oneof(fc.constantFrom('model', 'mod\\u0065l', 'max_tokens', 'max\\u005ftokens', 'x\\"y', 'm\\\\', 'a,b', '{'), fc.string({ maxLength: 3 }).map((s) => JSON.stringify(s).slice(1, -1)));
  const value = fc.oneof(fc.string(), fc.constantFrom('"model"', ',', '\\u006d', '{"model":1}'), fc.integer(), fc.constant(null));
  const nested = fc.dictionary(fc.constantFrom('model', 'a', ','), value);
  fc.assert(
    fc.property(fc.array(fc.tuple(name, fc.oneof(value, nested, fc.array(nested, { maxLength: 2 }))), { maxLength: 8 }), (members) => {
      const text = `{${members.map(([k, v]) => `"${k}":${JSON.stringify(v)}`).join(',')}}`;
      const decoded = members.map(([k]) => JSON.parse(`"${k}"`) as string);
      const repeated = decoded.filter((d, i) => decoded.indexOf(d) !== i);
      const found = check(text);
      return repeated.length === 0 ? found === null : found === repeated[0];
    }),
    { numRuns: 2000 },
  );
  t.pass('2000 generated bodies agree');
});

t.test('an error message shows a plain name as it is, anything else quoted and cut', async (t) => {
  t.equal(displayedMemberName('max_tokens'), 'max_tokens');
  t.equal(displayedMemberName('a\u001b[31mb'), '"a\\u001b[31mb"', 'a control character is escaped, never printed');
  t.equal(displayedMemberName(''), '""');
  t.equal(displayedMemberName('x'.repeat(500)), JSON.stringify(`${'x'.repeat(64)}…`), 'a long name is cut');
});

t.test('parseJsonObject refuses a duplicate with the member as param, once per body', async (t) => {
  const refused = parseJsonObject(Buffer.from('{"model":"a","model":"b"}'), 64);
  t.same(refused, { ok: false, message: 'model: the request body names this member more than once.', param: 'model' });
  t.same(parseJsonObject(Buffer.from('{"top_p":1,"top_p":0.5}'), 64), { ok: false, message: 'top_p: the request body names this member more than once.', param: 'top_p' });
  t.ok(parseJsonObject(Buffer.from('{"model":"a","model":"b"}'), null).ok, "the worker's second parse of the same bytes does not check again");
  t.ok(parseJsonObject(Buffer.from('{"model":"a","stream":true}'), 64).ok);
  const invalid = parseJsonObject(Buffer.from('{"model":"a","model":'), 64);
  t.same(invalid, { ok: false, message: 'The request body is not valid JSON.' }, 'invalid JSON is reported as such first');
});
