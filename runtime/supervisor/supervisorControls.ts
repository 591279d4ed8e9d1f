import { rebaseSnapshot } from '../engine/rebase.ts';
import { seedOf } from '../expr/seeded.ts';
import { clearFailure, startSnapshot, statusOf, waitsWithTriggers } from '../engine/step.ts';
import { dueTimer } from '../engine/timers.ts';
import { loadFlowSet, scopeFlowIds, signaturesById } from './flowSet.ts';
import { carrying, pendingWakes, withPendingWakes } from './pendingWakes.ts';
import type { PendingWake, ProcessRecord, ProcessStatus } from './records.ts';
import { assertRunnable, SupervisorCore, SupervisorError } from './supervisorCore.ts';

export type ResolveChoice = 'continue' | 'keep' | 'restart' | 'cancel';

/**
 * The controls a designer uses on one process (stop, resume, retry), the four choices for a
 * process whose flow changed, and failing a step its runner had to end from outside. Each runs
 * holding the process's lock; the supervisor (supervisor.ts) adds starting, waking and events.
 */
export abstract class SupervisorControls extends SupervisorCore {
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
    return this.locked(
      id,
      async () => {
        const record = await this.mustGet(id);
        // A step can run from any status but these (a stopped process is stepped, too).
        if (['done', 'cancelled', 'failed'].includes(record.status)) return record;
        const failed: ProcessRecord = {
          ...withPendingWakes(record, carrying(record, wake)),
          status: 'failed',
          snapshot: { ...record.snapshot, failed: { path, message } },
          due: null,
          error: `node "${path}": ${message}`,
        };
        await this.store.putProcess(failed, [
          this.stamp(id, { type: 'failed', node: path, message }, failed.snapshot),
        ]);
        return failed;
      },
      // The lock's holder was the worker ended in this very step.
      { steal: true },
    );
  }

  /** Why `continue` would be refused for a process whose flow changed, or undefined if it would not. */
  async continueProblem(id: string): Promise<string | undefined> {
    const record = await this.mustGet(id);
    if (record.status !== 'flow-changed') return `process "${id}" is ${record.status}`;
    const plan = await this.planContinue(record);
    return plan.ok ? undefined : plan.error;
  }

  /**
   * What `continue` would do: the flows as they are now, and the snapshot moved onto them; or why
   * it is refused (a flow that cannot run, a node the process stands on gone, or the trigger that
   * woke it gone).
   */
  protected async planContinue(record: ProcessRecord) {
    const before = await this.sleptOn(record);
    const roots = [record.flow, ...scopeFlowIds(record.snapshot.scope)];
    const after = await loadFlowSet(roots, (f) => this.store.getFlow(f));
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
    // A run in progress holds the lock; asking first makes it stop after its current step.
    this.stopRequests.add(id);
    return this.locked(id, () => this.stopUnlocked(id)).finally(() => this.stopRequests.delete(id));
  }

  /**
   * Asks a run of `id` in progress here to stop after its current step, for a Stop given in
   * another tab (which then stops it under the lock). The request lasts until the run is over.
   */
  async requestStop(id: string): Promise<void> {
    this.stopRequests.add(id);
    try {
      await this.locks.withLock(`wakeflow:process:${id}`, async () => undefined);
    } finally {
      this.stopRequests.delete(id);
    }
  }

  protected async stopUnlocked(id: string): Promise<ProcessRecord> {
    const record = await this.mustGet(id);
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
    await this.store.putProcess(stopped, [this.stamp(id, { type: 'stopped' }, stopped.snapshot)]);
    return stopped;
  }

  /** Resumes a stopped process; a timer that fell due meanwhile fires at once, once. */
  resume(id: string): Promise<ProcessRecord> {
    return this.locked(id, () => this.resumeUnlocked(id));
  }

  protected async resumeUnlocked(id: string): Promise<ProcessRecord> {
    const record = await this.mustGet(id);
    if (record.status !== 'stopped')
      throw new SupervisorError(`process "${id}" is ${record.status}, not stopped`);
    const { stoppedFrom: _from, ...rest } = record;
    const flows = await this.sleptOn(record);
    const status = statusOf(record.snapshot) as ProcessStatus;
    const resumed: ProcessRecord = {
      ...rest,
      status,
      due: this.dueOf(record.snapshot, flows),
      waitsFor: this.waitsForOf(status, record.snapshot, flows),
    };
    await this.store.putProcess(resumed, [this.stamp(id, { type: 'resumed' }, resumed.snapshot)]);
    // Every timer that fell due while it was stopped fires at once, once, in order of due time:
    // the drive fires what is due, each a wake that reports a changed flow with its trigger
    // pending. With nothing due, resuming is what compares the signatures.
    const due = dueTimer(resumed.snapshot, (f) => flows.get(f), this.clock.now());
    if (resumed.status === 'running' || (!due && pendingWakes(resumed).length === 0)) {
      const checked = await this.checkSignatures(resumed, null);
      if (checked.status === 'flow-changed') return checked;
    }
    return this.driveUnlocked(id, resumed);
  }

  /** Runs a failed node again, with the trigger that woke it if one did. */
  retry(id: string): Promise<ProcessRecord> {
    return this.locked(id, () => this.retryUnlocked(id));
  }

  protected async retryUnlocked(id: string): Promise<ProcessRecord> {
    const record = await this.mustGet(id);
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
    await this.store.putProcess(cleared, [
      this.stamp(id, { type: 'retried', node }, cleared.snapshot),
    ]);
    // A retry is a wake: a flow changed while the process was failed is reported before the node
    // runs again (the trigger that woke it, if one did, stays pending through the choice).
    if (pendingWakes(cleared).length === 0) {
      const checked = await this.checkSignatures(cleared, null);
      if (checked.status === 'flow-changed') return checked;
    }
    return this.driveUnlocked(id, cleared);
  }

  /** Carries out the designer's choice for a process whose flow changed (docs/format.md). */
  resolve(id: string, choice: ResolveChoice): Promise<ProcessRecord> {
    return this.locked(id, () => this.resolveUnlocked(id, choice));
  }

  protected async resolveUnlocked(id: string, choice: ResolveChoice): Promise<ProcessRecord> {
    const record = await this.mustGet(id);
    if (record.status !== 'flow-changed') {
      throw new SupervisorError(
        `process "${id}" is ${record.status}; only a process whose flow changed can be resolved`,
      );
    }
    const journal = (r: ProcessRecord) => [
      this.stamp(id, { type: 'resolved', choice }, r.snapshot),
    ];
    const base = { ...record, changes: [], error: null };
    if (choice === 'cancel') {
      const cancelled: ProcessRecord = {
        ...withPendingWakes(base, []),
        status: 'cancelled',
        due: null,
      };
      await this.store.putProcess(cancelled, journal(cancelled));
      return cancelled;
    }
    if (choice === 'restart') {
      const flows = await loadFlowSet([record.flow], (f) => this.store.getFlow(f));
      const flow = flows.get(record.flow);
      if (!flow) throw new SupervisorError(`flow "${record.flow}" is no longer in the workspace`);
      assertRunnable(flows);
      const versions = signaturesById(flows);
      for (const f of flows.values()) await this.store.putFlowVersion(f, versions[f.id]!);
      const restarted: ProcessRecord = {
        ...withPendingWakes(base, []),
        status: 'running',
        snapshot: startSnapshot(flow, seedOf(id)),
        versions,
        pinned: false,
        due: null,
      };
      await this.store.putProcess(restarted, journal(restarted));
      return this.driveUnlocked(id);
    }
    if (choice === 'keep') {
      const status = statusOf(record.snapshot) as ProcessStatus;
      const kept: ProcessRecord = { ...base, pinned: true, status };
      await this.store.putProcess(kept, journal(kept));
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
    for (const f of after.values()) await this.store.putFlowVersion(f, versions[f.id]!);
    const continued: ProcessRecord = {
      ...base,
      snapshot: rebased.snapshot,
      versions,
      pinned: false,
      status: statusOf(rebased.snapshot) as ProcessStatus,
    };
    await this.store.putProcess(continued, journal(continued));
    return this.afterResolve(continued);
  }

  /**
   * With `continue` and `keep`, every trigger that woke the process counts as if it had just
   * fired, and then every timer due meanwhile fires: the drive takes both.
   */
  protected async afterResolve(record: ProcessRecord): Promise<ProcessRecord> {
    const flows = await this.sleptOn(record);
    const settled: ProcessRecord = {
      ...record,
      due: this.dueOf(record.snapshot, flows),
      waitsFor: this.waitsForOf(record.status, record.snapshot, flows),
    };
    await this.store.putProcess(settled);
    return this.driveUnlocked(record.id, settled);
  }
}
