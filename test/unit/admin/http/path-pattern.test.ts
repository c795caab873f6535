import t from 'tap';
import { compilePattern } from '../../../../src/admin/http/path-pattern.js';

t.test('patterns match whole paths and decode parameters', async (t) => {
  const cases: Array<[string, string, Record<string, string> | null]> = [
    ['/customers', '/customers', {}],
    ['/customers', '/customers/', null],
    ['/customers/:customerId', '/customers/cus_1', { customerId: 'cus_1' }],
    ['/customers/:customerId', '/customers/', null],
    ['/customers/:customerId/keys/:keyId', '/customers/a%20b/keys/k1', { customerId: 'a b', keyId: 'k1' }],
    ['/customers/:customerId/keys', '/customers/c/users', null],
    ['/customers/:customerId', '/customers/%E0%A4%A', null],
  ];
  for (const [pattern, path, expected] of cases) t.same(compilePattern(pattern)(path), expected, `${pattern} ${path}`);
});
