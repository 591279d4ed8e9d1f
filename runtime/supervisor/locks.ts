/**
 * Named locks that keep two runners (two tabs, or two calls in one tab) off the same process at
 * once. In the browser they are Web Locks, which hold across tabs of one origin; elsewhere an
 * in-process queue per name.
 */
export interface Locks {
  /**
   * Runs `fn` holding the lock `name`. Waits for the lock, unless `ifAvailable`, in which case it
   * gives up at once when another holder has it, or `steal`, which takes it from a holder known
   * to be dead (a worker ended mid-step, whose lock the browser frees only seconds later).
   */
  withLock<T>(
    name: string,
    fn: () => Promise<T>,
    options?: LockOptions,
  ): Promise<{ held: true; value: T } | { held: false }>;
}

export interface LockOptions {
  ifAvailable?: boolean;
  steal?: boolean;
}

export class InProcessLocks implements Locks {
  private tails = new Map<string, Promise<unknown>>();

  /** `steal` waits like any request: in one process no holder can have died mid-step. */
  async withLock<T>(name: string, fn: () => Promise<T>, options: LockOptions = {}) {
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

  async withLock<T>(name: string, fn: () => Promise<T>, options: LockOptions = {}) {
    let result: { held: true; value: T } | { held: false } = { held: false };
    await this.manager.request(
      name,
      options.steal ? { steal: true } : { ifAvailable: options.ifAvailable ?? false },
      async (lock) => {
        if (lock) result = { held: true, value: await fn() };
      },
    );
    return result;
  }
}

/**
 * Takes lock `name`, waiting for it, and resolves once it is held, with what gives it back: a
 * lock kept across several operations rather than for the length of one call.
 */
export function holdLock(locks: Locks, name: string): Promise<() => void> {
  return new Promise((resolve, reject) => {
    let giveBack!: () => void;
    const given = new Promise<void>((r) => (giveBack = r));
    locks
      .withLock(name, async () => {
        resolve(giveBack);
        await given;
      })
      // A lock waited for is always had; only `ifAvailable` gives up.
      .then((r) => r.held || reject(new Error(`the lock "${name}" was refused`)), reject);
  });
}
