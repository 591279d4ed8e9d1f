import { earliestTimer } from '../engine/timers.ts';
import type { CallTimes } from './callLoop.ts';
import type { ChangeListeners } from './changes.ts';
import { isSettable, type Clock } from './clock.ts';
import type { FlowReader } from './flowReader.ts';
import type { Advance, AdvanceOptions, RunOn } from './options.ts';
import { pendingWakes } from './pendingWakes.ts';
import type { ProcessLock } from './processLock.ts';
import type { ProcessRunner } from './processRunner.ts';
import type { ProcessRecord } from './records.ts';
import type { Store } from './store.ts';
import { SupervisorError } from './supervisorError.ts';

/** What an advance one process at a time stands on. */
export interface OneByOneParts {
  store: Store;
  clock: Clock;
  flows: FlowReader;
  lock: ProcessLock;
  runner: ProcessRunner;
  changes: ChangeListeners;
  /** The call attempts the advance steps to, as the batches do (callLoop.ts). */
  calls: CallTimes;
  /** The advance asked for more than its target (progress, a signal, retention): in batches. */
  batched: Advance;
}

/**
 * The advance of `wakeOneByOne` (SupervisorOptions), when nothing is asked of it but its target:
 * the due processes are woken one at a time, earliest (then oldest) first, each run on across
 * its own timers while they fall due before any other process's next due time and by `target`,
 * and committed alone. As in the batches, each timer fires at its due time, in order (a
 * process's wakes, and those of processes that share a context, in the order of their times),
 * and the clock ends at `target`.
 */
export class OneByOneAdvance implements Advance {
  constructor(private readonly parts: OneByOneParts) {}

  async advanceTo(
    target: number,
    options: AdvanceOptions = {},
  ): Promise<{ wakes: number; reached: number }> {
    const plain =
      options.keepPasses === undefined && options.signal === undefined && !options.onProgress;
    if (!plain) return this.parts.batched.advanceTo(target, options);
    const { store, clock, lock, runner, changes, calls } = this.parts;
    if (!isSettable(clock)) throw new SupervisorError('only a virtual clock can be advanced');
    let wakes = 0;
    // A process another runner holds is left to it.
    const busy = new Set<string>();
    for (;;) {
      // As in the batches: the attempts due now first, then on to the earlier of the next timer
      // and the next attempt.
      await calls.settle();
      const call = calls.nextDue();
      // An attempt still due now is one `settle` gave up on (a loop of calls answered at once):
      // left for the next advance rather than stepping in place.
      const upTo = call !== null && call > clock.now() && call < target ? call : target;
      const due = (await store.listDue(upTo, busy.size + 2)).filter((p) => !busy.has(p.id));
      const first = due[0];
      if (!first) {
        if (upTo >= target) break;
        if (upTo > clock.now()) clock.set(upTo);
        continue;
      }
      // The next other process in wake order bounds how far the first one's run may go.
      const next = due[1];
      const base = clock.now();
      // Listed as due: a due time it has.
      if (first.due! > base) clock.set(first.due!);
      const later: RunOn = {
        may: (at: number) =>
          at <= upTo &&
          (next === undefined ||
            at < next.due! ||
            (at === next.due! && first.created < next.created)),
        at: (at: number) => Math.max(at, base),
      };
      const ran = await lock.ifFree(first.id, async () => {
        // Read again under the lock: what the listing gave may have moved on.
        const record = await runner.mustGet(first.id);
        if (record.status !== 'waiting' || record.due === null || record.due > upTo) return 0;
        const after = await this.wakeEarliest(record, later);
        return (after.wakes ?? 0) - (record.wakes ?? 0);
      });
      if (!ran.held) {
        busy.add(first.id);
        continue;
      }
      changes.changed(first.id);
      wakes += ran.value;
      await runner.runAll();
    }
    clock.set(target);
    await calls.settle();
    return { wakes, reached: target };
  }

  /**
   * Fires a waiting process's earliest timer and drives it on, its run going on across later
   * timers as `later` allows. One with triggers pending, or whose flows no longer say what it
   * waits for, takes the one-wake path, as a batch leaves it to (fireEarliestTimer).
   */
  private async wakeEarliest(record: ProcessRecord, later: RunOn): Promise<ProcessRecord> {
    const { flows, runner } = this.parts;
    const slept = await flows.sleptOn(record);
    const timer = earliestTimer(record.snapshot, (f) => slept.get(f));
    if (!timer || pendingWakes(record).length > 0) {
      await runner.fireEarliestTimer(record);
      return runner.mustGet(record.id);
    }
    return runner.wake(record, { seq: timer.seq, trigger: timer.trigger }, flows.reader(), {
      later,
    });
  }
}
