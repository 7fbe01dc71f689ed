/**
 * One byte budget shared by every request the relay is holding in memory: the
 * per-request cap alone would still let 64 slow clients pin 64 × 5 MiB. Each
 * request holds a lease that grows only as bytes actually arrive (a declared
 * Content-Length costs nothing: a client that declares 5 MiB and sends nothing
 * holds nothing), and is released when the forward is done. One client address
 * may hold at most `perClientBytes` of it, so a single address cannot spend the
 * budget that every other visitor's envelopes need.
 *
 * A slow body pays for its own slowness, not everyone else: when the budget is
 * spent, a body still arriving `slowAfterMs` after its request began is cut (the
 * oldest first) to make room for a newcomer. Without that, bytes sent once could
 * be held for the whole read deadline by a byte a second, and eight addresses
 * could keep the budget full for a few MB/s; now, to keep newcomers out, every
 * held byte must be younger than `slowAfterMs`, so the whole budget must be sent
 * again that often.
 */
export type Budget = {
  /** `onCut`: called (once) when this lease's bytes are taken back to make room; its body must stop at once. */
  lease(client: string, onCut?: () => void): Lease;
  used(): number;
  heldBy(client: string): number;
};
export type Lease = {
  /** Makes this lease cover `total` bytes, or says which limit it would cross (and takes nothing). */
  reserve(total: number): Refusal | null;
  /** The whole body has arrived: from now on its bytes are never cut (they are on their way upstream). */
  settle(): void;
  release(): void;
};
/** `budget`: every client together is at the limit; `client`: this address holds its whole share. */
export type Refusal = 'budget' | 'client';

type Options = {
  maxBytes: number;
  perClientBytes: number;
  /** How long after its request began a body still arriving may be cut to make room (never, by default). */
  slowAfterMs?: number;
  /** Milliseconds on a monotonic clock. */
  now?: () => number;
};

type Held = { client: string; bytes: number; started: number; cut: boolean; onCut: (() => void) | undefined };

export function createBudget({
  maxBytes,
  perClientBytes,
  slowAfterMs = Number.POSITIVE_INFINITY,
  now = () => performance.now(),
}: Options): Budget {
  let used = 0;
  // Only clients that hold bytes right now: an entry goes when its last lease is released.
  const byClient = new Map<string, number>();
  // Leases whose body is still arriving, oldest first: a Set keeps insertion order, and a
  // lease is made as its request begins.
  const arriving = new Set<Held>();

  const giveBack = (held: Held) => {
    if (held.bytes === 0) return;
    used -= held.bytes;
    const left = (byClient.get(held.client) ?? 0) - held.bytes;
    if (left > 0) byClient.set(held.client, left);
    else byClient.delete(held.client);
    held.bytes = 0;
  };

  /** Cuts the oldest slow bodies (never `self`) until `more` bytes fit; cuts none when they could not make it fit. */
  const makeRoom = (more: number, self: Held): boolean => {
    const slowSince = now() - slowAfterMs;
    const victims: Held[] = [];
    let freed = 0;
    for (const held of arriving) {
      if (used - freed + more <= maxBytes) break;
      // The rest began later still: none of them is slow yet.
      if (held.started > slowSince) break;
      if (held === self || held.bytes === 0) continue;
      victims.push(held);
      freed += held.bytes;
    }
    if (used - freed + more > maxBytes) return false;
    for (const held of victims) {
      arriving.delete(held);
      giveBack(held);
      held.cut = true;
      held.onCut?.();
    }
    return true;
  };

  return {
    used: () => used,
    heldBy: (client) => byClient.get(client) ?? 0,
    lease(client, onCut) {
      const held: Held = { client, bytes: 0, started: now(), cut: false, onCut };
      arriving.add(held);
      return {
        reserve(total) {
          if (held.cut) return 'budget';
          if (total <= held.bytes) return null;
          const more = total - held.bytes;
          const clientHeld = byClient.get(client) ?? 0;
          // Over its own share it is refused whatever the budget holds: nobody is cut for it.
          if (used + more > maxBytes && (clientHeld + more > perClientBytes || !makeRoom(more, held))) return 'budget';
          // Cutting may have given back some of this client's other leases.
          const stillHeld = byClient.get(client) ?? 0;
          if (stillHeld + more > perClientBytes) return 'client';
          used += more;
          byClient.set(client, stillHeld + more);
          held.bytes = total;
          return null;
        },
        settle() {
          arriving.delete(held);
        },
        release() {
          arriving.delete(held);
          giveBack(held);
        },
      };
    },
  };
}
