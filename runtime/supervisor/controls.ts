import { rebaseSnapshot } from '../engine/rebase.ts';
import { seedOf } from '../expr/seeded.ts';
import { clearFailure, startSnapshot, statusOf, waitsWithTriggers } from '../engine/step.ts';
import { dueTimer, earliestTimer } from '../engine/timers.ts';
import type { Clock } from './clock.ts';
import type { FlowReader } from './flowReader.ts';
import { scopeFlowIds, signaturesById } from './flowSet.ts';
import { stepAct } from './inMemoryRun.ts';
import { carrying, pendingWakes, withPendingWakes } from './pendingWakes.ts';
import type { ProcessLock } from './processLock.ts';
import type { ProcessRunner } from './processRunner.ts';
import { dueOf, waitsForOf } from './recordFacts.ts';
import type { PendingWake, ProcessRecord, ProcessStatus } from './records.ts';
import type { Store } from './store.ts';
import { assertRunnable, SupervisorError } from './supervisorError.ts';

export type ResolveChoice = 'continue' | 'keep' | 'restart' | 'cancel';

/** What the controls stand on. */
export interface ControlParts {
  store: Store;
  clock: Clock;
  flows: FlowReader;
  lock: ProcessLock;
  runner: ProcessRunner;
  /** Processes asked to stop after their current step; a Stop adds to it while it waits. */
  stopRequests: Set<string>;
}

/**
 * The controls a designer uses on one process (stop, resume, retry, the inspector's Step and
 * Wake now), the four choices for a process whose flow changed, and failing a step its runner
 * had to end from outside. Each runs holding the process's lock.
 */
export class Controls {
  constructor(private readonly parts: ControlParts) {}

  /**
   * Fails a process at `path` from outside the step that was running it: its runner was ended
   * because an expression there would not stop (the step committed nothing, so the stored
   * snapshot is the one before it). The wake it was carrying is kept, so `retry` can fire it.
   */
  failRunaway(
    id: string,
    path: string,
    message: string,
    wake: PendingWake | null,
  ): Promise<ProcessRecord> {
    const { lock, runner, store } = this.parts;
    return lock.locked(
      id,
      async () => {
        const record = await runner.mustGet(id);
        // A step can run from any status but these (a stopped process is stepped, too).
        if (['done', 'cancelled', 'failed'].includes(record.status)) return record;
        const failed: ProcessRecord = {
          ...withPendingWakes(record, carrying(record, wake)),
          status: 'failed',
          snapshot: { ...record.snapshot, failed: { path, message } },
          due: null,
          error: `node "${path}": ${message}`,
        };
        await store.putProcess(failed, [
          runner.stamp(id, { type: 'failed', node: path, message }, failed.snapshot),
        ]);
        return failed;
      },
      // The lock's holder was the worker ended in this very step.
      { steal: true },
    );
  }

  /** Why `continue` would be refused for a process whose flow changed, or undefined if it would not. */
  async continueProblem(id: string): Promise<string | undefined> {
    const record = await this.parts.runner.mustGet(id);
    if (record.status !== 'flow-changed') return `process "${id}" is ${record.status}`;
    const plan = await this.planContinue(record);
    return plan.ok ? undefined : plan.error;
  }

  /**
   * What `continue` would do: the flows as they are now, and the snapshot moved onto them; or why
   * it is refused (a flow that cannot run, a node the process stands on gone, or the trigger that
   * woke it gone).
   */
  private async planContinue(record: ProcessRecord) {
    const before = await this.parts.flows.sleptOn(record);
    const after = await this.parts.flows.current([
      record.flow,
      ...scopeFlowIds(record.snapshot.scope),
    ]);
    try {
      assertRunnable(after);
    } catch (e) {
      return { ok: false as const, error: (e as Error).message };
    }
    const moved = rebaseSnapshot(
      record.snapshot,
      (f) => before.get(f),
      (f) => after.get(f),
    );
    if (!moved.ok) return { ok: false as const, error: moved.error };
    const waits = waitsWithTriggers(moved.snapshot, (f) => after.get(f));
    for (const wake of pendingWakes(record)) {
      const wait = waits.find((x) => x.seq === wake.seq);
      if (!wait?.triggers.some((t) => t.id === wake.trigger)) {
        const error = `cannot continue: the trigger "${wake.trigger}" that woke the process no longer exists`;
        return { ok: false as const, error };
      }
    }
    return { ok: true as const, after, rebased: moved };
  }

  stop(id: string): Promise<ProcessRecord> {
    const { lock, stopRequests } = this.parts;
    // A run in progress holds the lock; asking first makes it stop after its current step.
    stopRequests.add(id);
    return lock.locked(id, () => this.stopUnlocked(id)).finally(() => stopRequests.delete(id));
  }

  /**
   * Asks a run of `id` in progress here to stop after its current step, for a Stop given in
   * another tab (which then stops it under the lock). The request lasts until the run is over.
   */
  async requestStop(id: string): Promise<void> {
    const { lock, stopRequests } = this.parts;
    stopRequests.add(id);
    try {
      await lock.waitFree(id);
    } finally {
      stopRequests.delete(id);
    }
  }

  private async stopUnlocked(id: string): Promise<ProcessRecord> {
    const { runner, store } = this.parts;
    const record = await runner.mustGet(id);
    if (record.status !== 'running' && record.status !== 'waiting') {
      throw new SupervisorError(
        `process "${id}" is ${record.status}; only a running or waiting process can be stopped`,
      );
    }
    const stopped: ProcessRecord = {
      ...record,
      status: 'stopped',
      stoppedFrom: record.status,
      due: null,
    };
    await store.putProcess(stopped, [runner.stamp(id, { type: 'stopped' }, stopped.snapshot)]);
    return stopped;
  }

  /** Resumes a stopped process; a timer that fell due meanwhile fires at once, once. */
  resume(id: string): Promise<ProcessRecord> {
    return this.parts.lock.locked(id, () => this.resumeUnlocked(id));
  }

  private async resumeUnlocked(id: string): Promise<ProcessRecord> {
    const { runner, store, clock } = this.parts;
    const record = await runner.mustGet(id);
    if (record.status !== 'stopped')
      throw new SupervisorError(`process "${id}" is ${record.status}, not stopped`);
    const { stoppedFrom: _from, ...rest } = record;
    const flows = await this.parts.flows.sleptOn(record);
    const status = statusOf(record.snapshot) as ProcessStatus;
    const resumed: ProcessRecord = {
      ...rest,
      status,
      due: dueOf(record.snapshot, flows),
      waitsFor: waitsForOf(status, record.snapshot, flows),
    };
    await store.putProcess(resumed, [runner.stamp(id, { type: 'resumed' }, resumed.snapshot)]);
    // Every timer that fell due while it was stopped fires at once, once, in order of due time:
    // the drive fires what is due, each a wake that reports a changed flow with its trigger
    // pending. With nothing due, resuming is what compares the signatures.
    const due = dueTimer(resumed.snapshot, (f) => flows.get(f), clock.now());
    if (resumed.status === 'running' || (!due && pendingWakes(resumed).length === 0)) {
      const checked = await runner.checkSignatures(resumed, null);
      if (checked.status === 'flow-changed') return checked;
    }
    return runner.drive(id, resumed);
  }

  /** Runs a failed node again, with the trigger that woke it if one did. */
  retry(id: string): Promise<ProcessRecord> {
    return this.parts.lock.locked(id, () => this.retryUnlocked(id));
  }

  private async retryUnlocked(id: string): Promise<ProcessRecord> {
    const { runner, store } = this.parts;
    const record = await runner.mustGet(id);
    if (record.status !== 'failed')
      throw new SupervisorError(`process "${id}" is ${record.status}, not failed`);
    const node = record.snapshot.failed?.path ?? '';
    const snapshot = clearFailure(record.snapshot);
    const cleared: ProcessRecord = {
      ...record,
      snapshot,
      error: null,
      status: statusOf(snapshot) as ProcessStatus,
    };
    await store.putProcess(cleared, [
      runner.stamp(id, { type: 'retried', node }, cleared.snapshot),
    ]);
    // A retry is a wake: a flow changed while the process was failed is reported before the node
    // runs again (the trigger that woke it, if one did, stays pending through the choice).
    if (pendingWakes(cleared).length === 0) {
      const checked = await runner.checkSignatures(cleared, null);
      if (checked.status === 'flow-changed') return checked;
    }
    return runner.drive(id, cleared);
  }

  /** Carries out the designer's choice for a process whose flow changed (docs/format.md). */
  resolve(id: string, choice: ResolveChoice): Promise<ProcessRecord> {
    return this.parts.lock.locked(id, () => this.resolveUnlocked(id, choice));
  }

  private async resolveUnlocked(id: string, choice: ResolveChoice): Promise<ProcessRecord> {
    const { runner, store } = this.parts;
    const record = await runner.mustGet(id);
    if (record.status !== 'flow-changed') {
      throw new SupervisorError(
        `process "${id}" is ${record.status}; only a process whose flow changed can be resolved`,
      );
    }
    const journal = (r: ProcessRecord) => [
      runner.stamp(id, { type: 'resolved', choice }, r.snapshot),
    ];
    const base = { ...record, changes: [], error: null };
    if (choice === 'cancel') {
      const cancelled: ProcessRecord = {
        ...withPendingWakes(base, []),
        status: 'cancelled',
        due: null,
      };
      await store.putProcess(cancelled, journal(cancelled));
      return cancelled;
    }
    if (choice === 'restart') {
      const flows = await this.parts.flows.current([record.flow]);
      const flow = flows.get(record.flow);
      if (!flow) throw new SupervisorError(`flow "${record.flow}" is no longer in the workspace`);
      assertRunnable(flows);
      const versions = signaturesById(flows);
      await this.parts.flows.storeVersions(flows, versions);
      const restarted: ProcessRecord = {
        ...withPendingWakes(base, []),
        status: 'running',
        // The new run numbers its waits on from the old run's: a wait's number is unique in the
        // process, so a call of the new run has an Idempotency-Key of its own, never one a server
        // saw for the old run's (docs/format.md#calls), and meets no progress the old run left.
        snapshot: { ...startSnapshot(flow, seedOf(id)), seq: record.snapshot.seq },
        versions,
        pinned: false,
        due: null,
      };
      await store.putProcess(restarted, journal(restarted));
      return runner.drive(id);
    }
    if (choice === 'keep') {
      const status = statusOf(record.snapshot) as ProcessStatus;
      const kept: ProcessRecord = { ...base, pinned: true, status };
      await store.putProcess(kept, journal(kept));
      return this.afterResolve(kept);
    }
    if (choice !== 'continue')
      throw new SupervisorError(
        `"${String(choice)}" is not one of continue, keep, restart, cancel`,
      );
    const plan = await this.planContinue(record);
    if (!plan.ok) throw new SupervisorError(plan.error);
    const { after, rebased } = plan;
    const versions = { ...record.versions, ...signaturesById(after) };
    await this.parts.flows.storeVersions(after, versions);
    const continued: ProcessRecord = {
      ...base,
      snapshot: rebased.snapshot,
      versions,
      pinned: false,
      status: statusOf(rebased.snapshot) as ProcessStatus,
    };
    await store.putProcess(continued, journal(continued));
    return this.afterResolve(continued);
  }

  /**
   * With `continue` and `keep`, every trigger that woke the process counts as if it had just
   * fired, and then every timer due meanwhile fires: the drive takes both.
   */
  private async afterResolve(record: ProcessRecord): Promise<ProcessRecord> {
    const flows = await this.parts.flows.sleptOn(record);
    const settled: ProcessRecord = {
      ...record,
      due: dueOf(record.snapshot, flows),
      waitsFor: waitsForOf(record.status, record.snapshot, flows),
    };
    await this.parts.store.putProcess(settled);
    return this.parts.runner.drive(record.id, settled);
  }

  /**
   * Runs one step (the inspector's Step): of a running process, or of one stopped between two
   * steps, which stays stopped after the step unless the step brought it to a stop of its own.
   */
  stepOnce(id: string): Promise<ProcessRecord> {
    const { lock, runner, store } = this.parts;
    return lock.locked(id, async () => {
      const record = await runner.mustGet(id);
      const paused = record.status === 'stopped' && statusOf(record.snapshot) === 'running';
      if (record.status !== 'running' && !paused) {
        throw new SupervisorError(
          `process "${id}" is ${record.status}; only a process with a node ready can step`,
        );
      }
      const stepped = await runner.commit(record, stepAct);
      if (!paused || stepped.status !== 'running') return stepped;
      const kept: ProcessRecord = { ...stepped, status: 'stopped', stoppedFrom: 'running' };
      await store.putProcess(kept);
      return kept;
    });
  }

  /** Fires a waiting process's earliest timer now, whatever its due time (the inspector's Wake now). */
  wakeNow(id: string): Promise<ProcessRecord> {
    const { lock, runner } = this.parts;
    return lock.locked(id, async () => {
      const record = await runner.mustGet(id);
      if (record.status !== 'waiting')
        throw new SupervisorError(`process "${id}" is ${record.status}, not waiting`);
      const flows = await this.parts.flows.sleptOn(record);
      const timer = earliestTimer(record.snapshot, (f) => flows.get(f));
      if (!timer)
        throw new SupervisorError(
          `process "${id}" waits for no timer; deliver its event or answer its form`,
        );
      return runner.wake(record, { seq: timer.seq, trigger: timer.trigger });
    });
  }
}
