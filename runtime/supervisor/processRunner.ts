import { diffFlows, type FlowChange } from '../../shared/flowDiff.ts';
import type { Flow } from '../../shared/schema.ts';
import { signaturesOf } from '../engine/step.ts';
import { dueTimer, earliestTimer } from '../engine/timers.ts';
import type { ChangeListeners } from './changes.ts';
import { isSettable, type Clock } from './clock.ts';
import type { ContextGuesses } from './contextGuesses.ts';
import type { FlowReader, ReadFlow } from './flowReader.ts';
import { fireAct, stepAct, type EngineAct, type InMemoryRunner } from './inMemoryRun.ts';
import { MAX_CONFLICT_RETRIES } from './limits.ts';
import type { RunOn } from './options.ts';
import { carrying, pendingWakes, waitSeqs, withPendingWakes } from './pendingWakes.ts';
import type { ProcessLock } from './processLock.ts';
import { stamp } from './recordFacts.ts';
import type { ContextRecord, JournalEntry, PendingWake, ProcessRecord } from './records.ts';
import type { Store } from './store.ts';
import { SupervisorError } from './supervisorError.ts';

/** What a wake may carry besides its trigger (`ProcessRunner.wake`). */
export interface WakeOptions {
  /** The run may go on across later timers (an advance, `RunOn`); the clock then follows it. */
  later?: RunOn;
  /** Journal entries that go first in the fire's commit (a call's last attempt). */
  first?: JournalEntry[];
  /**
   * The process's context as read with it (`load`): the commit's first guess, whatever else
   * was read meanwhile (a round's hundreds of fires crowd the shared guesses out).
   */
  context?: ContextRecord;
}

/** What a process runner stands on. */
export interface RunnerParts {
  store: Store;
  clock: Clock;
  flows: FlowReader;
  guesses: ContextGuesses;
  inMemory: InMemoryRunner;
  lock: ProcessLock;
  changes: ChangeListeners;
  stopRequests: ReadonlySet<string>;
  /** Steps one drive may take before the process is stopped (MAX_STEPS_PER_RUN). */
  maxSteps: number;
  /** Steps one commit holds at most (MAX_STEPS_PER_COMMIT, or `maxStepsPerCommit`). */
  maxStepsPerCommit: number;
}

/**
 * The one way a process runs: an act taken in memory and committed (`commit`, `commitRun`), a
 * process woken with one trigger (`wake`) and driven to its next stop (`drive`). Callers hold
 * the process's lock; `runAll` takes it for each process it drives.
 */
export class ProcessRunner {
  constructor(private readonly parts: RunnerParts) {}

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
  async drive(
    id: string,
    from?: ProcessRecord,
    flows?: Map<string, Flow>,
    /** Steps the caller already took in this run, which count against the budget. */
    taken = 0,
  ): Promise<ProcessRecord> {
    const { store, stopRequests, maxSteps, maxStepsPerCommit } = this.parts;
    let record = from ?? (await this.mustGet(id));
    // Timers are read from the versions the process fell asleep on: the drive's own flows once
    // it has run a step, and before that the versions the record names (the flow may have
    // changed since, which the wake then reports).
    let asleepOn = from ? flows : undefined;
    let steps = taken;
    while (!stopRequests.has(id)) {
      if (record.status !== 'running' && record.status !== 'waiting') break;
      flows ??= await this.parts.flows.flowsFor(record);
      const wake =
        record.status === 'waiting'
          ? this.nextWake(record, asleepOn ?? (await this.parts.flows.sleptOn(record)))
          : undefined;
      if (record.status === 'waiting' && !wake) break;
      // Each pass of a `PT0S` loop is a durable stop, but no time passes: the budget counts it.
      if (steps >= maxSteps) {
        const error = `ran ${maxSteps} steps without waiting for time to pass; stopped so the page stays responsive`;
        record = { ...record, status: 'stopped', stoppedFrom: record.status, error };
        await store.putProcess(record, [this.stamp(id, { type: 'stopped' }, record.snapshot)]);
        break;
      }
      // A run goes on in memory to its next stop, within what is left of the budget.
      const budget = Math.min(maxStepsPerCommit, maxSteps - steps);
      if (!wake) {
        const run = await this.commitRun(record, stepAct, null, flows, budget);
        record = run.record;
        steps += run.steps;
        // A long run reports as it goes: each commit may be shown.
        this.parts.changes.changed(id);
        asleepOn = flows;
        continue;
      }
      const fired = await this.fireOne(record, wake, this.parts.flows.reader(flows), budget);
      record = fired.record;
      steps += fired.steps;
      if (!fired.flows) break;
      flows = asleepOn = fired.flows;
    }
    return record;
  }

  /**
   * Runs every process that can run until it stops, oldest first: those with a node ready, and
   * those asleep with a timer due now (docs/format.md#scenarios: after every step, every process
   * that can run runs until it stops). One that another runner holds (another tab's long run, a
   * control in progress) is left to it.
   */
  async runAll(
    /**
     * false: those with a node ready only; an advance's batches take the ones due (wakeBatcher),
     * which one by one here would each cost a read and a commit of their own.
     */
    due = true,
  ): Promise<void> {
    const { store, clock, lock, changes } = this.parts;
    const now = clock.now();
    const running = await store.runningProcesses();
    const candidates = [...running, ...(due ? await store.listDue(now) : [])].sort(
      (a, b) => a.created - b.created,
    );
    for (const p of candidates) {
      const ran = await lock.ifFree(p.id, () => this.drive(p.id));
      if (ran.held) changes.changed(p.id);
    }
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
    const timer = dueTimer(record.snapshot, lookup, this.parts.clock.now());
    return timer ? { seq: timer.seq, trigger: timer.trigger } : undefined;
  }

  /** Wakes a waiting process with one trigger, unless its flow changed while it slept. */
  async wake(
    record: ProcessRecord,
    wake: PendingWake,
    // The workspace's flows are read once for the whole wake: the check, the fire, the drive.
    read = this.parts.flows.reader(),
    more: WakeOptions = {},
  ): Promise<ProcessRecord> {
    const clock = this.parts.clock;
    const fired = await this.fireOne(record, wake, read, undefined, more);
    if (fired.at !== undefined && isSettable(clock) && fired.at > clock.now()) clock.set(fired.at);
    return fired.flows
      ? this.drive(record.id, fired.record, fired.flows, fired.steps)
      : fired.record;
  }

  /**
   * Fires a process's earliest timer. Timers are read from the versions the process fell asleep
   * on: the flow may have changed since, which the wake itself then reports.
   */
  async fireEarliestTimer(record: ProcessRecord, read = this.parts.flows.reader()): Promise<void> {
    const flows = await this.parts.flows.sleptOn(record);
    const timer = earliestTimer(record.snapshot, (f) => flows.get(f));
    if (!timer) {
      // The flows it slept on no longer say what it waits for: say so rather than pick this
      // process forever or leave it asleep without a word.
      const error =
        'the flow this process slept on is missing from the workspace; restart or cancel it';
      await this.parts.store.putProcess({ ...record, due: null, status: 'flow-changed', error });
      return;
    }
    await this.wake(record, { seq: timer.seq, trigger: timer.trigger }, read);
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
    read: ReadFlow,
    budget = Math.min(this.parts.maxStepsPerCommit, this.parts.maxSteps),
    more: WakeOptions = {},
  ): Promise<{ record: ProcessRecord; flows?: Map<string, Flow>; steps: number; at?: number }> {
    // Pending wakes whose waits are gone are dropped with it: nothing could fire them.
    const live = waitSeqs(record.snapshot);
    const rest = pendingWakes(record).filter((w) => w.seq !== wake.seq && live.has(w.seq));
    const checked = await this.checkSignatures(
      withPendingWakes(record, rest),
      wake,
      read,
      more.first,
    );
    if (checked.status === 'flow-changed') return { record: checked, steps: 0 };
    const flows = await this.parts.flows.flowsFor(checked, read);
    // The fire and the steps after it, to the next stop, in one commit.
    const fired = await this.commitRun(checked, fireAct(wake), wake, flows, budget, more);
    return {
      record: fired.record,
      flows,
      steps: fired.steps,
      ...(fired.at === undefined ? {} : { at: fired.at }),
    };
  }

  /** Compares the signatures a process started on with its flows now; sets `flow-changed`. */
  async checkSignatures(
    record: ProcessRecord,
    wake: PendingWake | null,
    read = this.parts.flows.reader(),
    /** Journal entries written before the flow-changed entry, if the flow changed. */
    first: JournalEntry[] = [],
  ): Promise<ProcessRecord> {
    if (record.pinned) return record;
    const { store, flows } = this.parts;
    const changes: FlowChange[] = [];
    const seen = new Set<string>();
    for (const scope of signaturesOf(record.snapshot)) {
      if (seen.has(scope.flow)) continue;
      seen.add(scope.flow);
      const current = await read(scope.flow);
      const currentSignature = current ? flows.signature(current) : undefined;
      if (currentSignature === scope.signature) continue;
      const before = await store.getFlowVersion(scope.flow, scope.signature);
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
    await store.putProcess(changed, [
      ...first,
      this.stamp(record.id, { type: 'flow-changed', changes }, changed.snapshot),
    ]);
    return changed;
  }

  /**
   * Runs one engine act and commits it: the context by compare-and-set on its version, with the
   * snapshot and journal entries in the same commit. On a conflict the act runs again against
   * the fresh context, so no write is lost.
   */
  async commit(
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
  private async commitRun(
    record: ProcessRecord,
    act: EngineAct,
    wake: PendingWake | null,
    known: Map<string, Flow> | undefined,
    budget: number,
    { later, first = [], context: read }: WakeOptions = {},
  ): Promise<{ record: ProcessRecord; steps: number; at?: number }> {
    const { store, clock, guesses, inMemory } = this.parts;
    const flows = known ?? (await this.parts.flows.flowsFor(record));
    const guess = read?.id === record.contextId ? read : guesses.get(record.contextId);
    // The time of each step of the run, read once as the step is first taken: a run again on a
    // fresh context takes the same steps, and each one's `$now()` and new waits see the time it
    // saw the first time (docs/format.md#expressions-are-deterministic).
    const times: number[] = [];
    const timeOf = (step: number) => (times[step] ??= clock.now());
    for (let attempt = 0; attempt < MAX_CONFLICT_RETRIES; attempt++) {
      const context = attempt === 0 && guess ? guess : await this.mustGetContext(record.contextId);
      const run = await inMemory.run(record, act, wake, flows, budget, context, timeOf, later);
      const write =
        run.versions > 0
          ? {
              value: run.value,
              changes: run.changes,
              ...(run.versions === run.changes.length ? {} : { versions: run.versions }),
            }
          : undefined;
      const ok = await store.commitStep({
        process: run.record,
        context: { id: context.id, expectedVersion: context.version, ...(write ? { write } : {}) },
        journal: first.length > 0 ? [...first, ...run.journal] : run.journal,
      });
      if (ok) {
        guesses.know(
          write
            ? { id: context.id, version: context.version + run.versions, value: run.value }
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
   * A process to wake, with a reader of the workspace's flows and the context guess seeded from
   * the same read: the store reads them together, so a wake starts with one request.
   */
  async load(
    id: string,
  ): Promise<{ record: ProcessRecord; read: ReadFlow; context?: ContextRecord }> {
    const loaded = await this.parts.store.loadProcess(id);
    if (!loaded) throw new SupervisorError(`there is no process "${id}"`);
    // A context just read is as good a first guess as any (see `ContextGuesses`).
    if (loaded.context) this.parts.guesses.know(loaded.context);
    return {
      record: loaded.record,
      read: this.parts.flows.reader(loaded.flows),
      ...(loaded.context ? { context: loaded.context } : {}),
    };
  }

  async mustGet(id: string): Promise<ProcessRecord> {
    const record = await this.parts.store.getProcess(id);
    if (!record) throw new SupervisorError(`there is no process "${id}"`);
    return record;
  }

  async mustGetContext(id: string) {
    const context = await this.parts.store.getContext(id);
    if (!context) throw new SupervisorError(`context "${id}" is missing from the store`);
    return context;
  }

  /** A journal entry stamped with the clock's time now (recordFacts.ts, `stamp`). */
  stamp(
    process: string,
    entry: Parameters<typeof stamp>[1],
    snapshot?: Parameters<typeof stamp>[2],
  ): JournalEntry {
    return stamp(process, entry, snapshot, this.parts.clock.now());
  }
}
