import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createBudget } from '../../../../src/server/monitoring/relay/budget.ts';

test('leases should share one budget, grow as bytes arrive, and give them back', () => {
  const budget = createBudget({ maxBytes: 100, perClientBytes: 100 });
  const a = budget.lease('192.0.2.1');
  const b = budget.lease('192.0.2.2');
  assert.equal(a.reserve(60), null);
  assert.equal(a.reserve(40), null, 'a smaller total is already covered');
  assert.equal(b.reserve(50), 'budget', 'over the budget: nothing taken');
  assert.equal(budget.used(), 60);
  assert.equal(b.reserve(40), null);
  assert.equal(budget.used(), 100);
  a.release();
  assert.equal(budget.used(), 40);
  assert.equal(b.reserve(90), null);
  b.release();
  b.release();
  assert.equal(budget.used(), 0, 'releasing twice gives back nothing more');
});

test('one client should hold at most its share, across all of its leases, while others still fit', () => {
  const budget = createBudget({ maxBytes: 100, perClientBytes: 30 });
  const first = budget.lease('192.0.2.1');
  const second = budget.lease('192.0.2.1');
  assert.equal(first.reserve(20), null);
  assert.equal(second.reserve(11), 'client', 'the two leases together would pass the share');
  assert.equal(second.reserve(10), null);
  assert.equal(budget.heldBy('192.0.2.1'), 30);
  assert.equal(budget.lease('192.0.2.2').reserve(30), null, 'another client has a share of its own');
  first.release();
  assert.equal(second.reserve(30), null, 'a released lease frees the share');
  second.release();
  assert.equal(budget.heldBy('192.0.2.1'), 0);
  assert.equal(budget.used(), 30);
});
