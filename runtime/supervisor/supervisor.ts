import { applyWrites, type ContextWrite } from '../../shared/contextWrite.ts';
import { contextPathProblem } from '../../shared/contextPath.ts';
import { describeProblem } from '../../shared/describeProblem.ts';
import { diffFlows, type FlowChange } from '../../shared/flowDiff.ts';
import type { Flow } from '../../shared/schema.ts';
import { validateFlow } from '../../shared/validateFlow.ts';
import type { EngineJournalEntry } from '../engine/journal.ts';
import { rebaseSnapshot } from '../engine/rebase.ts';
import type { Snapshot } from '../engine/snapshot.ts';
import type { EngineEnv } from '../engine/run.ts';
import {
  clearFailure,
  fire,
  signaturesOf,
  startSnapshot,
  statusOf,
  step,
  waitsWithTriggers,
  type StepResult,
} from '../engine/step.ts';
import { timersOf } from '../engine/timers.ts';
import { isSettable, type Clock } from './clock.ts';
import { FlowCache } from './flowCache.ts';
import { inOrder } from './inOrder.ts';
import { loadFlowSet, scopeFlowIds, signaturesById } from './flowSet.ts';
import { humanInputProblem } from './humanInput.ts';
import type {
  ContextChange,
  ContextRecord,
  JournalEntry,
  PendingWake,
  ProcessRecord,
  ProcessStatus,
  SupervisorJournalEntry,
} from './records.ts';
import type { Store } from './store.ts';
import { InProcessLocks, type LockOptions, type Locks } from './locks.ts';

export interface SupervisorOptions {
  /** Per-process locks: Web Locks in the browser, so that two tabs never run one process. */
  locks?: Locks;
  newId?: (kind: 'process' | 'context') => string;
  /** Hears which node each step is in, and when it is out (the app's runaway watchdog). */
  watch?: StepWatch;
}

/**
 * Told when a step enters a node and when the step is over. A runner that can only stop a
 * runaway expression from outside (the app ends its Web Worker) learns from it which process and
 * node to fail, and which wake to keep for a retry.
 */
export interface StepWatch {
  entering(process: string, path: string, wake: PendingWake | null): void;
  left(process: string): void;
}

/** A request the supervisor refuses; nothing was changed. The message says why. */
export class SupervisorError extends Error {}

export type ResolveChoice = 'continue' | 'keep' | 'restart' | 'cancel';

/** Steps one run may take before the supervisor stops the process (see `drive`). */
export const MAX_STEPS_PER_RUN = 100_000;

/**
 * Wakes `wakeDue` runs at once. Each wake waits on IndexedDB most of the time (its reads and one
 * transaction per step); with several in flight, one computes while the others' requests run.
 */
const WAKE_CONCURRENCY = 8;

/** How often a step is run again when another writer moved the context on meanwhile. */
const MAX_CONFLICT_RETRIES = 50;

/**
 * The supervisor: owns the clock, keeps everything in the store, and wakes processes
 * (FORMAT.md, The runtime and the supervisor). The engine computes; this performs the effects,
 * one committed step at a time.
 */
export class Supervisor {
  private created = 0;
  private ids = 0;

  private readonly locks: Locks;
  private readonly newId: (kind: 'process' | 'context') => string;
  private readonly listeners = new Set<(processId: string) => void>();
  private readonly stopRequests = new Set<string>();
  private readonly watch: StepWatch | undefined;
  private readonly flowCache = new FlowCache();
  /** The engine act in progress, if any (see `oneAtATime`). */
  private acting: Promise<unknown> = Promise.resolve();
  /**
   * The contexts this supervisor last read or committed, the most recent last: the first guess
   * of a step, which saves a read per step. A guess another writer has since moved on fails the
   * step's compare-and-set, and the step runs again on the context read afresh. Several, since
   * wakeDue runs several wakes at once; a few dozen, since a guess is only worth it just after.
   */
  private readonly knownContexts = new Map<string, ContextRecord>();

  constructor(
    readonly store: Store,
    readonly clock: Clock,
    options: SupervisorOptions = {},
  ) {
    this.locks = options.locks ?? new InProcessLocks();
    this.newId = options.newId ?? ((kind) => `${kind}-${++this.ids}`);
    this.watch = options.watch;
  }

  /**
   * Runs engine acts one at a time, whatever runs at once around them (wakeDue's wakes): only
   * store requests overlap, and the watch sees each step enter and leave before the next.
   */
  private oneAtATime<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.acting.then(fn);
    this.acting = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  /** Runs one engine act, telling the watch when it is over, however it ends. */
  private async watched<T>(process: string, fn: () => Promise<T>): Promise<T> {
    if (!this.watch) return fn();
    try {
      return await fn();
    } finally {
      this.watch.left(process);
    }
  }

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
          ...record,
          status: 'failed',
          snapshot: { ...record.snapshot, failed: { path, message } },
          due: null,
          error: `node "${path}": ${message}`,
          pendingWake: wake ?? record.pendingWake,
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

  /** Hears of every change to a process, after it is stored (for the app and other tabs). */
  onChange(listener: (processId: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(id: string): void {
    for (const l of this.listeners) l(id);
  }

  /** Runs `fn` holding the process's lock, so that no other runner touches it meanwhile. */
  private async locked<T>(id: string, fn: () => Promise<T>, options?: LockOptions): Promise<T> {
    const result = await this.locks.withLock(
      `wakeflow:process:${id}`,
      async () => {
        try {
          return await fn();
        } finally {
          this.changed(id);
        }
      },
      options,
    );
    if (!result.held) throw new SupervisorError(`process "${id}" is busy in another tab`);
    return result.value;
  }

  /** Starts a process of `flowId` on a new context, or bound to the context of another process. */
  async start(
    flowId: string,
    options: { id?: string; context?: unknown; shareContextWith?: string; paused?: boolean } = {},
  ): Promise<ProcessRecord> {
    const id = options.id ?? this.newId('process');
    return this.locked(id, () => this.create(id, flowId, options));
  }

  private async create(
    id: string,
    flowId: string,
    options: { context?: unknown; shareContextWith?: string; paused?: boolean },
  ): Promise<ProcessRecord> {
    if (options.context !== undefined && options.shareContextWith !== undefined) {
      throw new SupervisorError('a process starts on a new context or shares one, not both');
    }
    if (await this.store.getProcess(id))
      throw new SupervisorError(`a process "${id}" already exists`);
    const flows = await loadFlowSet([flowId], (f) => this.store.getFlow(f));
    const flow = flows.get(flowId);
    if (!flow) throw new SupervisorError(`there is no flow "${flowId}" in the workspace`);
    assertRunnable(flows);
    let contextId: string;
    if (options.shareContextWith !== undefined) {
      const other = await this.store.getProcess(options.shareContextWith);
      if (!other)
        throw new SupervisorError(
          `there is no process "${options.shareContextWith}" to share a context with`,
        );
      contextId = other.contextId;
    } else {
      // Ids from an earlier run of the same generator may be taken (a crash between writes).
      do contextId = this.newId('context');
      while (await this.store.getContext(contextId));
      const value = options.context === undefined ? {} : structuredClone(options.context);
      if (!(await this.store.putContext({ id: contextId, version: 0, value }, null))) {
        throw new SupervisorError(`a context "${contextId}" already exists`);
      }
    }
    const versions = signaturesById(flows);
    for (const f of flows.values()) await this.store.putFlowVersion(f, versions[f.id]!);
    const existing = await this.store.listProcesses();
    this.created = Math.max(this.created, ...existing.map((p) => p.created + 1));
    const record: ProcessRecord = {
      id,
      flow: flowId,
      contextId,
      status: 'running',
      snapshot: startSnapshot(flow),
      due: null,
      versions,
      pinned: false,
      error: null,
      changes: [],
      pendingWake: null,
      created: this.created++,
    };
    // Paused: stopped before its first node, for a designer to step through it.
    const first = options.paused
      ? { ...record, status: 'stopped' as const, stoppedFrom: 'running' as const }
      : record;
    await this.store.putProcess(first, [
      this.stamp(id, { type: 'started', flow: flowId, contextId }, first.snapshot),
    ]);
    return options.paused ? first : this.driveUnlocked(id);
  }

  /**
   * Runs a process step by step, each step committed, until it stops. Every loop of a valid flow
   * stops at a continue-after, so the budget only catches a flow that multiplies its branches
   * without end; the process then stops rather than freezing the page.
   */
  drive(id: string): Promise<ProcessRecord> {
    return this.locked(id, () => this.driveUnlocked(id));
  }

  /**
   * `from` and `flows`: the record as the caller just committed it and the flows it ran on, so
   * that a wake reads neither again. The flows stay those of the drive's start: a flow saved
   * meanwhile is the next wake's to compare, as for any process that slept through an edit.
   */
  private async driveUnlocked(
    id: string,
    from?: ProcessRecord,
    flows?: Map<string, Flow>,
  ): Promise<ProcessRecord> {
    let record = from ?? (await this.mustGet(id));
    for (let steps = 0; record.status === 'running' && !this.stopRequests.has(id); steps++) {
      flows ??= await this.flowsFor(record);
      if (steps === MAX_STEPS_PER_RUN) {
        const error = `ran ${MAX_STEPS_PER_RUN} steps without stopping; stopped so the page stays responsive`;
        record = { ...record, status: 'stopped', stoppedFrom: 'running', error };
        await this.store.putProcess(record, [this.stamp(id, { type: 'stopped' }, record.snapshot)]);
        break;
      }
      record = await this.commit(
        record,
        (snapshot, context, env) => step(snapshot, context, env),
        null,
        flows,
      );
    }
    return record;
  }

  /** Runs every process that can run until it stops, oldest first. */
  async runAll(): Promise<void> {
    for (const p of await this.store.listProcesses())
      if (p.status === 'running') await this.drive(p.id);
  }

  /** The earliest due time of any waiting process, or null. */
  async nextDue(): Promise<number | null> {
    return (await this.store.dueProcesses(Number.POSITIVE_INFINITY))[0]?.due ?? null;
  }

  /** Fires every timer due by now, in order of due time, running each woken process to its stop. */
  async wakeDue(): Promise<number> {
    let woken = 0;
    // A process another runner holds is left to it; it is not tried again in this call.
    const busy = new Set<string>();
    for (;;) {
      // One read of the due index per round, not per wake: waking n due processes reads n
      // records, not n². A process a wake makes due again is found by the next round.
      const round = (await this.store.dueProcesses(this.clock.now())).filter(
        (p) => !busy.has(p.id),
      );
      if (round.length === 0) return woken;
      // Several wakes at once, so that IndexedDB always has the next transaction queued;
      // processes sharing a context still wake one after another, in order of due time.
      await inOrder(
        round,
        WAKE_CONCURRENCY,
        (p) => p.contextId,
        async (next) => {
          const result = await this.locks.withLock(
            `wakeflow:process:${next.id}`,
            async () => {
              // Read again under the lock: another tab may have woken it meanwhile.
              const { record, read } = await this.load(next.id);
              if (
                record.status !== 'waiting' ||
                record.due === null ||
                record.due > this.clock.now()
              )
                return false;
              await this.fireEarliestTimer(record, read);
              this.changed(record.id);
              return true;
            },
            { ifAvailable: true },
          );
          if (!result.held) busy.add(next.id);
          else if (result.value) woken++;
        },
      );
    }
  }

  /**
   * Fires a process's earliest timer. Timers are read from the versions the process fell asleep
   * on: the flow may have changed since, which the wake itself then reports.
   */
  private async fireEarliestTimer(record: ProcessRecord, read = this.flowReader()): Promise<void> {
    const flows = await this.sleptOn(record);
    const timer = timersOf(record.snapshot, (f) => flows.get(f))[0];
    if (!timer) {
      // The flows it slept on no longer say what it waits for: say so rather than pick this
      // process forever or leave it asleep without a word.
      const error =
        'the flow this process slept on is missing from the workspace; restart or cancel it';
      await this.store.putProcess({ ...record, due: null, status: 'flow-changed', error });
      return;
    }
    await this.wake(record, { seq: timer.seq, trigger: timer.trigger }, read);
  }

  /**
   * Advances the virtual clock to `target`, stopping at each due time in turn so that timers fire
   * in order (a timer due exactly at `target` fires). Long advances report each stop to
   * `onProgress` and end early, at the last time reached, when `signal` is aborted.
   */
  async advanceTo(
    target: number,
    options: { onProgress?: (time: number, wakes: number) => void; signal?: AbortSignal } = {},
  ): Promise<{ wakes: number; reached: number }> {
    const clock = this.clock;
    if (!isSettable(clock)) throw new SupervisorError('only a virtual clock can be advanced');
    let wakes = 0;
    for (;;) {
      if (options.signal?.aborted) return { wakes, reached: clock.now() };
      const next = await this.nextDue();
      if (next === null || next > target) break;
      clock.set(next);
      wakes += await this.wakeDue();
      await this.runAll();
      options.onProgress?.(clock.now(), wakes);
    }
    clock.set(target);
    return { wakes, reached: target };
  }

  /**
   * Runs one step (the inspector's Step): of a running process, or of one stopped between two
   * steps, which stays stopped after the step unless the step brought it to a stop of its own.
   */
  stepOnce(id: string): Promise<ProcessRecord> {
    return this.locked(id, async () => {
      const record = await this.mustGet(id);
      const paused = record.status === 'stopped' && statusOf(record.snapshot) === 'running';
      if (record.status !== 'running' && !paused) {
        throw new SupervisorError(
          `process "${id}" is ${record.status}; only a process with a node ready can step`,
        );
      }
      const stepped = await this.commit(record, (snapshot, context, env) =>
        step(snapshot, context, env),
      );
      if (!paused || stepped.status !== 'running') return stepped;
      const kept: ProcessRecord = { ...stepped, status: 'stopped', stoppedFrom: 'running' };
      await this.store.putProcess(kept);
      return kept;
    });
  }

  /** Fires a waiting process's earliest timer now, whatever its due time (the inspector's Wake now). */
  wakeNow(id: string): Promise<ProcessRecord> {
    return this.locked(id, async () => {
      const record = await this.mustGet(id);
      if (record.status !== 'waiting')
        throw new SupervisorError(`process "${id}" is ${record.status}, not waiting`);
      const flows = await this.sleptOn(record);
      const timer = timersOf(record.snapshot, (f) => flows.get(f))[0];
      if (!timer)
        throw new SupervisorError(
          `process "${id}" waits for no timer; deliver its event or answer its form`,
        );
      return this.wake(record, { seq: timer.seq, trigger: timer.trigger });
    });
  }

  /** Delivers an event to every wait for that name, or only those of process `to`. */
  async deliverEvent(name: string, payload: unknown, to?: string): Promise<number> {
    if (to !== undefined) await this.mustGet(to);
    let delivered = 0;
    for (const candidate of await this.store.listProcesses()) {
      if (to !== undefined && candidate.id !== to) continue;
      if (candidate.status !== 'waiting') continue;
      delivered += await this.locked(candidate.id, () =>
        this.deliverTo(candidate.id, name, payload),
      );
    }
    return delivered;
  }

  private async deliverTo(id: string, name: string, payload: unknown): Promise<number> {
    let delivered = 0;
    let record = await this.mustGet(id);
    const flows = await this.sleptOn(record);
    // Each wait is looked up afresh: an earlier one may have ended the others.
    for (const seq of waitsWithTriggers(record.snapshot, (f) => flows.get(f)).map((w) => w.seq)) {
      record = await this.mustGet(id);
      if (record.status !== 'waiting') break;
      const wait = waitsWithTriggers(record.snapshot, (f) => flows.get(f)).find(
        (w) => w.seq === seq,
      );
      const trigger = wait?.triggers.find((t) => t.event === name);
      if (!wait || !trigger) continue;
      await this.wake(record, { seq, trigger: trigger.id, payload });
      delivered++;
    }
    return delivered;
  }

  /** Completes a human trigger of the continue-after at `nodePath` with checked input. */
  submitHuman(
    id: string,
    nodePath: string,
    input: unknown,
    triggerId?: string,
  ): Promise<ProcessRecord> {
    return this.locked(id, () => this.submitHumanUnlocked(id, nodePath, input, triggerId));
  }

  private async submitHumanUnlocked(
    id: string,
    nodePath: string,
    input: unknown,
    triggerId?: string,
  ): Promise<ProcessRecord> {
    const { record, read } = await this.load(id);
    if (record.status !== 'waiting') {
      throw new SupervisorError(`process "${id}" is ${record.status}, not waiting for a person`);
    }
    const flows = await this.sleptOn(record);
    const wait = waitsWithTriggers(record.snapshot, (f) => flows.get(f)).find(
      (w) => w.path === nodePath,
    );
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
    const problem = humanInputProblem(trigger, input);
    if (problem) throw new SupervisorError(`"${nodePath}": ${problem}`);
    return this.wake(record, { seq: wait.seq, trigger: trigger.id, payload: input }, read);
  }

  /** Writes to a process's context from outside any process (compare-and-set on the version). */
  async setContext(id: string, path: string, value: unknown): Promise<void> {
    const problem = contextPathProblem(path);
    if (problem) throw new SupervisorError(problem);
    const record = await this.mustGet(id);
    const writes: ContextWrite[] = [
      value === undefined ? { path } : { path, value: structuredClone(value) },
    ];
    for (let attempt = 0; attempt < MAX_CONFLICT_RETRIES; attempt++) {
      const context = await this.mustGetContext(record.contextId);
      const change = this.change(record.contextId, context.version + 1, null, null, writes);
      const next = {
        id: context.id,
        version: context.version + 1,
        value: applyWrites(context.value, writes),
      };
      if (await this.store.putContext(next, context.version, change)) {
        this.changed(id);
        return;
      }
    }
    throw new SupervisorError(`the context of "${id}" kept changing; try again`);
  }

  /** Replaces a process's whole context from outside (compare-and-set on the version). */
  async replaceContext(id: string, value: unknown): Promise<void> {
    const record = await this.mustGet(id);
    for (let attempt = 0; attempt < MAX_CONFLICT_RETRIES; attempt++) {
      const context = await this.mustGetContext(record.contextId);
      const writes: ContextWrite[] = [{ path: '', value: structuredClone(value) }];
      const change = this.change(record.contextId, context.version + 1, null, null, writes);
      const next = { id: context.id, version: context.version + 1, value: structuredClone(value) };
      if (await this.store.putContext(next, context.version, change)) {
        this.changed(id);
        return;
      }
    }
    throw new SupervisorError(`the context of "${id}" kept changing; try again`);
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
  private async planContinue(record: ProcessRecord) {
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
    const wake = record.pendingWake;
    if (wake) {
      const wait = waitsWithTriggers(moved.snapshot, (f) => after.get(f)).find(
        (x) => x.seq === wake.seq,
      );
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

  private async stopUnlocked(id: string): Promise<ProcessRecord> {
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

  private async resumeUnlocked(id: string): Promise<ProcessRecord> {
    const record = await this.mustGet(id);
    if (record.status !== 'stopped')
      throw new SupervisorError(`process "${id}" is ${record.status}, not stopped`);
    const { stoppedFrom: _from, ...rest } = record;
    const flows = await this.sleptOn(record);
    const resumed: ProcessRecord = {
      ...rest,
      status: statusOf(record.snapshot) as ProcessStatus,
      due: this.dueOf(record.snapshot, flows),
    };
    await this.store.putProcess(resumed, [this.stamp(id, { type: 'resumed' }, resumed.snapshot)]);
    // A timer that fell due while stopped fires at once, once: it wakes the process like any
    // other, so a changed flow is reported with that trigger still pending.
    const timer = timersOf(resumed.snapshot, (f) => flows.get(f))[0];
    if (resumed.status === 'waiting' && timer && timer.due <= this.clock.now()) {
      return this.wake(resumed, { seq: timer.seq, trigger: timer.trigger });
    }
    const checked = await this.checkSignatures(resumed, null);
    if (checked.status === 'flow-changed') return checked;
    return this.driveUnlocked(id);
  }

  /** Runs a failed node again, with the trigger that woke it if one did. */
  retry(id: string): Promise<ProcessRecord> {
    return this.locked(id, () => this.retryUnlocked(id));
  }

  private async retryUnlocked(id: string): Promise<ProcessRecord> {
    const record = await this.mustGet(id);
    if (record.status !== 'failed')
      throw new SupervisorError(`process "${id}" is ${record.status}, not failed`);
    const node = record.snapshot.failed?.path ?? '';
    const cleared: ProcessRecord = {
      ...record,
      snapshot: clearFailure(record.snapshot),
      error: null,
    };
    cleared.status = record.pendingWake ? 'waiting' : 'running';
    await this.store.putProcess(cleared, [
      this.stamp(id, { type: 'retried', node }, cleared.snapshot),
    ]);
    if (cleared.pendingWake) return this.wake(cleared, cleared.pendingWake);
    return this.driveUnlocked(id);
  }

  /** Carries out the designer's choice for a process whose flow changed (FORMAT.md). */
  resolve(id: string, choice: ResolveChoice): Promise<ProcessRecord> {
    return this.locked(id, () => this.resolveUnlocked(id, choice));
  }

  private async resolveUnlocked(id: string, choice: ResolveChoice): Promise<ProcessRecord> {
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
        ...base,
        status: 'cancelled',
        due: null,
        pendingWake: null,
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
        ...base,
        status: 'running',
        snapshot: startSnapshot(flow),
        versions,
        pinned: false,
        pendingWake: null,
        due: null,
      };
      await this.store.putProcess(restarted, journal(restarted));
      return this.driveUnlocked(id);
    }
    if (choice === 'keep') {
      const kept: ProcessRecord = { ...base, pinned: true, status: 'waiting' };
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

  /** With `continue` and `keep`, the trigger that woke the process counts as if it had just fired. */
  private async afterResolve(record: ProcessRecord): Promise<ProcessRecord> {
    const flows = await this.sleptOn(record);
    const settled: ProcessRecord = { ...record, due: this.dueOf(record.snapshot, flows) };
    await this.store.putProcess(settled);
    if (settled.pendingWake) return this.wake(settled, settled.pendingWake);
    return this.driveUnlocked(record.id);
  }

  /** Wakes a waiting process with one trigger, unless its flow changed while it slept. */
  private async wake(
    record: ProcessRecord,
    wake: PendingWake,
    // The workspace's flows are read once for the whole wake: the check, the fire, the drive.
    read = this.flowReader(),
  ): Promise<ProcessRecord> {
    const checked = await this.checkSignatures(record, wake, read);
    if (checked.status === 'flow-changed') return checked;
    const flows = await this.flowsFor(checked, read);
    const fired = await this.commit(
      checked,
      (snapshot, context, env) => fire(snapshot, context, env, wake),
      wake,
      flows,
    );
    return fired.status === 'running' ? this.driveUnlocked(record.id, fired, flows) : fired;
  }

  /**
   * Reads the workspace's flows for one operation: each from the store once, always (another tab
   * may have saved it), and as the object kept for its content (flowCache.ts).
   */
  private flowReader(known?: Map<string, Flow>): (id: string) => Promise<Flow | undefined> {
    const read = new Map<string, Promise<Flow | undefined>>();
    for (const [id, f] of known ?? []) read.set(id, Promise.resolve(this.flowCache.canonical(f)));
    return (id) => {
      let flow = read.get(id);
      if (!flow) {
        flow = this.store.getFlow(id).then((f) => this.flowCache.canonical(f));
        read.set(id, flow);
      }
      return flow;
    };
  }

  /** Compares the signatures a process started on with its flows now; sets `flow-changed`. */
  private async checkSignatures(
    record: ProcessRecord,
    wake: PendingWake | null,
    read = this.flowReader(),
  ): Promise<ProcessRecord> {
    if (record.pinned) return record;
    const changes: FlowChange[] = [];
    const seen = new Set<string>();
    for (const scope of signaturesOf(record.snapshot)) {
      if (seen.has(scope.flow)) continue;
      seen.add(scope.flow);
      const current = await read(scope.flow);
      const currentSignature = current ? this.flowCache.signature(current) : undefined;
      if (currentSignature === scope.signature) continue;
      const before = await this.store.getFlowVersion(scope.flow, scope.signature);
      const diff = diffFlows(before, current);
      changes.push(
        ...(diff.length > 0
          ? diff
          : [{ flow: scope.flow, item: 'node' as const, id: '', change: 'changed' as const }]),
      );
    }
    if (changes.length === 0) return record;
    const changed: ProcessRecord = {
      ...record,
      status: 'flow-changed',
      changes,
      pendingWake: wake,
      due: null,
    };
    await this.store.putProcess(changed, [
      this.stamp(record.id, { type: 'flow-changed', changes }, changed.snapshot),
    ]);
    return changed;
  }

  /**
   * Runs one engine step and commits it: the context by compare-and-set on its version, with the
   * snapshot and journal entries in the same commit. On a conflict the step runs again against
   * the fresh context, so no write is lost.
   */
  private async commit(
    record: ProcessRecord,
    act: (
      snapshot: ProcessRecord['snapshot'],
      context: unknown,
      env: EngineEnv,
    ) => Promise<StepResult>,
    wake: PendingWake | null = null,
    known?: Map<string, Flow>,
  ): Promise<ProcessRecord> {
    const flows = known ?? (await this.flowsFor(record));
    const guess = this.knownContexts.get(record.contextId);
    for (let attempt = 0; attempt < MAX_CONFLICT_RETRIES; attempt++) {
      const context = attempt === 0 && guess ? guess : await this.mustGetContext(record.contextId);
      const now = this.clock.now();
      const result = await this.oneAtATime(() =>
        this.watched(record.id, () =>
          act(record.snapshot, context.value, {
            flows: (f) => flows.get(f),
            now,
            ...(this.watch
              ? { entering: (path) => this.watch?.entering(record.id, path, wake) }
              : {}),
          }),
        ),
      );
      const failed = result.status === 'failed';
      const next: ProcessRecord = {
        ...record,
        snapshot: result.snapshot,
        status: result.status,
        due: result.status === 'waiting' ? this.dueOf(result.snapshot, flows) : null,
        error: failed
          ? `node "${result.snapshot.failed?.path}": ${result.snapshot.failed?.message}`
          : null,
        wakes: (record.wakes ?? 0) + (wake && !failed ? 1 : 0),
        pendingWake: failed ? wake : null,
      };
      const node = nodeOfWrites(result.journal);
      const write =
        result.writes.length > 0
          ? {
              value: applyWrites(context.value, result.writes),
              change: this.change(context.id, context.version + 1, record.id, node, result.writes),
            }
          : undefined;
      const last = result.journal.length - 1;
      const journal = result.journal.map((e, i) =>
        this.stamp(record.id, e, i === last ? next.snapshot : undefined),
      );
      const ok = await this.store.commitStep({
        process: next,
        context: { id: context.id, expectedVersion: context.version, ...(write ? { write } : {}) },
        journal,
      });
      if (ok) {
        this.knowContext(
          write ? { id: context.id, version: context.version + 1, value: write.value } : context,
        );
        return next;
      }
    }
    throw new SupervisorError(
      `the context of "${record.id}" kept changing under it; the step did not commit`,
    );
  }

  /**
   * The flows a process fell asleep on (the versions it records), whatever the workspace holds
   * now: its waits, triggers and timers are read from these, and a wake then compares them.
   */
  sleptOn(record: ProcessRecord): Promise<Map<string, Flow>> {
    return this.flowsFor({ ...record, pinned: true });
  }

  /** The flows a process runs on: its pinned versions after `keep`, else the workspace's. */
  private async flowsFor(
    record: ProcessRecord,
    read = this.flowReader(),
  ): Promise<Map<string, Flow>> {
    const roots = [record.flow, ...scopeFlowIds(record.snapshot.scope)];
    if (!record.pinned) return loadFlowSet(roots, read);
    return loadFlowSet(roots, async (f) => {
      const signature = record.versions[f];
      const version =
        signature === undefined
          ? undefined
          : await this.flowCache.version(f, signature, () =>
              this.store.getFlowVersion(f, signature),
            );
      // A version missing from the store (a database from before versions were kept) falls back
      // to the current flow; a wake then compares signatures as always.
      return version ?? read(f);
    });
  }

  private dueOf(snapshot: ProcessRecord['snapshot'], flows: Map<string, Flow>): number | null {
    return timersOf(snapshot, (f) => flows.get(f))[0]?.due ?? null;
  }

  private change(
    contextId: string,
    version: number,
    process: string | null,
    node: string | null,
    writes: ContextWrite[],
  ): ContextChange {
    return { contextId, version, process, node, writes, at: this.clock.now() };
  }

  /**
   * A journal entry with its time. The last entry of each write carries the snapshot the write
   * leaves the process at, so the inspector can show any moment without an extra store request.
   */
  private stamp(
    process: string,
    entry: EngineJournalEntry | SupervisorJournalEntry,
    snapshot?: Snapshot,
  ): JournalEntry {
    return { ...entry, process, at: this.clock.now(), ...(snapshot ? { snapshot } : {}) };
  }

  /**
   * A process to wake, with a reader of the workspace's flows and the context guess seeded from
   * the same read: with a store that reads them together, a wake starts with one request.
   */
  private async load(id: string) {
    const loaded = await this.store.loadProcess?.(id);
    if (!loaded) return { record: await this.mustGet(id), read: this.flowReader() };
    // A context just read is as good a first guess as any (see `knownContexts`).
    if (loaded.context) this.knowContext(loaded.context);
    return { record: loaded.record, read: this.flowReader(loaded.flows) };
  }

  private knowContext(context: ContextRecord): void {
    this.knownContexts.delete(context.id);
    this.knownContexts.set(context.id, context);
    if (this.knownContexts.size > 32)
      this.knownContexts.delete(this.knownContexts.keys().next().value!);
  }

  async mustGet(id: string): Promise<ProcessRecord> {
    const record = await this.store.getProcess(id);
    if (!record) throw new SupervisorError(`there is no process "${id}"`);
    return record;
  }

  private async mustGetContext(id: string) {
    const context = await this.store.getContext(id);
    if (!context) throw new SupervisorError(`context "${id}" is missing from the store`);
    return context;
  }
}

function nodeOfWrites(journal: EngineJournalEntry[]): string | null {
  const entry = journal.find((e) => e.type === 'context-written');
  return entry && entry.type === 'context-written' ? entry.node : null;
}

/** Refuses flows with problems: a process starts only on flows that can run (FORMAT.md §4). */
function assertRunnable(flows: ReadonlyMap<string, Flow>): void {
  for (const f of flows.values()) {
    const problems = validateFlow(f);
    if (problems.length > 0) {
      const first = problems.slice(0, 3).map(describeProblem).join('; ');
      throw new SupervisorError(`flow "${f.id}" cannot run until it is fixed: ${first}`);
    }
  }
}
