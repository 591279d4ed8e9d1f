/**
 * Named locks that keep two runners (two tabs, or two calls in one tab) off the same process at
 * once. In the browser they are Web Locks, which hold across tabs of one origin; elsewhere an
 * in-process queue per name.
 */
export interface Locks {
  /**
   * Runs `fn` holding the lock `name`. Waits for the lock, unless `ifAvailable`, in which case it
   * gives up at once when another holder has it.
   */
  withLock<T>(
    name: string,
    fn: () => Promise<T>,
    options?: { ifAvailable?: boolean },
  ): Promise<{ held: true; value: T } | { held: false }>;
}

export class InProcessLocks implements Locks {
  private tails = new Map<string, Promise<unknown>>();

  async withLock<T>(name: string, fn: () => Promise<T>, options: { ifAvailable?: boolean } = {}) {
    if (options.ifAvailable && this.tails.has(name)) return { held: false as const };
    const before = this.tails.get(name) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((r) => (release = r));
    const tail = before.then(() => mine);
    this.tails.set(name, tail);
    await before;
    try {
      return { held: true as const, value: await fn() };
    } finally {
      release();
      if (this.tails.get(name) === tail) this.tails.delete(name);
    }
  }
}

/** Web Locks: held across every tab of the origin, released if a tab closes or crashes. */
export class WebLocks implements Locks {
  constructor(private readonly manager: LockManager) {}

  async withLock<T>(name: string, fn: () => Promise<T>, options: { ifAvailable?: boolean } = {}) {
    let result: { held: true; value: T } | { held: false } = { held: false };
    await this.manager.request(
      name,
      { ifAvailable: options.ifAvailable ?? false },
      async (lock) => {
        if (lock) result = { held: true, value: await fn() };
      },
    );
    return result;
  }
}
