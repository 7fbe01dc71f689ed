/**
 * One byte budget shared by every request the relay is holding in memory: the
 * per-request cap alone would still let 64 slow clients pin 64 × 5 MiB. Each
 * request holds a lease that grows only as bytes actually arrive (a declared
 * Content-Length costs nothing: a client that declares 5 MiB and sends nothing
 * holds nothing), and is released when the forward is done. One client address
 * may hold at most `perClientBytes` of it, so a single address cannot spend the
 * budget that every other visitor's envelopes need.
 */
export type Budget = { lease(client: string): Lease; used(): number; heldBy(client: string): number };
export type Lease = {
  /** Makes this lease cover `total` bytes, or says which limit it would cross (and takes nothing). */
  reserve(total: number): Refusal | null;
  release(): void;
};
/** `budget`: every client together is at the limit; `client`: this address holds its whole share. */
export type Refusal = 'budget' | 'client';

export function createBudget({ maxBytes, perClientBytes }: { maxBytes: number; perClientBytes: number }): Budget {
  let used = 0;
  // Only clients that hold bytes right now: an entry goes when its last lease is released.
  const byClient = new Map<string, number>();
  return {
    used: () => used,
    heldBy: (client) => byClient.get(client) ?? 0,
    lease(client) {
      let held = 0;
      return {
        reserve(total) {
          if (total <= held) return null;
          const more = total - held;
          if (used + more > maxBytes) return 'budget';
          const clientHeld = byClient.get(client) ?? 0;
          if (clientHeld + more > perClientBytes) return 'client';
          used += more;
          byClient.set(client, clientHeld + more);
          held = total;
          return null;
        },
        release() {
          if (held === 0) return;
          used -= held;
          const left = (byClient.get(client) ?? 0) - held;
          if (left > 0) byClient.set(client, left);
          else byClient.delete(client);
          held = 0;
        },
      };
    },
  };
}
