import { describeProblem } from '../../shared/describeProblem.ts';
import { validateFlow } from '../../shared/validateFlow.ts';
import { applyWritesOwned, type ContextWrite } from '../../shared/contextWrite.ts';
import { diffFlows, type FlowChange } from '../../shared/flowDiff.ts';
import type { Flow } from '../../shared/schema.ts';
import type { EngineJournalEntry } from '../engine/journal.ts';
import type { Snapshot } from '../engine/snapshot.ts';
import type { EngineEnv } from '../engine/run.ts';
import { checkExtraFunctions, type ExtraFunctions } from '../expr/evaluate.ts';
import {
  fire,
  fireNow,
  signaturesOf,
  step,
  stepNow,
  waitsWithTriggers,
  type StepResult,
} from '../engine/step.ts';
import { copyForStep } from '../engine/snapshot.ts';
import { dueTimer, earliestTimer, RunTimers } from '../engine/timers.ts';
import { isSettable, type Clock } from './clock.ts';
import { FlowCache } from './flowCache.ts';
import { isSmallPosition, keepsSnapshot } from './journalSnapshots.ts';
import { loadFlowSet, scopeFlowIds } from './flowSet.ts';
import { carrying, pendingWakes, waitSeqs, withPendingWakes } from './pendingWakes.ts';
import type {
  ContextChange,
  ContextRecord,
  JournalEntry,
  PendingWake,
  ProcessRecord,
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
  /** Steps (and wakes) one drive may take before the process is stopped; MAX_STEPS_PER_RUN. */
  maxStepsPerRun?: number;
  /** Live branches a process may have at once (the engine's MAX_LIVE_BRANCHES when absent). */
  maxLiveBranches?: number;
  /**
   * Awaited between the steps of a run held in memory. The app's worker yields to its event loop
   * there (now and then), so that a long run lets in the commands that arrive meanwhile, a Stop
   * from any tab among them, which then takes effect after the step in progress.
   */
  betweenSteps?: () => Promise<void> | void;
  /**
   * An advance wakes one process at a time, in order of due time, and runs it on across its own
   * timers up to the next other process's due time, in one commit (supervisor.ts,
   * `advanceTo`), instead of batching the due processes into shared transactions
   * (supervisorWakes.ts). For a store whose commits cost nothing to share, kept in memory by
   * its only runner, whose caller runs one operation at a time (so that, without a watch, the
   * engine's acts are not queued behind one another): `flow simulate`. Same records, contexts
   * and report (wakeOneByOne.property.test.ts).
   */
  wakeOneByOne?: boolean;
  /**
   * Functions expressions may call besides JSONata's own, handed to the engine in its
   * environment (`EngineEnv.functions`). The app gives none; the dev server's worker gives
   * `$block` when an e2e test asks (web/runtime/testFunctions.ts).
   */
  functions?: ExtraFunctions;
}

/**
 * How a run may go on past a stop whose earliest timer is not due yet (an advance that wakes one
 * process at a time): `may(due)` says whether a timer due then fires in this run, `at(due)` the
 * time it fires at, from which the run's later acts take their time.
 */
export interface RunOn {
  may(due: number): boolean;
  at(due: number): number;
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

/** Steps one run may take before the supervisor stops the process (see `drive`). */
export const MAX_STEPS_PER_RUN = 100_000;

/**
 * Steps one commit holds at most. A wake or a drive runs to its next stop in memory and commits
 * once (docs/persistence.md); a run longer than this commits every so many steps, so that what
 * it holds in memory, and the time between two turns of the event loop, stay bounded.
 */
export const MAX_STEPS_PER_COMMIT = 1000;

/** How often a step is run again when another writer moved the context on meanwhile. */
export const MAX_CONFLICT_RETRIES = 50;

/**
 * What every operation of the supervisor stands on: the store, the clock and the locks, and the
 * one way a step is taken and committed (`commit`), a process woken (`wake`) and driven to its
 * next stop (`driveUnlocked`). The operations a caller asks for are in supervisor.ts.
 */
export abstract class SupervisorCore {
  protected ids = 0;

  protected readonly locks: Locks;
  protected readonly newId: (kind: 'process' | 'context') => string;
  protected readonly listeners = new Set<(processId: string) => void>();
  protected readonly stopRequests = new Set<string>();
  protected readonly watch: StepWatch | undefined;
  protected readonly maxSteps: number;
  protected readonly maxLiveBranches: number | undefined;
  protected readonly betweenSteps: (() => Promise<void> | void) | undefined;
  protected readonly wakeOneByOne: boolean;
  protected readonly functions: ExtraFunctions | undefined;
  /** Engine acts need no queue (`oneAtATime`): one caller, no watch. */
  private readonly actsAlone: boolean;
  protected readonly flowCache = new FlowCache();
  /** The engine act in progress, if any (see `oneAtATime`). */
  protected acting: Promise<unknown> = Promise.resolve();
  /**
   * The contexts this supervisor last read or committed, the most recent last: the first guess
   * of a step, which saves a read per step. A guess another writer has since moved on fails the
   * step's compare-and-set, and the step runs again on the context read afresh. Several, since
   * wakeDue runs several wakes at once; a few dozen, since a guess is only worth it just after.
   */
  protected readonly knownContexts = new Map<string, ContextRecord>();

  constructor(
    readonly store: Store,
    readonly clock: Clock,
    options: SupervisorOptions = {},
  ) {
    this.locks = options.locks ?? new InProcessLocks();
    this.newId = options.newId ?? ((kind) => `${kind}-${++this.ids}`);
    this.watch = options.watch;
    this.maxSteps = options.maxStepsPerRun ?? MAX_STEPS_PER_RUN;
    this.maxLiveBranches = options.maxLiveBranches;
    this.betweenSteps = options.betweenSteps;
    this.wakeOneByOne = options.wakeOneByOne ?? false;
    this.actsAlone = this.wakeOneByOne && !this.watch;
    if (options.functions) checkExtraFunctions(options.functions);
    this.functions = options.functions;
  }

  /**
   * Runs engine acts one at a time, whatever runs at once around them (wakeDue's wakes): only
   * store requests overlap, and the watch sees each step enter and leave before the next.
   */
  protected oneAtATime<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.acting.then(fn);
    this.acting = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  /** Runs one engine act, telling the watch when it is over, however it ends. */
  protected async watched<T>(process: string, fn: () => Promise<T>): Promise<T> {
    if (!this.watch) return fn();
    try {
      return await fn();
    } finally {
      this.watch.left(process);
    }
  }

  /** Hears of every change to a process, after it is stored (for the app and other tabs). */
  onChange(listener: (processId: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  protected changed(id: string): void {
    for (const l of this.listeners) l(id);
  }

  /** Runs `fn` holding the process's lock, so that no other runner touches it meanwhile. */
  protected async locked<T>(id: string, fn: () => Promise<T>, options?: LockOptions): Promise<T> {
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

  /**
   * Runs a process until it stops: a node ready runs; a process asleep takes, first, the triggers
   * that fired for it while it could not take them (pendingWakes.ts), then each timer due now
   * (`dueTimer`: at or before the clock). This is the one place where what is due now is acted
   * on, after every step, start, wake, resume, retry and resolution alike.
   *
   * `from` and `flows`: the record as the caller just committed it and the flows it ran on, so
   * that a wake reads neither again. The flows stay those of the drive's start: a flow saved
   * meanwhile is the next wake's to compare, as for any process that slept through an edit.
   */
  protected async driveUnlocked(
    id: string,
    from?: ProcessRecord,
    flows?: Map<string, Flow>,
    /** Steps the caller already took in this run, which count against the budget. */
    taken = 0,
  ): Promise<ProcessRecord> {
    let record = from ?? (await this.mustGet(id));
    // Timers are read from the versions the process fell asleep on: the drive's own flows once
    // it has run a step, and before that the versions the record names (the flow may have
    // changed since, which the wake then reports).
    let asleepOn = from ? flows : undefined;
    let steps = taken;
    while (!this.stopRequests.has(id)) {
      if (record.status !== 'running' && record.status !== 'waiting') break;
      flows ??= await this.flowsFor(record);
      const wake =
        record.status === 'waiting'
          ? this.nextWake(record, asleepOn ?? (await this.sleptOn(record)))
          : undefined;
      if (record.status === 'waiting' && !wake) break;
      // Each pass of a `PT0S` loop is a durable stop, but no time passes: the budget counts it.
      if (steps >= this.maxSteps) {
        const error = `ran ${this.maxSteps} steps without waiting for time to pass; stopped so the page stays responsive`;
        record = { ...record, status: 'stopped', stoppedFrom: record.status, error };
        await this.store.putProcess(record, [this.stamp(id, { type: 'stopped' }, record.snapshot)]);
        break;
      }
      // A run goes on in memory to its next stop, within what is left of the budget.
      const budget = Math.min(MAX_STEPS_PER_COMMIT, this.maxSteps - steps);
      if (!wake) {
        const run = await this.commitRun(record, stepAct, null, flows, budget);
        record = run.record;
        steps += run.steps;
        // A long run reports as it goes: each commit may be shown.
        this.changed(id);
        asleepOn = flows;
        continue;
      }
      const fired = await this.fireOne(record, wake, this.flowReader(flows), budget);
      record = fired.record;
      steps += fired.steps;
      if (!fired.flows) break;
      flows = asleepOn = fired.flows;
    }
    return record;
  }

  /**
   * What wakes a sleeping process next: its oldest pending trigger whose wait is still there
   * (an earlier one may have ended it, as `terminate` does), or else its earliest timer due now.
   */
  private nextWake(record: ProcessRecord, flows: Map<string, Flow>): PendingWake | undefined {
    const lookup = (f: string) => flows.get(f);
    const queue = pendingWakes(record);
    if (queue.length > 0) {
      const live = waitSeqs(record.snapshot);
      const first = queue.find((w) => live.has(w.seq));
      if (first) return first;
    }
    const timer = dueTimer(record.snapshot, lookup, this.clock.now());
    return timer ? { seq: timer.seq, trigger: timer.trigger } : undefined;
  }

  /** Wakes a waiting process with one trigger, unless its flow changed while it slept. */
  protected async wake(
    record: ProcessRecord,
    wake: PendingWake,
    // The workspace's flows are read once for the whole wake: the check, the fire, the drive.
    read = this.flowReader(),
    /** The run may go on across later timers (an advance, `RunOn`); the clock then follows it. */
    later?: RunOn,
  ): Promise<ProcessRecord> {
    const fired = await this.fireOne(record, wake, read, undefined, later);
    if (fired.at !== undefined && isSettable(this.clock) && fired.at > this.clock.now())
      this.clock.set(fired.at);
    return fired.flows
      ? this.driveUnlocked(record.id, fired.record, fired.flows, fired.steps)
      : fired.record;
  }

  /**
   * Fires one trigger and commits it, after comparing signatures; `flows` is absent when the flow
   * changed (the record is then `flow-changed`, with the trigger pending). The trigger leaves the
   * record's pending wakes; a failure puts it back first (`carrying`). The steps after the fire
   * run in the same commit, up to `budget` acts in all; `steps` says how many ran.
   */
  private async fireOne(
    record: ProcessRecord,
    wake: PendingWake,
    read: (id: string) => Promise<Flow | undefined>,
    budget = Math.min(MAX_STEPS_PER_COMMIT, this.maxSteps),
    later?: RunOn,
  ): Promise<{ record: ProcessRecord; flows?: Map<string, Flow>; steps: number; at?: number }> {
    // Pending wakes whose waits are gone are dropped with it: nothing could fire them.
    const live = waitSeqs(record.snapshot);
    const rest = pendingWakes(record).filter((w) => w.seq !== wake.seq && live.has(w.seq));
    const checked = await this.checkSignatures(withPendingWakes(record, rest), wake, read);
    if (checked.status === 'flow-changed') return { record: checked, steps: 0 };
    const flows = await this.flowsFor(checked, read);
    // The fire and the steps after it, to the next stop, in one commit.
    const fired = await this.commitRun(
      checked,
      (snapshot, context, env) => fire(snapshot, context, env, wake),
      wake,
      flows,
      budget,
      later,
    );
    return {
      record: fired.record,
      flows,
      steps: fired.steps,
      ...(fired.at === undefined ? {} : { at: fired.at }),
    };
  }

  /**
   * Reads the workspace's flows for one operation: each from the store once, always (another tab
   * may have saved it), and as the object kept for its content (flowCache.ts).
   */
  protected flowReader(known?: Map<string, Flow>): (id: string) => Promise<Flow | undefined> {
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

  /** Whether every flow a process runs is still the version it started on (or it is pinned). */
  protected async sameFlows(
    record: ProcessRecord,
    read: (id: string) => Promise<Flow | undefined>,
  ): Promise<boolean> {
    if (record.pinned) return true;
    for (const scope of signaturesOf(record.snapshot)) {
      const current = await read(scope.flow);
      if (!current || this.flowCache.signature(current) !== scope.signature) return false;
    }
    return true;
  }

  /** Compares the signatures a process started on with its flows now; sets `flow-changed`. */
  protected async checkSignatures(
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
      ...withPendingWakes(record, carrying(record, wake)),
      status: 'flow-changed',
      changes,
      due: null,
    };
    await this.store.putProcess(changed, [
      this.stamp(record.id, { type: 'flow-changed', changes }, changed.snapshot),
    ]);
    return changed;
  }

  /**
   * Runs one engine act and commits it: the context by compare-and-set on its version, with the
   * snapshot and journal entries in the same commit. On a conflict the act runs again against
   * the fresh context, so no write is lost.
   */
  protected async commit(
    record: ProcessRecord,
    act: EngineAct,
    wake: PendingWake | null = null,
    known?: Map<string, Flow>,
  ): Promise<ProcessRecord> {
    return (await this.commitRun(record, act, wake, known, 1)).record;
  }

  /**
   * Runs `act`, then, while the process can run, up to `budget` acts in all, in memory, and
   * commits them together (group commit, docs/persistence.md): one compare-and-set on the
   * context as the run first read it, each node's writes a version of their own, the snapshot
   * the run ends at, every journal entry. The engine is deterministic, so a run that did not
   * commit (a crash, a conflict) is simply run again from the record it started from.
   */
  protected async commitRun(
    record: ProcessRecord,
    act: EngineAct,
    wake: PendingWake | null,
    known: Map<string, Flow> | undefined,
    budget: number,
    later?: RunOn,
  ): Promise<{ record: ProcessRecord; steps: number; at?: number }> {
    const flows = known ?? (await this.flowsFor(record));
    const guess = this.knownContexts.get(record.contextId);
    // The time of each step of the run, read once as the step is first taken: a run again on a
    // fresh context takes the same steps, and each one's `$now()` and new waits see the time it
    // saw the first time (docs/format.md, expressions are deterministic).
    const times: number[] = [];
    const timeOf = (step: number) => (times[step] ??= this.clock.now());
    for (let attempt = 0; attempt < MAX_CONFLICT_RETRIES; attempt++) {
      const context = attempt === 0 && guess ? guess : await this.mustGetContext(record.contextId);
      const run = await this.runInMemory(record, act, wake, flows, budget, context, timeOf, later);
      const write = run.changes.length > 0 ? { value: run.value, changes: run.changes } : undefined;
      const ok = await this.store.commitStep({
        process: run.record,
        context: { id: context.id, expectedVersion: context.version, ...(write ? { write } : {}) },
        journal: run.journal,
      });
      if (ok) {
        this.knowContext(
          write
            ? { id: context.id, version: context.version + run.changes.length, value: run.value }
            : context,
        );
        // A run that went on across later timers counts, for the drive's budget, the steps
        // since its time last moved: the budget is on steps taken while no time passes.
        return run.at === undefined
          ? { record: run.record, steps: run.steps }
          : { record: run.record, steps: run.sinceMoved, at: run.at };
      }
    }
    throw new SupervisorError(
      `the context of "${record.id}" kept changing under it; the step did not commit`,
    );
  }

  /**
   * Runs `act`, then, while the process can run, up to `budget` acts in all, in memory, on the
   * context as given (`version` is the one the run starts from): what a commit then writes.
   * `timeOf(n)` is the time of the run's n-th act. Stores nothing; a caller commits it, or
   * drops it and runs it again from the same record.
   */
  protected async runInMemory(
    record: ProcessRecord,
    act: EngineAct,
    wake: PendingWake | null,
    flows: Map<string, Flow>,
    budget: number,
    context: ContextRecord,
    timeOf: (step: number) => number,
    /** Absent: the run stops where no timer is due at its time (see `RunOn`). */
    later?: RunOn,
  ): Promise<InMemoryRun> {
    const envAt = (now: number): EngineEnv => ({
      flows: (f) => flows.get(f),
      now,
      ...(this.maxLiveBranches === undefined ? {} : { maxLiveBranches: this.maxLiveBranches }),
      ...(this.functions ? { functions: this.functions } : {}),
      // Every act of the run carries its wake: until the run commits, the wake has not happened.
      ...(this.watch ? { entering: (path) => this.watch?.entering(record.id, path, wake) } : {}),
    });
    let env: EngineEnv | undefined;
    const journal: JournalEntry[] = [];
    const changes: ContextChange[] = [];
    let value = context.value;
    // The objects of `value` this run copied: nobody else holds them until the run commits, so
    // a later step's writes change them in place (a write copying the whole context each step
    // made a run of n writing steps cost n²).
    let ownWrites: Set<object> | undefined;
    let snapshot = record.snapshot;
    let result: StepResult;
    let steps = 0;
    // A stop with a timer due at once (a PT0S wait, or many waits due at the same time) fires it
    // in the same run, unless other triggers are queued (the drive fires those first): each fire
    // its own commit cost a process with n waits due together n commits, each timing all n.
    const rest = pendingWakes(record).filter((w) => w.seq !== wake?.seq);
    const lookup = (f: string) => flows.get(f);
    let firing: PendingWake | null = null;
    let lastFire: PendingWake | null = null;
    let lastFireAct = 0;
    let chainedFires = 0;
    let timers: RunTimers | undefined;
    // Where the run went on across a later timer: the time its acts take from then on.
    let moved: number | undefined;
    let sinceMoved = 0;
    // A store that keeps no journal is handed none, and no position is copied for one.
    const keepsJournal = this.store.keepsJournal !== false;
    for (;;) {
      const current = snapshot;
      const input = value;
      const now = moved ?? timeOf(steps);
      const stepEnv = env?.now === now ? env : (env = envAt(now));
      // From the second act on, the snapshot is the run's own, seen by no one else: the engine
      // may change its counters in place (engine/run.ts), so that a step costs what it does,
      // not what the flow's size is.
      const owned = steps > 0;
      const fires = firing;
      firing = null;
      // Queued behind other acts only where another could run at once or a watch listens: a
      // supervisor that wakes one by one has one caller, and the queue cost an act two promises.
      // Alone, an owned act that needed no awaiting is not awaited either (stepNow, fireNow): a
      // promise and turns of the microtask queue per act. Elsewhere the turns are kept as they
      // were, since concurrent runs interleave their acts by them.
      if (this.actsAlone) {
        const taken = !owned
          ? act(current, input, stepEnv)
          : fires
            ? fireNow(current, input, stepEnv, fires, true)
            : stepNow(current, input, stepEnv, true);
        result = taken instanceof Promise ? await taken : taken;
      } else {
        const take = () =>
          !owned
            ? act(current, input, stepEnv)
            : fires
              ? fire(current, input, stepEnv, fires, true)
              : step(current, input, stepEnv, true);
        result = await this.oneAtATime(() => this.watched(record.id, take));
      }
      steps++;
      sinceMoved++;
      if (fires) {
        lastFire = fires;
        lastFireAct = steps;
        if (result.status !== 'failed') chainedFires++;
      }
      if (result.writes.length > 0) {
        value = applyWritesOwned(value, result.writes, (ownWrites ??= new Set()));
        const node = nodeOfWrites(result.journal);
        const version = context.version + changes.length + 1;
        changes.push(this.change(context.id, version, record.id, node, result.writes, now));
      }
      // The step's entries are its own, made for this result and held by nobody else: stamped
      // in place, not copied (a spread of entries of every shape was a large part of a pass).
      if (keepsJournal)
        for (const e of result.journal) {
          const stamped = e as JournalEntry;
          stamped.process = record.id;
          stamped.at = now;
          journal.push(stamped);
        }
      snapshot = result.snapshot;
      if (
        result.status === 'waiting' &&
        rest.length === 0 &&
        steps < budget &&
        !this.stopRequests.has(record.id)
      ) {
        const timer = (timers ??= new RunTimers(lookup)).earliest(snapshot);
        const then = moved ?? timeOf(steps);
        const goesOn = timer !== undefined && timer.due > then && later?.may(timer.due) === true;
        if (timer && (timer.due <= then || goesOn)) {
          // A stop inside the run: its entry keeps the position while it is small, as a copy,
          // since the acts after it change the run's own snapshot in place. A stop the run goes
          // on from at a later time keeps it whatever its size, as the commit of a wake of its
          // own there would have.
          const stop = journal.at(-1);
          if (stop && (goesOn || isSmallPosition(snapshot))) stop.snapshot = copyForStep(snapshot);
          if (goesOn) {
            moved = later!.at(timer.due);
            sinceMoved = 0;
          }
          firing = { seq: timer.seq, trigger: timer.trigger };
          // Acts that run alone with no pause to take take no turn of the microtask queue.
          if (this.betweenSteps || !this.actsAlone) await this.betweenSteps?.();
          continue;
        }
      }
      if (result.status === 'running' && steps < budget && (this.betweenSteps || !this.actsAlone))
        await this.betweenSteps?.();
      if (result.status !== 'running' || steps >= budget || this.stopRequests.has(record.id)) break;
    }
    const failed = result.status === 'failed';
    // A fire that failed in its own act (the run's first) keeps its trigger, first, for
    // `retry`; a fired one leaves the queue, whatever the steps after it did. So does a timer
    // the run fired at a stop inside it.
    const fireFailed = failed && steps === 1;
    const chainFailed = failed && lastFire !== null && lastFireAct === steps;
    const queue = fireFailed ? carrying(record, wake) : chainFailed ? [lastFire!, ...rest] : rest;
    const next: ProcessRecord = {
      ...withPendingWakes(record, queue),
      snapshot,
      status: result.status,
      due: result.status === 'waiting' ? this.dueOf(snapshot, flows) : null,
      waitsFor: this.waitsForOf(result.status, snapshot, flows),
      error: failed ? `node "${snapshot.failed?.path}": ${snapshot.failed?.message}` : null,
      wakes: (record.wakes ?? 0) + (wake && !fireFailed ? 1 : 0) + chainedFires,
    };
    // The last entry of a commit keeps the snapshot the commit leaves (records.ts); inside a
    // run, only while the position is small (journalSnapshots.ts). The entry is this run's own,
    // made by `stamp` above: set in place.
    const last = journal.at(-1);
    if (last && keepsSnapshot(next)) last.snapshot = snapshot;
    return {
      record: next,
      journal,
      changes,
      value,
      steps,
      wakes: (wake && !fireFailed ? 1 : 0) + chainedFires,
      sinceMoved,
      ...(moved === undefined ? {} : { at: moved }),
    };
  }

  /**
   * The flows a process fell asleep on (the versions it records), whatever the workspace holds
   * now: its waits, triggers and timers are read from these, and a wake then compares them.
   */
  sleptOn(record: ProcessRecord): Promise<Map<string, Flow>> {
    return this.flowsFor({ ...record, pinned: true });
  }

  /** The flows a process runs on: its pinned versions after `keep`, else the workspace's. */
  protected async flowsFor(
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

  protected dueOf(snapshot: ProcessRecord['snapshot'], flows: Map<string, Flow>): number | null {
    return earliestTimer(snapshot, (f) => flows.get(f))?.due ?? null;
  }

  /** The event names a waiting process's waits listen for (records.ts, `waitsFor`). */
  protected waitsForOf(
    status: ProcessRecord['status'],
    snapshot: ProcessRecord['snapshot'],
    flows: Map<string, Flow>,
  ): string[] | undefined {
    if (status !== 'waiting') return undefined;
    const names = new Set<string>();
    for (const w of waitsWithTriggers(snapshot, (f) => flows.get(f)))
      for (const t of w.triggers) if (t.event !== undefined) names.add(t.event);
    return [...names];
  }

  protected change(
    contextId: string,
    version: number,
    process: string | null,
    node: string | null,
    writes: ContextWrite[],
    at = this.clock.now(),
  ): ContextChange {
    return { contextId, version, process, node, writes, at };
  }

  /**
   * A journal entry with its time. The last entry of each commit carries the snapshot the commit
   * leaves the process at, so the inspector can show any moment without an extra store request.
   */
  protected stamp(
    process: string,
    entry: EngineJournalEntry | SupervisorJournalEntry,
    snapshot?: Snapshot,
    at = this.clock.now(),
  ): JournalEntry {
    // Set after the spread, not spread in: one object made per entry, not three.
    const stamped: JournalEntry = { ...entry, process, at };
    if (snapshot) stamped.snapshot = snapshot;
    return stamped;
  }

  /**
   * A process to wake, with a reader of the workspace's flows and the context guess seeded from
   * the same read: with a store that reads them together, a wake starts with one request.
   */
  protected async load(id: string) {
    const loaded = await this.store.loadProcess?.(id);
    if (!loaded) return { record: await this.mustGet(id), read: this.flowReader() };
    // A context just read is as good a first guess as any (see `knownContexts`).
    if (loaded.context) this.knowContext(loaded.context);
    return { record: loaded.record, read: this.flowReader(loaded.flows) };
  }

  protected knowContext(context: ContextRecord): void {
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

  protected async mustGetContext(id: string) {
    const context = await this.store.getContext(id);
    if (!context) throw new SupervisorError(`context "${id}" is missing from the store`);
    return context;
  }
}

/** A run taken in memory (`runInMemory`): the record it leaves and what its commit writes. */
export interface InMemoryRun {
  record: ProcessRecord;
  journal: JournalEntry[];
  /** One per node that wrote, numbered on from the context's version the run started at. */
  changes: ContextChange[];
  value: unknown;
  steps: number;
  /** Triggers the run fired: its wake, and the timers due at once at the stops inside it. */
  wakes: number;
  /** Acts since the run's time last moved (`RunOn`): all of them when it never moved. */
  sinceMoved: number;
  /** The time the run went on to, when it went on across a later timer. */
  at?: number;
}

/** An engine act on a snapshot and the context: a step, or the fire of a trigger. */
export type EngineAct = (
  snapshot: ProcessRecord['snapshot'],
  context: unknown,
  env: EngineEnv,
) => Promise<StepResult>;

const stepAct: EngineAct = (snapshot, context, env) => step(snapshot, context, env);

function nodeOfWrites(journal: EngineJournalEntry[]): string | null {
  const entry = journal.find((e) => e.type === 'context-written');
  return entry && entry.type === 'context-written' ? entry.node : null;
}

/** Refuses flows with problems: a process starts only on flows that can run (docs/format.md#errors). */
export function assertRunnable(flows: ReadonlyMap<string, Flow>): void {
  for (const f of flows.values()) {
    const problems = validateFlow(f);
    if (problems.length > 0) {
      const first = problems.slice(0, 3).map(describeProblem).join('; ');
      throw new SupervisorError(`flow "${f.id}" cannot run until it is fixed: ${first}`);
    }
  }
}
