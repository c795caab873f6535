import t from 'tap';
import { keyLimitProblem } from '../../../../src/admin/api/key-limits.js';

t.test('a key stays within its customer limits', async (t) => {
  const both = { rpm: 100, tpm: 5000 };
  const cases: Array<[string, { rpm: number | null; tpm: number | null }, { rpm: number | null; tpm: number | null } | null, string | null]> = [
    ['customer without limits', { rpm: null, tpm: null }, null, null],
    ['within both', { rpm: 100, tpm: 5000 }, both, null],
    ['stricter', { rpm: 1, tpm: 1 }, both, null],
    ['rpm above', { rpm: 101, tpm: 5000 }, both, 'rpm'],
    ['tpm above', { rpm: 100, tpm: 5001 }, both, 'tpm'],
    ['no rpm while the customer has one', { rpm: null, tpm: 10 }, both, 'rpm'],
    ['no tpm while the customer has one', { rpm: 10, tpm: null }, both, 'tpm'],
    ['the customer limits rpm only', { rpm: 50, tpm: null }, { rpm: 100, tpm: null }, null],
    ['the customer limits tpm only, key unlimited rpm', { rpm: null, tpm: 99 }, { rpm: null, tpm: 100 }, null],
  ];
  for (const [name, requested, customer, param] of cases) t.equal(keyLimitProblem(requested, customer)?.param ?? null, param, name);
  t.equal(keyLimitProblem({ rpm: 500, tpm: 1 }, both)?.message, "Your customer's limit is 100 requests per minute: rpm 500 is above it; set at most 100.");
  t.equal(keyLimitProblem({ rpm: 1, tpm: null }, both)?.message, "Your customer's limit is 5000 tokens per minute: set tpm to at most 5000.");
});
