import { applyWrites, type ContextWrite } from '../../shared/contextWrite.ts';
import { contextPathProblem } from '../../shared/contextPath.ts';
import { seedOf } from '../expr/seeded.ts';
import { startSnapshot, statusOf, step, waitsWithTriggers } from '../engine/step.ts';
import { earliestTimer } from '../engine/timers.ts';
import { forkProcess, type ForkOptions } from './fork.ts';
import { isSettable } from './clock.ts';
import { loadFlowSet, signaturesById } from './flowSet.ts';
import { pendingWakes, withPendingWakes } from './pendingWakes.ts';
import { answeredAlready, humanInputProblem } from './humanInput.ts';
import { contextProblem, sizeProblem } from './inputChecks.ts';
import type { ProcessRecord } from './records.ts';
import {
  assertRunnable,
  MAX_CONFLICT_RETRIES,
  MAX_STEPS_PER_RUN,
  SupervisorError,
  type StepWatch,
  type SupervisorOptions,
} from './supervisorCore.ts';
import type { ResolveChoice } from './supervisorControls.ts';
import { SupervisorWakes, type AdvanceOptions } from './supervisorWakes.ts';

/** How a process starts (see `Supervisor.start`). */
export interface StartOptions {
  id?: string;
  context?: unknown;
  shareContextWith?: string;
  /** Stopped before its first node, for a designer to step through it. */
  paused?: boolean;
  /** false: store the process, running, and return; the caller drives it (`runAll`). */
  drive?: boolean;
}

export { MAX_STEPS_PER_RUN, SupervisorError, type StepWatch, type SupervisorOptions };
export type { ResolveChoice };

/**
 * The supervisor: owns the clock, keeps everything in the store, and wakes processes
 * (docs/format.md#the-runtime-and-the-supervisor). The engine computes; this performs the effects,
 * one committed step at a time.
 */
export class Supervisor extends SupervisorWakes {
  private created = 0;
  private createdRead = false;

  /** Starts a process of `flowId` on a new context, or bound to the context of another process. */
  async start(flowId: string, options: StartOptions = {}): Promise<ProcessRecord> {
    const id = options.id ?? this.newId('process');
    return this.locked(id, () => this.create(id, flowId, options));
  }

  /** Starts a process at the position of a journal entry of another (fork.ts); the caller drives it. */
  fork(source: string, options: ForkOptions): Promise<ProcessRecord> {
    const deps = {
      store: this.store,
      clock: this.clock,
      newId: this.newId,
      sleptOn: (r: ProcessRecord) => this.sleptOn(r),
    };
    return forkProcess(deps, source, options).then((r) => (this.changed(r.id), r));
  }

  private async create(id: string, flowId: string, options: StartOptions): Promise<ProcessRecord> {
    if (options.context !== undefined && options.shareContextWith !== undefined) {
      throw new SupervisorError('a process starts on a new context or shares one, not both');
    }
    const problem =
      options.context === undefined
        ? undefined
        : contextProblem('the first context', options.context);
    if (problem) throw new SupervisorError(problem);
    if (await this.store.getProcess(id))
      throw new SupervisorError(`a process "${id}" already exists`);
    const flows = await loadFlowSet([flowId], (f) => this.store.getFlow(f));
    const flow = flows.get(flowId);
    if (!flow) throw new SupervisorError(`there is no flow "${flowId}" in the workspace`);
    assertRunnable(flows);
    let contextId: string;
    // The context as found, journalled with the start so that a past one can be rebuilt.
    let found: { version: number; value: unknown } | undefined;
    if (options.shareContextWith !== undefined) {
      const other = await this.store.getProcess(options.shareContextWith);
      if (!other)
        throw new SupervisorError(
          `there is no process "${options.shareContextWith}" to share a context with`,
        );
      contextId = other.contextId;
      const shared = await this.store.getContext(contextId);
      if (shared) found = { version: shared.version, value: shared.value };
    } else {
      // Ids from an earlier run of the same generator may be taken (a crash between writes).
      do contextId = this.newId('context');
      while (await this.store.getContext(contextId));
      const value = options.context === undefined ? {} : structuredClone(options.context);
      if (!(await this.store.putContext({ id: contextId, version: 0, value }, null))) {
        throw new SupervisorError(`a context "${contextId}" already exists`);
      }
      found = { version: 0, value };
    }
    const versions = signaturesById(flows);
    for (const f of flows.values()) await this.store.putFlowVersion(f, versions[f.id]!);
    // The order of creation is read from the store once, not at every start: a start then costs
    // the same however many processes exist. (Another tab's starts may share a number; the
    // order among them is then their due times'.)
    if (!this.createdRead) {
      const last = await this.store.lastCreated();
      if (last !== null) this.created = Math.max(this.created, last + 1);
      this.createdRead = true;
    }
    const record: ProcessRecord = {
      id,
      flow: flowId,
      contextId,
      status: 'running',
      snapshot: startSnapshot(flow, seedOf(id)),
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
      this.stamp(
        id,
        { type: 'started', flow: flowId, contextId, ...(found && { context: found }) },
        first.snapshot,
      ),
    ]);
    return options.paused || options.drive === false ? first : this.driveUnlocked(id);
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
   * Runs every process that can run until it stops, oldest first: those with a node ready, and
   * those asleep with a timer due now (docs/format.md#scenarios: after every step, every process that can run
   * runs until it stops). One that another runner holds (another tab's long run, a control in
   * progress) is left to it.
   */
  async runAll(): Promise<void> {
    const now = this.clock.now();
    const candidates = this.store.runningProcesses
      ? [...(await this.store.runningProcesses()), ...(await this.store.listDue(now))].sort(
          (a, b) => a.created - b.created,
        )
      : (await this.store.listProcesses()).filter(
          (p) =>
            p.status === 'running' || (p.status === 'waiting' && p.due !== null && p.due <= now),
        );
    for (const p of candidates) {
      const ran = await this.locks.withLock(
        `wakeflow:process:${p.id}`,
        () => this.driveUnlocked(p.id),
        { ifAvailable: true },
      );
      if (ran.held) this.changed(p.id);
    }
  }

  /**
   * With `wakeOneByOne` (and nothing asked of the advance but its target), the due processes are
   * woken one at a time, earliest (then oldest) first, each run on across its own timers while
   * they fall due before any other process's next due time and by `target`, and committed
   * alone; else in shared batches (supervisorWakes.ts). Either way each timer fires at its due
   * time, in order (a process's wakes, and those of processes that share a context, in the
   * order of their times), and the clock ends at `target`.
   */
  override async advanceTo(
    target: number,
    options: AdvanceOptions = {},
  ): Promise<{ wakes: number; reached: number }> {
    const plain =
      options.keepPasses === undefined && options.signal === undefined && !options.onProgress;
    if (!this.wakeOneByOne || !plain) return super.advanceTo(target, options);
    const clock = this.clock;
    if (!isSettable(clock)) throw new SupervisorError('only a virtual clock can be advanced');
    let wakes = 0;
    // A process another runner holds is left to it.
    const busy = new Set<string>();
    for (;;) {
      const due = (await this.store.listDue(target, busy.size + 2)).filter((p) => !busy.has(p.id));
      const first = due[0];
      if (!first) break;
      // The next other process in wake order bounds how far the first one's run may go.
      const next = due[1];
      const base = clock.now();
      // Listed as due: a due time it has.
      if (first.due! > base) clock.set(first.due!);
      const later = {
        may: (at: number) =>
          at <= target &&
          (next === undefined ||
            at < next.due! ||
            (at === next.due! && first.created < next.created)),
        at: (at: number) => Math.max(at, base),
      };
      const ran = await this.locks.withLock(
        `wakeflow:process:${first.id}`,
        async () => {
          // Read again under the lock: what the listing gave may have moved on.
          const record = await this.mustGet(first.id);
          if (record.status !== 'waiting' || record.due === null || record.due > target) return 0;
          const after = await this.wakeEarliest(record, later);
          return (after.wakes ?? 0) - (record.wakes ?? 0);
        },
        { ifAvailable: true },
      );
      if (!ran.held) {
        busy.add(first.id);
        continue;
      }
      this.changed(first.id);
      wakes += ran.value;
      await this.runAll();
    }
    clock.set(target);
    return { wakes, reached: target };
  }

  /**
   * Fires a waiting process's earliest timer and drives it on, its run going on across later
   * timers as `later` allows. One with triggers pending, or whose flows no longer say what it
   * waits for, takes the one-wake path, as a batch leaves it to (fireEarliestTimer).
   */
  private async wakeEarliest(
    record: ProcessRecord,
    later: { may: (due: number) => boolean; at: (due: number) => number },
  ): Promise<ProcessRecord> {
    const flows = await this.sleptOn(record);
    const timer = earliestTimer(record.snapshot, (f) => flows.get(f));
    if (!timer || pendingWakes(record).length > 0) {
      await this.fireEarliestTimer(record);
      return this.mustGet(record.id);
    }
    return this.wake(record, { seq: timer.seq, trigger: timer.trigger }, this.flowReader(), later);
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
      const timer = earliestTimer(record.snapshot, (f) => flows.get(f));
      if (!timer)
        throw new SupervisorError(
          `process "${id}" waits for no timer; deliver its event or answer its form`,
        );
      return this.wake(record, { seq: timer.seq, trigger: timer.trigger });
    });
  }

  /** Delivers an event to every wait for that name, or only those of process `to`. */
  async deliverEvent(name: string, payload: unknown, to?: string): Promise<number> {
    const tooLarge = sizeProblem(`the payload of event "${name}"`, payload);
    if (tooLarge) throw new SupervisorError(tooLarge);
    // Only the processes the index says may wait for the name are read (`waitsFor`); each one's
    // snapshot then says which of its waits take it.
    const candidates =
      to !== undefined ? [await this.mustGet(to)] : await this.store.waitersFor(name);
    let delivered = 0;
    for (const candidate of candidates) {
      if (candidate.status !== 'waiting') continue;
      delivered += await this.locked(candidate.id, () =>
        this.deliverTo(candidate.id, name, payload),
      );
    }
    return delivered;
  }

  /**
   * An event goes to every wait for its name at the moment it is sent (docs/format.md#scenarios): each such
   * wait's trigger joins the process's pending wakes, and the drive fires them in turn, as it
   * fires those a changed flow kept (so an event reaching two waits does the same whether or not
   * the flow changed at the first, once the designer chooses `continue`). A wait that an earlier
   * one ended takes nothing.
   */
  private async deliverTo(id: string, name: string, payload: unknown): Promise<number> {
    const record = await this.mustGet(id);
    if (record.status !== 'waiting') return 0;
    const flows = await this.sleptOn(record);
    const wakes = waitsWithTriggers(record.snapshot, (f) => flows.get(f)).flatMap((w) => {
      const trigger = w.triggers.find((t) => t.event === name);
      return trigger ? [{ seq: w.seq, trigger: trigger.id, payload }] : [];
    });
    if (wakes.length === 0) return 0;
    await this.driveUnlocked(id, withPendingWakes(record, [...pendingWakes(record), ...wakes]));
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
    return this.locked(id, () => this.submitHumanUnlocked(id, nodePath, input, triggerId, waitSeq));
  }

  private async submitHumanUnlocked(
    id: string,
    nodePath: string,
    input: unknown,
    triggerId?: string,
    waitSeq?: number,
  ): Promise<ProcessRecord> {
    const { record, read } = await this.load(id);
    const flows = await this.sleptOn(record);
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
    return this.wake(record, { seq: wait.seq, trigger: trigger.id, payload: input }, read);
  }

  /** Writes to a process's context from outside any process (compare-and-set on the version). */
  async setContext(id: string, path: string, value: unknown): Promise<void> {
    const problem = contextPathProblem(path) ?? sizeProblem(`the value for "${path}"`, value);
    if (problem) throw new SupervisorError(problem);
    const writes: ContextWrite[] = [
      value === undefined ? { path } : { path, value: structuredClone(value) },
    ];
    await this.editContext(id, writes, (current) => applyWrites(current, writes));
  }

  /** Replaces a process's whole context from outside (compare-and-set on the version). */
  async replaceContext(id: string, value: unknown): Promise<void> {
    const problem = contextProblem('the context', value);
    if (problem) throw new SupervisorError(problem);
    const writes: ContextWrite[] = [{ path: '', value: structuredClone(value) }];
    await this.editContext(id, writes, () => structuredClone(value));
  }

  /**
   * A write from outside, journalled in the process it was made on (docs/format.md: the journal
   * records "context written"), in one commit with the context so that neither is kept without
   * the other. Under the process's lock: the commit stores its record as read, which no step in
   * this tab or another may change meanwhile.
   */
  private async editContext(
    id: string,
    writes: ContextWrite[],
    next: (current: unknown) => unknown,
  ): Promise<void> {
    await this.locked(id, async () => {
      for (let attempt = 0; attempt < MAX_CONFLICT_RETRIES; attempt++) {
        const record = await this.mustGet(id);
        const context = await this.mustGetContext(record.contextId);
        const change = this.change(record.contextId, context.version + 1, null, null, writes);
        const committed = await this.store.commitStep({
          process: record,
          context: {
            id: context.id,
            expectedVersion: context.version,
            write: { value: next(context.value), changes: [change] },
          },
          journal: [this.stamp(id, { type: 'context-edited', writes }, record.snapshot)],
        });
        if (committed) return;
      }
      throw new SupervisorError(`the context of "${id}" kept changing; try again`);
    });
  }
}
