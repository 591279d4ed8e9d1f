import { waitsWithTriggers } from '../engine/step.ts';
import type { FlowReader } from './flowReader.ts';
import { answeredAlready, humanInputProblem } from './humanInput.ts';
import { sizeProblem } from './inputChecks.ts';
import { pendingWakes, withPendingWakes } from './pendingWakes.ts';
import type { ProcessLock } from './processLock.ts';
import type { ProcessRunner } from './processRunner.ts';
import type { JournalEntry, ProcessRecord } from './records.ts';
import type { Store } from './store.ts';
import { SupervisorError } from './supervisorError.ts';

/** What delivering events and human input stands on. */
export interface DeliveryParts {
  store: Store;
  flows: FlowReader;
  lock: ProcessLock;
  runner: ProcessRunner;
}

/** Triggers fired from outside: events, and the answers people give to forms. */
export class Deliveries {
  constructor(private readonly parts: DeliveryParts) {}

  /** Delivers an event to every wait for that name, or only those of process `to`. */
  async deliverEvent(name: string, payload: unknown, to?: string): Promise<number> {
    const { store, lock, runner } = this.parts;
    const tooLarge = sizeProblem(`the payload of event "${name}"`, payload);
    if (tooLarge) throw new SupervisorError(tooLarge);
    // Only the processes the index says may wait for the name are read (`waitsFor`); each one's
    // snapshot then says which of its waits take it.
    const candidates = to !== undefined ? [await runner.mustGet(to)] : await store.waitersFor(name);
    let delivered = 0;
    for (const candidate of candidates) {
      if (candidate.status !== 'waiting') continue;
      delivered += await lock.locked(candidate.id, () =>
        this.deliverTo(candidate.id, name, payload),
      );
    }
    return delivered;
  }

  /**
   * An event goes to every wait for its name at the moment it is sent (docs/format.md#scenarios):
   * each such wait's trigger joins the process's pending wakes, and the drive fires them in turn,
   * as it fires those a changed flow kept (so an event reaching two waits does the same whether
   * or not the flow changed at the first, once the designer chooses `continue`). A wait that an
   * earlier one ended takes nothing.
   */
  private async deliverTo(id: string, name: string, payload: unknown): Promise<number> {
    const { runner } = this.parts;
    const record = await runner.mustGet(id);
    if (record.status !== 'waiting') return 0;
    const flows = await this.parts.flows.sleptOn(record);
    const wakes = waitsWithTriggers(record.snapshot, (f) => flows.get(f)).flatMap((w) => {
      const trigger = w.triggers.find((t) => t.event === name);
      return trigger ? [{ seq: w.seq, trigger: trigger.id, payload }] : [];
    });
    if (wakes.length === 0) return 0;
    await runner.drive(id, withPendingWakes(record, [...pendingWakes(record), ...wakes]));
    return wakes.length;
  }

  /**
   * Completes a human trigger of the continue-after at `nodePath` with checked input. With
   * `waitSeq`, the answer is bound to that wait (the form the person saw): once the process has
   * moved on from it, a second answer is refused rather than completing the next pass.
   */
  submitHuman(
    id: string,
    nodePath: string,
    input: unknown,
    triggerId?: string,
    waitSeq?: number,
  ): Promise<ProcessRecord> {
    return this.parts.lock.locked(id, () =>
      this.submitHumanUnlocked(id, nodePath, input, triggerId, waitSeq),
    );
  }

  private async submitHumanUnlocked(
    id: string,
    nodePath: string,
    input: unknown,
    triggerId?: string,
    waitSeq?: number,
  ): Promise<ProcessRecord> {
    const { runner } = this.parts;
    const { record, read } = await runner.load(id);
    const flows = await this.parts.flows.sleptOn(record);
    const wait = waitsWithTriggers(record.snapshot, (f) => flows.get(f)).find(
      (w) => w.path === nodePath,
    );
    if (waitSeq !== undefined && wait?.seq !== waitSeq)
      throw new SupervisorError(answeredAlready(id, nodePath));
    if (record.status !== 'waiting') {
      throw new SupervisorError(`process "${id}" is ${record.status}, not waiting for a person`);
    }
    if (!wait) throw new SupervisorError(`process "${id}" is not waiting at "${nodePath}"`);
    const humans = wait.triggers.filter((t) => t.human !== undefined);
    if (humans.length === 0) throw new SupervisorError(`"${nodePath}" has no human trigger`);
    let trigger = humans[0]!;
    if (triggerId !== undefined) {
      const named = humans.find((t) => t.id === triggerId);
      if (!named) throw new SupervisorError(`"${nodePath}" has no human trigger "${triggerId}"`);
      trigger = named;
    } else if (humans.length > 1) {
      throw new SupervisorError(
        `"${nodePath}" has ${humans.length} human triggers; name one with "trigger"`,
      );
    }
    const problem = humanInputProblem(trigger, input) ?? sizeProblem('the input', input);
    if (problem) throw new SupervisorError(`"${nodePath}": ${problem}`);
    return runner.wake(record, { seq: wait.seq, trigger: trigger.id, payload: input }, read);
  }

  /**
   * Fires trigger `triggerId` of wait `seq` with a call's outcome as its payload
   * (docs/format.md#calls), through the path events take. Reaches only a wait that still exists in
   * a process that is waiting: false otherwise, and nothing changes, so that the call sender's
   * outcome after a crash, a cancel or another trigger's win is applied at most once.
   */
  fireCall(
    id: string,
    seq: number,
    triggerId: string,
    outcome: unknown,
    /** Journal entries that go in the fire's commit, first (the call's last attempt). */
    entries: JournalEntry[] = [],
    /** Told the record as read under the process's lock, before anything is fired. */
    loaded?: (record: ProcessRecord) => void,
  ): Promise<boolean> {
    const { lock, runner } = this.parts;
    return lock.locked(id, async () => {
      const { record, read, context } = await runner.load(id);
      loaded?.(record);
      if (record.status !== 'waiting') return false;
      const flows = await this.parts.flows.sleptOn(record);
      const wait = waitsWithTriggers(record.snapshot, (f) => flows.get(f)).find(
        (w) => w.seq === seq,
      );
      if (!wait?.triggers.some((t) => t.id === triggerId)) return false;
      await runner.wake(record, { seq, trigger: triggerId, payload: outcome }, read, {
        first: entries,
        ...(context ? { context } : {}),
      });
      return true;
    });
  }
}
