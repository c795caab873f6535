// A customer user's key budget stays within the customer's budget, compared by amount; operators are free.
import t from 'tap';
import { assertKeyBudgetWithinCustomer } from '../../../../src/admin/api/key-budget-ceiling.js';
import type { Actor } from '../../../../src/admin/auth/actor.js';
import type { Budget } from '../../../../src/keys/budget.js';

const USD = 1_000_000_000;
const user: Actor = { role: 'customer', customerId: 'cus_1', userId: 'u1', email: 'bo@acme.example' };
const operator: Actor = { role: 'operator' };
const budget = (usd: number, period: Budget['period'] = 'month', mode: Budget['mode'] = 'hard'): Budget => ({ amountNanoUsd: Math.round(usd * USD), period, mode });

t.test('who may give a key which budget', async (t) => {
  const cases: Array<[string, Actor | null, Budget | null, Budget | null, boolean]> = [
    ['a user, within the customer budget', user, budget(50), budget(100), true],
    ['a user, exactly the customer budget', user, budget(100), budget(100), true],
    ['a user, one nano-dollar above', user, { ...budget(100), amountNanoUsd: 100 * USD + 1 }, budget(100), false],
    ['a user, above', user, budget(250), budget(100), false],
    ['a user, above with another period', user, budget(150, 'total'), budget(100, 'month'), false],
    ['a user, a daily key budget under a monthly customer budget', user, budget(20, 'day'), budget(100, 'month'), true],
    ['a user, above a soft customer budget (it refuses nothing, so it caps nothing)', user, budget(250), budget(100, 'month', 'soft'), true],
    ['a user, no key budget: the customer budget applies', user, null, budget(100), true],
    ['a user, a customer without a budget', user, budget(9_000), null, true],
    ['the operator, above', operator, budget(250), budget(100), true],
    ['no actor (not an admin API call)', null, budget(250), budget(100), true],
  ];
  for (const [name, actor, requested, customer, allowed] of cases) {
    const thrown = (() => {
      try {
        assertKeyBudgetWithinCustomer(actor, requested, customer);
        return null;
      } catch (err) {
        return err;
      }
    })();
    t.equal(thrown === null, allowed, name);
    if (!allowed) t.match(thrown, { code: 'forbidden', param: 'budgetUsd' }, `${name}: 403 naming the field`);
  }
});

t.test('the message says the ceiling', async (t) => {
  t.throws(() => assertKeyBudgetWithinCustomer(user, budget(250), budget(100.5, 'day')), {
    message: "Your customer's budget is 100.50 USD per day: a key's budget of 250.00 USD is above it; set at most 100.50.",
  });
  t.throws(() => assertKeyBudgetWithinCustomer(user, budget(250), budget(100, 'total')), { message: /^Your customer's budget is 100\.00 USD in total:/ });
});
