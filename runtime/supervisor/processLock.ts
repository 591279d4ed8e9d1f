import type { ChangeListeners } from './changes.ts';
import type { LockOptions, Locks } from './locks.ts';
import { SupervisorError } from './supervisorError.ts';

/** The name of a process's lock, the one every runner of it takes (two tabs, two calls). */
export const processLockName = (id: string) => `wakeflow:process:${id}`;

/**
 * The name of the lock of one call wait's attempts (callSender.ts `oneSender`): held from reading
 * the wait's progress to saving what its attempt gave, by whichever runtime sends it (two tabs'
 * workers over one workspace). The wait's number first: it holds no `:`, a process id may.
 */
export const callLockName = (id: string, seq: number) => `wakeflow:call:${seq}:${id}`;

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
