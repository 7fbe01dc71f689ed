import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createBudget } from '../../../src/server/relay/budget.ts';

test('leases should share one budget, grow as bytes arrive, and give them back', () => {
  const budget = createBudget(100);
  const a = budget.lease();
  const b = budget.lease();
  assert.equal(a.reserve(60), true);
  assert.equal(a.reserve(40), true, 'a smaller total is already covered');
  assert.equal(b.reserve(50), false, 'over the budget: nothing taken');
  assert.equal(budget.used(), 60);
  assert.equal(b.reserve(40), true);
  assert.equal(budget.used(), 100);
  a.release();
  assert.equal(budget.used(), 40);
  assert.equal(b.reserve(90), true);
  b.release();
  b.release();
  assert.equal(budget.used(), 0, 'releasing twice gives back nothing more');
});
