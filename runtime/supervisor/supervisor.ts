import type { Flow } from '../../shared/schema.ts';
import type { CallProgress } from '../calls/callProgress.ts';
import type { AttemptResult } from '../calls/recordedCall.ts';
import { checkExtraFunctions } from '../expr/evaluate.ts';
import { CallLoop } from './callLoop.ts';
import { ChangeListeners } from './changes.ts';
import type { Clock } from './clock.ts';
import { ContextGuesses } from './contextGuesses.ts';
import { ContextWrites } from './contextWrites.ts';
import { Controls, type ResolveChoice } from './controls.ts';
import { Deliveries } from './deliveries.ts';
import { FlowReader } from './flowReader.ts';
import { forkProcess, type ForkOptions } from './fork.ts';
import { InMemoryRunner } from './inMemoryRun.ts';
import {
  BATCH_SLICE_MS,
  MAX_STEPS_PER_BATCH,
  MAX_STEPS_PER_COMMIT,
  MAX_STEPS_PER_RUN,
} from './limits.ts';
import { InProcessLocks } from './locks.ts';
import { OneByOneAdvance } from './oneByOneAdvance.ts';
import type {
  Advance,
  AdvanceOptions,
  StepWatch,
  SupervisorOptions,
  WakeOptions,
} from './options.ts';
import { ProcessLock } from './processLock.ts';
import { ProcessRunner } from './processRunner.ts';
import { ProcessStarts, type StartOptions } from './processStarts.ts';
import type { PendingWake, ProcessRecord } from './records.ts';
import type { Store } from './store.ts';
import { SupervisorError } from './supervisorError.ts';
import { timeSlices } from './timeSlices.ts';
import { WakeBatcher } from './wakeBatcher.ts';
import { watchCommits } from './watchedStore.ts';

export { MAX_STEPS_PER_RUN, SupervisorError };
export type { CallOptions } from './options.ts';
export type {
  AdvanceOptions,
  ResolveChoice,
  StartOptions,
  StepWatch,
  SupervisorOptions,
  WakeOptions,
};

/**
 * The supervisor: owns the clock, keeps everything in the store, and wakes processes
 * (docs/format.md#the-runtime-and-the-supervisor). The engine computes; this performs the
 * effects, one committed step at a time. A facade: each operation is one part's
 * (docs/architecture.md, supervisor/), and the parts are built here, each given what it uses.
 */
export class Supervisor {
  private readonly changes = new ChangeListeners();
  private readonly lock: ProcessLock;
  private readonly runner: ProcessRunner;
  private readonly flows: FlowReader;
  /** The runs in memory (wakeOneByOne.test.ts counts them). */
  private readonly inMemory: InMemoryRunner;
  private readonly starts: ProcessStarts;
  private readonly controls: Controls;
  private readonly deliveries: Deliveries;
  private readonly contextWrites: ContextWrites;
  private readonly batcher: WakeBatcher;
  /** How `advanceTo` moves the clock: chosen once, from `wakeOneByOne`. */
  private readonly advance: Advance;
  private readonly newId: (kind: 'process' | 'context') => string;
  /** Sends calls, told of every commit through the store the parts write to (callLoop.ts). */
  private readonly calls: CallLoop;
  /** The store as the parts write to it: each commit of a process tells the call loop. */
  private readonly watched: Store;

  constructor(
    readonly store: Store,
    readonly clock: Clock,
    options: WakeOptions = {},
  ) {
    let ids = 0;
    const newId = (this.newId =
      options.newId ?? ((kind: 'process' | 'context') => `${kind}-${++ids}`));
    const maxSteps = options.maxStepsPerRun ?? MAX_STEPS_PER_RUN;
    const stopRequests = new Set<string>();
    const changes = this.changes;
    const locks = options.locks ?? new InProcessLocks();
    const lock = (this.lock = new ProcessLock(locks, changes));
    const calls = (this.calls = new CallLoop({
      store,
      clock,
      lock,
      locks,
      changes,
      // Late-bound: the deliveries are built on the store the loop watches.
      fire: (id, seq, trigger, outcome, entries, loaded) =>
        this.deliveries.fireCall(id, seq, trigger, outcome, entries, loaded),
      options: options.calls,
      sends: options.sendsCalls ?? true,
    }));
    // Every part writes through this one: each commit of a process tells the call loop.
    const watched = (this.watched = watchCommits(store, (record) => calls.committed(record)));
    const flows = (this.flows = new FlowReader(watched));
    const guesses = new ContextGuesses();
    if (options.functions) checkExtraFunctions(options.functions);
    const inMemory = (this.inMemory = new InMemoryRunner({
      keepsJournal: watched.keepsJournal,
      watch: options.watch,
      maxLiveBranches: options.maxLiveBranches,
      functions: options.functions,
      betweenSteps: options.betweenSteps,
      // Engine acts need no queue: one caller, no watch (SupervisorOptions.wakeOneByOne).
      actsAlone: (options.wakeOneByOne ?? false) && !options.watch,
      stopRequests,
    }));
    const runner = (this.runner = new ProcessRunner({
      store: watched,
      clock,
      flows,
      guesses,
      inMemory,
      lock,
      changes,
      stopRequests,
      maxSteps,
      maxStepsPerCommit: options.maxStepsPerCommit ?? MAX_STEPS_PER_COMMIT,
    }));
    this.starts = new ProcessStarts({
      store: watched,
      flows,
      lock,
      runner,
      newId,
      pause: options.betweenSteps,
    });
    this.controls = new Controls({ store: watched, clock, flows, lock, runner, stopRequests });
    this.deliveries = new Deliveries({ store: watched, flows, lock, runner });
    this.contextWrites = new ContextWrites({ store: watched, clock, lock, runner });
    this.batcher = new WakeBatcher({
      store: watched,
      clock,
      flows,
      guesses,
      inMemory,
      runner,
      lock,
      changes,
      stopRequests,
      maxSteps,
      calls,
      maxStepsPerBatch: options.maxStepsPerBatch ?? MAX_STEPS_PER_BATCH,
      betweenWakes: options.betweenSteps ?? timeSlices(options.batchSliceMs ?? BATCH_SLICE_MS),
    });
    this.advance = options.wakeOneByOne
      ? new OneByOneAdvance({
          store: watched,
          clock,
          flows,
          lock,
          runner,
          changes,
          calls,
          batched: this.batcher,
        })
      : this.batcher;
  }

  /** Starts a process of `flowId` on a new context, or bound to the context of another process. */
  start(flowId: string, options: StartOptions = {}): Promise<ProcessRecord> {
    return this.starts.start(flowId, options);
  }

  /** Starts a process at the position of a journal entry of another (fork.ts); the caller drives it. */
  fork(source: string, options: ForkOptions): Promise<ProcessRecord> {
    const deps = {
      store: this.watched,
      clock: this.clock,
      newId: this.newId,
      sleptOn: (r: ProcessRecord) => this.flows.sleptOn(r),
    };
    return forkProcess(deps, source, options).then((r) => (this.changes.changed(r.id), r));
  }

  /**
   * Runs a process step by step, each step committed, until it stops. Every loop of a valid flow
   * stops at a continue-after, so the budget only catches a flow that multiplies its branches
   * without end; the process then stops rather than freezing the page.
   */
  drive(id: string): Promise<ProcessRecord> {
    return this.lock.locked(id, () => this.runner.drive(id));
  }

  /** Runs every process that can run until it stops, oldest first (ProcessRunner.runAll). */
  runAll(): Promise<void> {
    return this.runner.runAll();
  }

  /** The earliest due time of any waiting process's timer or call attempt, or null. */
  async nextDue(): Promise<number | null> {
    await this.calls.ready();
    // The due index's first key: no process record is read.
    const timer = await this.store.nextDueAt();
    const call = this.calls.nextDue();
    return timer === null ? call : call === null ? timer : Math.min(timer, call);
  }

  /**
   * Fires every timer due by now, in order of due time, running each woken process to its stop,
   * then starts every call attempt due by now; their answers come when they come (each fire a
   * wake of its own). A failure of an earlier attempt's bookkeeping is thrown here.
   */
  async wakeDue(): Promise<number> {
    await this.calls.ready();
    const woken = await this.batcher.wakeDue();
    await this.calls.startDue();
    return woken;
  }

  /** Each call wait's progress (attempts, when the next is due, the last status), for the inspector. */
  callProgress(id: string): Promise<CallProgress[]> {
    return this.calls.progressOf(id);
  }

  /** Makes the next attempt of wait `seq` due now and starts it; false when it has none to send. */
  sendCallNow(id: string, seq: number): Promise<boolean> {
    return this.calls.sendNow(id, seq);
  }

  /** Answers the attempt of wait `seq` that waits for one (a scenario's `respond`). */
  respondCall(
    id: string,
    seq: number,
    answer: { result: AttemptResult; after?: number },
  ): Promise<boolean> {
    return this.calls.respond(id, seq, answer);
  }

  /** Resolves once every call attempt in flight, and what its answer fires, has settled. */
  idle(): Promise<void> {
    return this.calls.idle();
  }

  /**
   * Waits for the attempts in flight (`idle`) and gives back the call locks it kept; the store
   * is the caller's to close.
   */
  close(): Promise<void> {
    return this.calls.close();
  }

  /**
   * Advances the virtual clock to `target`, firing each timer due on the way at its due time,
   * in order (a timer due exactly at `target` fires), and ends it at `target`: in shared
   * batches (wakeBatcher.ts), or with `wakeOneByOne` one process at a time (oneByOneAdvance.ts).
   */
  advanceTo(target: number, options?: AdvanceOptions): Promise<{ wakes: number; reached: number }> {
    return this.advance.advanceTo(target, options);
  }

  /** The inspector's Step (Controls.stepOnce). */
  stepOnce(id: string): Promise<ProcessRecord> {
    return this.controls.stepOnce(id);
  }

  /** Fires a waiting process's earliest timer now, whatever its due time (the inspector's Wake now). */
  wakeNow(id: string): Promise<ProcessRecord> {
    return this.controls.wakeNow(id);
  }

  /** Delivers an event to every wait for that name, or only those of process `to`. */
  deliverEvent(name: string, payload: unknown, to?: string): Promise<number> {
    return this.deliveries.deliverEvent(name, payload, to);
  }

  /** Completes a human trigger of the continue-after at `nodePath` (Deliveries.submitHuman). */
  submitHuman(
    id: string,
    nodePath: string,
    input: unknown,
    triggerId?: string,
    waitSeq?: number,
  ): Promise<ProcessRecord> {
    return this.deliveries.submitHuman(id, nodePath, input, triggerId, waitSeq);
  }

  /** Fires a call trigger with its outcome (the call sender's fire); false when the wait is gone. */
  fireCall(id: string, seq: number, triggerId: string, outcome: unknown): Promise<boolean> {
    return this.deliveries.fireCall(id, seq, triggerId, outcome);
  }

  /** Writes to a process's context from outside any process (compare-and-set on the version). */
  setContext(id: string, path: string, value: unknown): Promise<void> {
    return this.contextWrites.setContext(id, path, value);
  }

  /** Replaces a process's whole context from outside (compare-and-set on the version). */
  replaceContext(id: string, value: unknown): Promise<void> {
    return this.contextWrites.replaceContext(id, value);
  }

  /** Fails a process at `path` from outside the step that was running it (Controls.failRunaway). */
  failRunaway(
    id: string,
    path: string,
    message: string,
    wake: PendingWake | null,
  ): Promise<ProcessRecord> {
    return this.controls.failRunaway(id, path, message, wake);
  }

  /** Why `continue` would be refused for a process whose flow changed, or undefined if it would not. */
  continueProblem(id: string): Promise<string | undefined> {
    return this.controls.continueProblem(id);
  }

  stop(id: string): Promise<ProcessRecord> {
    return this.controls.stop(id);
  }

  /** Asks a run of `id` in progress here to stop after its current step (another tab's Stop). */
  requestStop(id: string): Promise<void> {
    return this.controls.requestStop(id);
  }

  /** Resumes a stopped process; a timer that fell due meanwhile fires at once, once. */
  resume(id: string): Promise<ProcessRecord> {
    return this.controls.resume(id);
  }

  /** Runs a failed node again, with the trigger that woke it if one did. */
  retry(id: string): Promise<ProcessRecord> {
    return this.controls.retry(id);
  }

  /** Carries out the designer's choice for a process whose flow changed (docs/format.md). */
  resolve(id: string, choice: ResolveChoice): Promise<ProcessRecord> {
    return this.controls.resolve(id, choice);
  }

  /** Hears of every change to a process, after it is stored (for the app and other tabs). */
  onChange(listener: (processId: string) => void): () => void {
    return this.changes.on(listener);
  }

  mustGet(id: string): Promise<ProcessRecord> {
    return this.runner.mustGet(id);
  }

  /** The flows a process fell asleep on (the versions it records), whatever the workspace holds now. */
  sleptOn(record: ProcessRecord): Promise<Map<string, Flow>> {
    return this.flows.sleptOn(record);
  }
}
