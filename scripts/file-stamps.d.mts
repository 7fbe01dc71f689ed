/** A path (relative to the root it was stamped under) and its stamp. */
export type Stamp = [path: string, stamp: string];
export function stampOf(root: string, path: string): string;
export function settledStamps(root: string, paths: readonly string[], startedAt: number): Stamp[] | null;
export function stampsHold(root: string, stamps: unknown): boolean;
