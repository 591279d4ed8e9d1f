import { applyWritesOwned } from '../../shared/contextWrite.ts';
import type { Flow } from '../../shared/schema.ts';
import type { EngineJournalEntry } from '../engine/journal.ts';
import type { EngineEnv } from '../engine/run.ts';
import type { ExtraFunctions } from '../expr/evaluate.ts';
import { copyForStep, type Snapshot } from '../engine/snapshot.ts';
import { fireNow, stepNow, type StepResult } from '../engine/step.ts';
import { RunTimers } from '../engine/timers.ts';
import { isSmallPosition, keepsSnapshot } from './journalSnapshots.ts';
import type { RunOn, StepWatch } from './options.ts';
import { carrying, pendingWakes, withPendingWakes } from './pendingWakes.ts';
import { standsAtCall } from './callWaits.ts';
import { contextChange, dueOf, waitsForOf } from './recordFacts.ts';
import type {
  ContextChange,
  ContextRecord,
  JournalEntry,
  PendingWake,
  ProcessRecord,
} from './records.ts';

/**
 * An engine act on a snapshot and the context: a step, or the fire of a trigger; a value when
 * it needed no awaiting (`stepNow`, `fireNow`).
 */
export type EngineAct = (
  snapshot: Snapshot,
  context: unknown,
  env: EngineEnv,
) => StepResult | Promise<StepResult>;

/** The act that runs the next node ready. */
export const stepAct: EngineAct = (snapshot, context, env) => stepNow(snapshot, context, env);

/** The act that fires one trigger of a wait. */
export const fireAct =
  (wake: PendingWake): EngineAct =>
  (snapshot, context, env) =>
    fireNow(snapshot, context, env, wake);

/** A run taken in memory (`InMemoryRunner.run`): the record it leaves and what its commit writes. */
export interface InMemoryRun {
  record: ProcessRecord;
  journal: JournalEntry[];
  /**
   * One per node that wrote, numbered on from the context's version the run started at; none
   * when the store keeps no journal (`InMemorySettings.keepsJournal`), which keeps no changes.
   */
  changes: ContextChange[];
  /** Nodes that wrote: the context versions the run's commit adds, changes kept or not. */
  versions: number;
  value: unknown;
  steps: number;
  /** Triggers the run fired: its wake, and the timers due at once at the stops inside it. */
  wakes: number;
  /** Acts since the run's time last moved (`RunOn`): all of them when it never moved. */
  sinceMoved: number;
  /** The time the run went on to, when it went on across a later timer. */
  at?: number;
}

/** What a run in memory needs of the supervisor besides the process. */
export interface InMemorySettings {
  /** false: the store keeps no journal, so none is made (a MemoryStore for `flow simulate`). */
  keepsJournal: boolean;
  watch: StepWatch | undefined;
  maxLiveBranches: number | undefined;
  functions: ExtraFunctions | undefined;
  betweenSteps: (() => Promise<void> | void) | undefined;
  /** Engine acts need no queue (`oneAtATime`): one caller, no watch. */
  actsAlone: boolean;
  /** Processes asked to stop after their current step. */
  stopRequests: ReadonlySet<string>;
}

/** An async function's resolution of an act: what `step` and `fire` add to `stepNow`, `fireNow`. */
const settle = async (taken: StepResult | Promise<StepResult>) => taken;

/**
 * Runs a process's acts in memory, to its next stop: what a commit then writes. Stores nothing;
 * a caller commits the run, or drops it and runs it again from the same record.
 */
export class InMemoryRunner {
  /** The engine act in progress, if any (see `oneAtATime`). */
  private acting: Promise<unknown> = Promise.resolve();
  /** Whether a run pauses between its acts (`betweenSteps`, or a turn for the acts queued). */
  private readonly pauses: boolean;

  constructor(private readonly settings: InMemorySettings) {
    this.pauses = settings.betweenSteps !== undefined || !settings.actsAlone;
  }

  /**
   * Runs `act`, then, while the process can run, up to `budget` acts in all, on the context as
   * given (`version` is the one the run starts from). `timeOf(n)` is the time of the run's n-th
   * act; `later`, absent, stops the run where no timer is due at its time (see `RunOn`).
   */
  async run(
    record: ProcessRecord,
    act: EngineAct,
    wake: PendingWake | null,
    flows: Map<string, Flow>,
    budget: number,
    context: ContextRecord,
    timeOf: (step: number) => number,
    later?: RunOn,
  ): Promise<InMemoryRun> {
    const run = new Run(record, act, wake, flows, budget, context, timeOf, later, this.settings);
    const between = this.settings.betweenSteps;
    for (;;) {
      run.begin();
      const taken = this.take(run);
      run.took(taken instanceof Promise ? await taken : taken);
      if (run.firesAtStop()) {
        // Acts that run alone with no pause to take take no turn of the microtask queue.
        if (this.pauses) await between?.();
        continue;
      }
      if (run.runsOn() && this.pauses) await between?.();
      if (run.over()) break;
    }
    return run.outcome();
  }

  /**
   * Takes the run's next act. Queued behind other acts only where another could run at once or
   * a watch listens: a supervisor that wakes one by one has one caller, and the queue cost an
   * act two promises. Alone, an act that needed no awaiting is not awaited either: a promise
   * and turns of the microtask queue per act. Queued, the act is resolved as `step` and `fire`
   * resolve it, since concurrent runs interleave their acts by those turns.
   */
  private take(run: Run): StepResult | Promise<StepResult> {
    if (this.settings.actsAlone) return run.act();
    return this.oneAtATime(() => this.watched(run.record.id, () => settle(run.act())));
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
    const watch = this.settings.watch;
    if (!watch) return fn();
    try {
      return await fn();
    } finally {
      watch.left(process);
    }
  }
}

/** One run in memory as it goes: what its acts left so far, and where it stops. */
class Run {
  private readonly journal: JournalEntry[] = [];
  private readonly changes: ContextChange[] = [];
  private versions = 0;
  private value: unknown;
  // The objects of `value` this run copied: nobody else holds them until the run commits, so
  // a later step's writes change them in place (a write copying the whole context each step
  // made a run of n writing steps cost n²).
  private ownWrites: Set<object> | undefined;
  private snapshot: Snapshot;
  private result!: StepResult;
  private steps = 0;
  // A stop with a timer due at once (a PT0S wait, or many waits due at the same time) fires it
  // in the same run, unless other triggers are queued (the drive fires those first): each fire
  // its own commit cost a process with n waits due together n commits, each timing all n.
  private readonly rest: PendingWake[];
  private firing: PendingWake | null = null;
  private lastFire: PendingWake | null = null;
  private lastFireAct = 0;
  private chainedFires = 0;
  private timers: RunTimers | undefined;
  // Where the run went on across a later timer: the time its acts take from then on.
  private moved: number | undefined;
  private sinceMoved = 0;
  private env: EngineEnv | undefined;
  // The act about to be taken (`begin`).
  private current!: Snapshot;
  private input: unknown;
  private now = 0;
  private fires: PendingWake | null = null;

  constructor(
    readonly record: ProcessRecord,
    private readonly first: EngineAct,
    private readonly wake: PendingWake | null,
    private readonly flows: Map<string, Flow>,
    private readonly budget: number,
    private readonly context: ContextRecord,
    private readonly timeOf: (step: number) => number,
    private readonly later: RunOn | undefined,
    private readonly settings: InMemorySettings,
  ) {
    this.value = context.value;
    this.snapshot = record.snapshot;
    this.rest = pendingWakes(record).filter((w) => w.seq !== wake?.seq);
  }

  /** Sets up the next act: its snapshot, context, time and the trigger it fires, if any. */
  begin(): void {
    this.current = this.snapshot;
    this.input = this.value;
    this.now = this.moved ?? this.timeOf(this.steps);
    if (this.env?.now !== this.now) this.env = this.envAt(this.now);
    this.fires = this.firing;
    this.firing = null;
  }

  /**
   * The act set up: the run's first act as given, then steps and the fires of timers at its
   * stops. From the second act on, the snapshot is the run's own, seen by no one else: the
   * engine may change its counters in place (engine/run.ts), so that a step costs what it does,
   * not what the flow's size is.
   */
  act(): StepResult | Promise<StepResult> {
    const env = this.env!;
    if (this.steps === 0) return this.first(this.current, this.input, env);
    return this.fires
      ? fireNow(this.current, this.input, env, this.fires, true)
      : stepNow(this.current, this.input, env, true);
  }

  /** Keeps what the act left: its writes, its journal entries, the snapshot. */
  took(result: StepResult): void {
    this.result = result;
    const steps = ++this.steps;
    this.sinceMoved++;
    const fires = this.fires;
    if (fires) {
      this.lastFire = fires;
      this.lastFireAct = steps;
      if (result.status !== 'failed') this.chainedFires++;
    }
    const now = this.now;
    const record = this.record;
    if (result.writes.length > 0) {
      this.value = applyWritesOwned(this.value, result.writes, (this.ownWrites ??= new Set()));
      const version = this.context.version + ++this.versions;
      // A store that keeps no journal keeps no change either: none is made, so a long run in
      // memory holds no object per node that wrote until it commits.
      if (this.settings.keepsJournal) {
        const node = nodeOfWrites(result.journal);
        this.changes.push(
          contextChange(this.context.id, version, record.id, node, result.writes, now),
        );
      }
    }
    // The step's entries are its own, made for this result and held by nobody else: stamped
    // in place, not copied (a spread of entries of every shape was a large part of a pass).
    if (this.settings.keepsJournal)
      for (const e of result.journal) {
        const stamped = e as JournalEntry;
        stamped.process = record.id;
        stamped.at = now;
        this.journal.push(stamped);
      }
    this.snapshot = result.snapshot;
  }

  /**
   * Whether the run, stopped at a wait, fires a timer there itself: one due at its time, or,
   * where `later` allows, one due later, from which the run then takes its time.
   */
  firesAtStop(): boolean {
    if (
      this.result.status !== 'waiting' ||
      this.rest.length > 0 ||
      this.steps >= this.budget ||
      this.settings.stopRequests.has(this.record.id)
    )
      return false;
    const snapshot = this.snapshot;
    const timer = (this.timers ??= new RunTimers((f) => this.flows.get(f))).earliest(snapshot);
    const then = this.moved ?? this.timeOf(this.steps);
    // A process at a call does not run on to a later timer: the call's answer may come first.
    const goesOn =
      timer !== undefined &&
      timer.due > then &&
      this.later?.may(timer.due) === true &&
      !standsAtCall(snapshot);
    if (!timer || !(timer.due <= then || goesOn)) return false;
    // A stop inside the run: its entry keeps the position while it is small, as a copy, since
    // the acts after it change the run's own snapshot in place. A stop the run goes on from at
    // a later time keeps it whatever its size, as the commit of a wake of its own there would.
    const stop = this.journal.at(-1);
    if (stop && (goesOn || isSmallPosition(snapshot))) stop.snapshot = copyForStep(snapshot);
    if (goesOn) {
      this.moved = this.later!.at(timer.due);
      this.sinceMoved = 0;
    }
    this.firing = { seq: timer.seq, trigger: timer.trigger };
    return true;
  }

  /** Whether a node is ready and the budget has room: the run pauses, then goes on. */
  runsOn(): boolean {
    return this.result.status === 'running' && this.steps < this.budget;
  }

  /** Whether the run stops here: at a stop of the process, the budget's end, or a Stop asked. */
  over(): boolean {
    return (
      this.result.status !== 'running' ||
      this.steps >= this.budget ||
      this.settings.stopRequests.has(this.record.id)
    );
  }

  /** The record the run leaves, and what its commit writes. */
  outcome(): InMemoryRun {
    const { record, result, snapshot, steps, wake, flows } = this;
    const failed = result.status === 'failed';
    // A fire that failed in its own act (the run's first) keeps its trigger, first, for
    // `retry`; a fired one leaves the queue, whatever the steps after it did. So does a timer
    // the run fired at a stop inside it.
    const fireFailed = failed && steps === 1;
    const chainFailed = failed && this.lastFire !== null && this.lastFireAct === steps;
    const queue = fireFailed
      ? carrying(record, wake)
      : chainFailed
        ? [this.lastFire!, ...this.rest]
        : this.rest;
    const wakes = (wake && !fireFailed ? 1 : 0) + this.chainedFires;
    // No field is written undefined (`waitsFor` of a process not waiting): a record that is
    // plain JSON is stored as it is, where one undefined field had the store rebuild the whole
    // record, its snapshot included, at every commit (toStorable).
    const waitsFor = waitsForOf(result.status, snapshot, flows);
    const { waitsFor: _before, ...kept } = withPendingWakes(record, queue);
    const next: ProcessRecord = {
      ...kept,
      snapshot,
      status: result.status,
      due: result.status === 'waiting' ? dueOf(snapshot, flows) : null,
      ...(waitsFor === undefined ? {} : { waitsFor }),
      error: failed ? `node "${snapshot.failed?.path}": ${snapshot.failed?.message}` : null,
      wakes: (record.wakes ?? 0) + wakes,
    };
    // The last entry of a commit keeps the snapshot the commit leaves (records.ts); inside a
    // run, only while the position is small (journalSnapshots.ts). The entry is this run's own,
    // made by `took` above: set in place.
    const last = this.journal.at(-1);
    if (last && keepsSnapshot(next)) last.snapshot = snapshot;
    return {
      record: next,
      journal: this.journal,
      changes: this.changes,
      versions: this.versions,
      value: this.value,
      steps,
      wakes,
      sinceMoved: this.sinceMoved,
      ...(this.moved === undefined ? {} : { at: this.moved }),
    };
  }

  private envAt(now: number): EngineEnv {
    const { record, wake, flows } = this;
    const { maxLiveBranches, functions, watch } = this.settings;
    return {
      flows: (f) => flows.get(f),
      now,
      // A store that keeps no journal gets none: the engine makes no entries to drop.
      ...(this.settings.keepsJournal ? {} : { journal: false }),
      ...(maxLiveBranches === undefined ? {} : { maxLiveBranches }),
      ...(functions ? { functions } : {}),
      // Every act of the run carries its wake: until the run commits, the wake has not happened.
      ...(watch ? { entering: (path) => watch.entering(record.id, path, wake) } : {}),
    };
  }
}

function nodeOfWrites(journal: EngineJournalEntry[]): string | null {
  const entry = journal.find((e) => e.type === 'context-written');
  return entry && entry.type === 'context-written' ? entry.node : null;
}
