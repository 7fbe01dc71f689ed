/**
 * One byte budget shared by every request the relay is holding in memory
 * (relay-design R-B6): the per-request cap alone would still let 64 slow
 * clients pin 64 × 5 MiB. Each request holds a lease and grows it as bytes
 * arrive; the lease is released when the forward is done.
 */
export type Budget = { lease(): Lease; used(): number };
export type Lease = {
  /** Makes this lease cover `total` bytes; false (and nothing taken) if the budget cannot. */
  reserve(total: number): boolean;
  release(): void;
};

export function createBudget(maxBytes: number): Budget {
  let used = 0;
  return {
    used: () => used,
    lease() {
      let held = 0;
      return {
        reserve(total) {
          if (total <= held) return true;
          if (used + (total - held) > maxBytes) return false;
          used += total - held;
          held = total;
          return true;
        },
        release() {
          used -= held;
          held = 0;
        },
      };
    },
  };
}
