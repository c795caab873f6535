// A top-level `model` or `stream` named twice is found however it is written; everything else passes.
import t from 'tap';
import fc from 'fast-check';
import { duplicateMember } from '../../../../src/lib/json/duplicate-members.js';
import { parseJsonObject } from '../../../../src/lib/json/json-object.js';

const check = (text: string) => duplicateMember(text);

t.test('a plain duplicate of either guarded member is found', async (t) => {
  t.equal(check('{"model":"a","max_tokens":5,"model":"b"}'), 'model');
  t.equal(check('{"stream":false,"model":"a","stream":true}'), 'stream');
  t.equal(check('{ "model" : "a" ,\n "model" : "a" }'), 'model', 'even with the same value, and whitespace around');
});

t.test('a duplicate written with \\u escapes is found (JSON.parse decodes member names)', async (t) => {
  t.equal(check('{"model":"a","mod\\u0065l":"b"}'), 'model');
  t.equal(check('{"\\u006d\\u006f\\u0064\\u0065\\u006c":"a","model":"b"}'), 'model');
  t.equal(check('{"stream":true,"\\u0073tream":false}'), 'stream');
  t.equal(check('{"stream":true,"\\u0073TREAM":false}'), null, 'names are case-sensitive');
});

t.test('a duplicate output budget is found (finding N7: the budget read one, the provider the other)', async (t) => {
  t.equal(check('{"model":"a","max_tokens":1,"messages":[],"max_tokens":100000}'), 'max_tokens');
  t.equal(check('{"model":"a","max_tokens":1,"max\\u005ftokens":100000}'), 'max_tokens', 'the underscore escaped');
  t.equal(check('{"max_completion_tokens":1,"max_completion_tokens":9}'), 'max_completion_tokens');
  t.equal(check('{"max_output_tokens":1,"max_output_\\u0074okens":9}'), 'max_output_tokens');
  t.equal(check('{"max_tokens":1,"max_completion_tokens":9}'), null, 'the two chat names once each');
});

t.test('bodies without a top-level duplicate pass', async (t) => {
  t.equal(check('{"model":"a","stream":true,"max_tokens":5}'), null);
  t.equal(check('{"model":"model","metadata":{"model":"x","stream":1}}'), null, 'the name as a value, and nested members, are not top-level members');
  t.equal(check('{"model":"a","tools":[{"input_schema":{"properties":{"model":{},"stream":{}}}}],"x":{"model":1}}'), null);
  t.equal(check('{"model":"a","messages":[{"role":"user","content":"say \\"model\\" and \\\\u0065 and \\"stream\\""}]}'), null);
  t.equal(check('{"model":"a","note":"\\\\","stream":true,"s":"\\u0065\\"model\\":1"}'), null, 'escaped backslashes and quotes inside strings');
  t.equal(check('{"a":{"model":1},"model":2,"b":[{"model":3}]}'), null);
});

t.test('the exact walk agrees with a reference on generated objects', async (t) => {
  const name = fc.constantFrom('model', 'stream', 'mod\\u0065l', '\\u0073tream', 'max_tokens', 'max\\u005ftokens', 'x"y', 'm\\\\');
  const value = fc.oneof(fc.string(), fc.constantFrom('"model"', 'model', '\\u006d', '{"model":1}'), fc.integer());
  const nested = fc.dictionary(fc.constantFrom('model', 'stream', 'a'), value);
  fc.assert(
    fc.property(fc.array(fc.tuple(name, fc.oneof(value, nested)), { maxLength: 8 }), (members) => {
      const text = `{${members.map(([k, v]) => `"${k.replace(/"/g, '\\"')}":${JSON.stringify(v)}`).join(',')}}`;
      const decoded = members.map(([k]) => JSON.parse(`"${k.replace(/"/g, '\\"')}"`) as string);
      const expected = ['model', 'stream', 'max_tokens'].filter((n) => decoded.filter((d) => d === n).length > 1);
      const found = check(text);
      if (expected.length === 0) return found === null;
      return found !== null && expected.includes(found);
    }),
    { numRuns: 2000 },
  );
  t.pass('2000 generated bodies agree');
});

t.test('parseJsonObject refuses a duplicate with the member as param, once per body', async (t) => {
  const refused = parseJsonObject(Buffer.from('{"model":"a","model":"b"}'), 64);
  t.same(refused, { ok: false, message: 'model: the request body names this member more than once.', param: 'model' });
  t.ok(parseJsonObject(Buffer.from('{"model":"a","model":"b"}'), null).ok, "the worker's second parse of the same bytes does not check again");
  t.ok(parseJsonObject(Buffer.from('{"model":"a","stream":true}'), 64).ok);
  const invalid = parseJsonObject(Buffer.from('{"model":"a","model":'), 64);
  t.same(invalid, { ok: false, message: 'The request body is not valid JSON.' }, 'invalid JSON is reported as such first');
});
