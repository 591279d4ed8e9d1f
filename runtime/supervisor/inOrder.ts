/**
 * Runs `fn` on every item, at most `limit` at once, starting them in the order given; items with
 * the same key run one after another, in that order. So several processes wake at once (while
 * one waits on IndexedDB, the next computes), and processes sharing a context still write it in
 * the order their timers fell due. The first error stops new starts and is thrown once the
 * started ones are over.
 */
export async function inOrder<T>(
  items: readonly T[],
  limit: number,
  keyOf: (item: T) => string,
  fn: (item: T) => Promise<void>,
): Promise<void> {
  const tails = new Map<string, Promise<void>>();
  const running = new Set<Promise<void>>();
  let failure: { error: unknown } | undefined;
  for (const item of items) {
    while (running.size >= limit) await Promise.race(running);
    if (failure) break;
    const key = keyOf(item);
    const before = tails.get(key) ?? Promise.resolve();
    const done: Promise<void> = before
      .then(() => (failure ? undefined : fn(item)))
      .catch((error: unknown) => {
        failure ??= { error };
      })
      .finally(() => {
        running.delete(done);
        if (tails.get(key) === done) tails.delete(key);
      });
    tails.set(key, done);
    running.add(done);
  }
  await Promise.all(running);
  if (failure) throw failure.error;
}
