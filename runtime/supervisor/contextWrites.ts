import { applyWrites, type ContextWrite } from '../../shared/contextWrite.ts';
import { contextPathProblem } from '../../shared/contextPath.ts';
import type { Clock } from './clock.ts';
import { contextProblem, sizeProblem } from './inputChecks.ts';
import { MAX_CONFLICT_RETRIES } from './limits.ts';
import type { ProcessLock } from './processLock.ts';
import type { ProcessRunner } from './processRunner.ts';
import { contextChange } from './recordFacts.ts';
import type { Store } from './store.ts';
import { SupervisorError } from './supervisorError.ts';

/** What writing a context from outside stands on. */
export interface ContextWriteParts {
  store: Store;
  clock: Clock;
  lock: ProcessLock;
  runner: ProcessRunner;
}

/** Writes to a process's context from outside any process (the inspector's context editor). */
export class ContextWrites {
  constructor(private readonly parts: ContextWriteParts) {}

  /** Writes one path (compare-and-set on the version). */
  async setContext(id: string, path: string, value: unknown): Promise<void> {
    const problem = contextPathProblem(path) ?? sizeProblem(`the value for "${path}"`, value);
    if (problem) throw new SupervisorError(problem);
    const writes: ContextWrite[] = [
      value === undefined ? { path } : { path, value: structuredClone(value) },
    ];
    await this.edit(id, writes, (current) => applyWrites(current, writes));
  }

  /** Replaces the whole context (compare-and-set on the version). */
  async replaceContext(id: string, value: unknown): Promise<void> {
    const problem = contextProblem('the context', value);
    if (problem) throw new SupervisorError(problem);
    const writes: ContextWrite[] = [{ path: '', value: structuredClone(value) }];
    await this.edit(id, writes, () => structuredClone(value));
  }

  /**
   * A write from outside, journalled in the process it was made on (docs/format.md: the journal
   * records "context written"), in one commit with the context so that neither is kept without
   * the other. Under the process's lock: the commit stores its record as read, which no step in
   * this tab or another may change meanwhile.
   */
  private async edit(
    id: string,
    writes: ContextWrite[],
    next: (current: unknown) => unknown,
  ): Promise<void> {
    const { store, clock, lock, runner } = this.parts;
    await lock.locked(id, async () => {
      for (let attempt = 0; attempt < MAX_CONFLICT_RETRIES; attempt++) {
        const record = await runner.mustGet(id);
        const context = await runner.mustGetContext(record.contextId);
        const version = context.version + 1;
        const change = contextChange(record.contextId, version, null, null, writes, clock.now());
        const committed = await store.commitStep({
          process: record,
          context: {
            id: context.id,
            expectedVersion: context.version,
            write: { value: next(context.value), changes: [change] },
          },
          journal: [runner.stamp(id, { type: 'context-edited', writes }, record.snapshot)],
        });
        if (committed) return;
      }
      throw new SupervisorError(`the context of "${id}" kept changing; try again`);
    });
  }
}
