import type { ChangeListeners } from './changes.ts';
import type { LockOptions, Locks } from './locks.ts';
import { SupervisorError } from './supervisorError.ts';

/** The name of a process's lock, the one every runner of it takes (two tabs, two calls). */
export const processLockName = (id: string) => `wakeflow:process:${id}`;

/**
 * The name of the lock of a process's call attempts (callSender.ts, `lease`): held from reading
 * a wait's progress to saving what its attempt gave, by whichever runtime sends them (two tabs'
 * workers over one workspace). Not the process's own lock, which steps and controls take and
 * which an attempt waiting for its answer must leave free.
 */
export const callLockName = (id: string) => `wakeflow:calls:${id}`;

/**
 * One process's lock: held by whatever changes the process, so that no other runner (another
 * tab, another call in this one) touches it meanwhile.
 */
export class ProcessLock {
  constructor(
    private readonly locks: Locks,
    private readonly changes: ChangeListeners,
  ) {}

  /**
   * Runs `fn` holding the process's lock, and tells the listeners after, however it ended; a
   * lock it could not have (`ifAvailable`) is refused as busy.
   */
  async locked<T>(id: string, fn: () => Promise<T>, options?: LockOptions): Promise<T> {
    const result = await this.locks.withLock(
      processLockName(id),
      async () => {
        try {
          return await fn();
        } finally {
          this.changes.changed(id);
        }
      },
      options,
    );
    if (!result.held) throw new SupervisorError(`process "${id}" is busy in another tab`);
    return result.value;
  }

  /** Runs `fn` holding the lock if it is free at once; `held: false` when another runner has it. */
  ifFree<T>(id: string, fn: () => Promise<T>) {
    return this.locks.withLock(processLockName(id), fn, { ifAvailable: true });
  }

  /** Resolves once whoever holds the lock now has given it back. */
  async waitFree(id: string): Promise<void> {
    await this.locks.withLock(processLockName(id), async () => undefined);
  }
}
