// The one line the CLI and the Audit page show for a row: changed fields as before → after, the fields
// set at a creation, the fields a removed thing had, nothing for a sign-in.
import t from 'tap';
import { describeChange } from '../../../../src/admin/audit/describe-change.js';

const budget = { amountUsd: '25.00', period: 'month', mode: 'hard' };

const CASES: Array<[string, Record<string, unknown> | null, Record<string, unknown> | null, string]> = [
  ['nothing to show', null, null, ''],
  ['a creation lists what was set, not the empty fields', null, { name: 'ci', rpm: 60, tpm: null, budget }, 'name: "ci"; rpm: 60; budget: 25.00 USD per month (hard)'],
  ['a removal lists what it had', { email: 'ann@alpha.example' }, null, 'email: "ann@alpha.example"'],
  ['only the fields that differ', { rpm: null, tpm: 1000 }, { rpm: 600, tpm: 1000 }, 'rpm: none → 600'],
  ['a removed limit reads none', { rpm: 600, tpm: null }, { rpm: null, tpm: null }, 'rpm: 600 → none'],
  ['budgets in words', { budget: null }, { budget }, 'budget: none → 25.00 USD per month (hard)'],
  ['lists compared by value', { allowedModels: ['a', 'b'] }, { allowedModels: ['a', 'b'] }, ''],
  ['lists as JSON', { allowedModels: null }, { allowedModels: ['a'] }, 'allowedModels: none → ["a"]'],
  ['a field only on one side', { status: 'active' }, { status: 'revoked', revokedAt: 'x' }, 'status: "active" → "revoked"; revokedAt: none → "x"'],
  ['strings quoted, so a control character stays visible', null, { name: 'a\u001bb' }, 'name: "a\\u001bb"'],
];

for (const [name, before, after, expected] of CASES) {
  t.test(name, async (t) => {
    t.equal(describeChange(before, after), expected);
  });
}
