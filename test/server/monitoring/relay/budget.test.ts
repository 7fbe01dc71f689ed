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

/** A budget on a clock the test moves, with bodies slow after 1,000 ms; `cuts` records which leases were cut. */
function clocked({ maxBytes = 100, perClientBytes = 100 } = {}) {
  let time = 0;
  const cuts: string[] = [];
  const budget = createBudget({ maxBytes, perClientBytes, slowAfterMs: 1_000, now: () => time });
  return {
    budget,
    cuts,
    lease: (client: string, name: string) => budget.lease(client, () => cuts.push(name)),
    wait: (ms: number) => {
      time += ms;
    },
  };
}

test('when the budget is spent, the oldest body still arriving past the slow age is cut to make room', () => {
  const { budget, cuts, lease, wait } = clocked();
  const oldest = lease('192.0.2.1', 'oldest');
  assert.equal(oldest.reserve(40), null);
  wait(100);
  const older = lease('192.0.2.2', 'older');
  assert.equal(older.reserve(40), null);
  wait(1_000);
  const newcomer = lease('192.0.2.3', 'newcomer');
  assert.equal(newcomer.reserve(30), null, 'served: the oldest slow body gave way');
  assert.deepEqual(cuts, ['oldest'], 'one cut was room enough');
  assert.equal(budget.used(), 70);
  assert.equal(budget.heldBy('192.0.2.1'), 0);
  assert.equal(oldest.reserve(50), 'budget', 'a cut lease takes nothing more');
  oldest.release();
  assert.equal(budget.used(), 70, 'its bytes were given back once, at the cut');
});

test('a body younger than the slow age, a settled body and the asking body itself are never cut', () => {
  const { budget, cuts, lease, wait } = clocked();
  const settled = lease('192.0.2.1', 'settled');
  assert.equal(settled.reserve(30), null);
  settled.settle();
  const self = lease('192.0.2.2', 'self');
  assert.equal(self.reserve(30), null);
  wait(2_000);
  const young = lease('192.0.2.3', 'young');
  assert.equal(young.reserve(40), null);
  assert.equal(self.reserve(40), 'budget', 'only young and settled bodies to cut: refused');
  wait(999);
  // Room for 50 would take the young body too (the slow `self` holds only 30): refused.
  assert.equal(lease('192.0.2.4', 'newcomer').reserve(50), 'budget');
  assert.deepEqual(cuts, []);
  assert.equal(budget.used(), 100);
});

test('nothing is cut when cutting every slow body would still not make room, nor for a client past its share', () => {
  const { budget, cuts, lease, wait } = clocked({ perClientBytes: 60 });
  const slow = lease('192.0.2.1', 'slow');
  assert.equal(slow.reserve(30), null);
  wait(2_000);
  const fresh = lease('192.0.2.2', 'fresh');
  assert.equal(fresh.reserve(60), null);
  assert.equal(lease('192.0.2.3', 'big').reserve(50), 'budget', 'freeing 30 would not fit 50');
  assert.equal(lease('192.0.2.2', 'greedy').reserve(20), 'budget', 'this client would pass its share: nobody is cut for it');
  assert.deepEqual(cuts, []);
  assert.equal(budget.used(), 90);
});
