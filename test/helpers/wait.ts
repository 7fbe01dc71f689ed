/**
 * Polls `check` until it holds, and fails (rather than hangs) when it has not
 * held within `ms`. For state another process or socket changes in its own time.
 */
export async function waitFor(
  check: () => boolean,
  { ms = 2_000, what = 'condition' }: { ms?: number; what?: string } = {},
): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`${what} not met within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
