import type { Flow } from '../../shared/schema.ts';
import { earliestTimer } from '../engine/timers.ts';
import type { CallTimes } from './callLoop.ts';
import type { ChangeListeners } from './changes.ts';
import { isSettable, type Clock } from './clock.ts';
import type { ContextGuesses } from './contextGuesses.ts';
import { DueHeap, type Due } from './dueHeap.ts';
import type { FlowReader } from './flowReader.ts';
import { fireAct, type InMemoryRunner } from './inMemoryRun.ts';
import {
  ADVANCE_BATCH_FACTOR,
  MAX_CONFLICT_RETRIES,
  MAX_PROCESSES_PER_BATCH,
  MAX_STEPS_PER_COMMIT,
} from './limits.ts';
import type { Advance, AdvanceOptions } from './options.ts';
import { pendingWakes } from './pendingWakes.ts';
import type { ProcessLock } from './processLock.ts';
import type { ProcessRunner } from './processRunner.ts';
import type { ContextChange, ContextRecord, JournalEntry, ProcessRecord } from './records.ts';
import type { LoadedProcess, Store } from './store.ts';
import { SupervisorError } from './supervisorError.ts';

/** What the wake batcher stands on. */
export interface BatcherParts {
  store: Store;
  clock: Clock;
  flows: FlowReader;
  guesses: ContextGuesses;
  inMemory: InMemoryRunner;
  runner: ProcessRunner;
  lock: ProcessLock;
  changes: ChangeListeners;
  stopRequests: ReadonlySet<string>;
  /** Steps one drive may take before the process is stopped (MAX_STEPS_PER_RUN). */
  maxSteps: number;
  /** Steps a batch of wakes may run before it commits (MAX_STEPS_PER_BATCH). */
  maxStepsPerBatch: number;
  /** The call attempts an advance steps to as it steps to timers (callLoop.ts). */
  calls: CallTimes;
  /**
   * Awaited between the wakes of a batch: `betweenSteps` when given (the app's worker), else a
   * turn of the event loop once BATCH_SLICE_MS have gone by, so that a batch run on a page's own
   * thread (or any caller that set no pause) never holds it for the whole batch.
   */
  betweenWakes: () => Promise<void> | void;
}

/** A process a batch holds: its lock, the record as stored, and its wakes so far in memory. */
interface Held {
  id: string;
  /** Gives the lock back; resolves once it is free. */
  release: () => Promise<void>;
  stored: ProcessRecord;
  record: ProcessRecord;
  /** As read when the batch took the process: the batch's compare-and-set. */
  context: ContextRecord;
  value: unknown;
  changes: ContextChange[];
  /** Context versions its wakes so far wrote (more than `changes` once retention summed some). */
  versions: number;
  journal: JournalEntry[];
  /** The passes (`woke` entries) `journal` holds. */
  passes: number;
  /** The older passes of its wakes, summed up by the retention rule (advance's `keepPasses`). */
  summary?: Extract<JournalEntry, { type: 'summarized' }>;
  read: (id: string) => Promise<Flow | undefined>;
  /** The flows its last wake ran on: its timers are read from these. */
  flows?: Map<string, Flow>;
  wakes: number;
  steps: number;
}

/** What a wake the batch cannot take in memory needs once the batch has committed. */
type After = { held: Held; at: number; act: 'drive' | 'wake' };

interface BatchOutcome {
  woken: number;
  /** The time of the batch's last wake (the clock moves there once the batch has committed). */
  reached: number;
  /** Whether the batch changed anything (a wake, or the one wake it left to the slow path). */
  acted: boolean;
  /** What the batch had no room for, earliest first. */
  left: Due[];
}

type BatchAdvance = Pick<AdvanceOptions, 'keepPasses' | 'signal'>;

/**
 * The retention rule on a held process's wakes, as IdbStore.pruneJournal applies it to the
 * stored journal: once they hold twice `keep` passes, the entries before the `keep`-th newest
 * wake are summed up in one `summarized` entry, and the context's changes from before the kept
 * passes go too. The context's version still counts every change (`versions`).
 */
function summarize(h: Held, keep: number): void {
  if (h.passes < 2 * keep) return;
  // From the newest: the entries from the `keep`-th newest wake on are kept.
  let kept = h.journal.length;
  for (let wakes = 0; wakes < keep;) if (h.journal[--kept]!.type === 'woke') wakes++;
  const older = h.journal.slice(0, kept);
  const keptFrom = h.journal[kept]!.at;
  const process = h.journal[kept]!.process;
  let summary = h.summary ?? {
    type: 'summarized' as const,
    process,
    passes: 0,
    entries: 0,
    from: older[0]!.at,
    to: older[0]!.at,
    at: older[0]!.at,
  };
  for (const e of older) {
    summary =
      e.type === 'summarized'
        ? { ...summary, passes: summary.passes + e.passes, entries: summary.entries + e.entries }
        : {
            ...summary,
            entries: summary.entries + 1,
            passes: summary.passes + (e.type === 'woke' ? 1 : 0),
            to: e.at,
          };
  }
  h.summary = summary;
  h.journal = h.journal.slice(kept);
  h.passes = keep;
  h.changes = h.changes.filter((c) => c.at >= keptFrom);
}

/**
 * A record the store could not restore (runtime/store/restore.ts's DamagedRecordError, known by
 * name: the supervisor does not import the store).
 */
const isDamagedRecord = (e: unknown): e is Error & { problem: { store: string } } =>
  e instanceof Error && e.name === 'DamagedRecordError';

/** A damaged record the store's load named, thrown as the store would have. */
class DamagedRead extends Error {
  constructor(readonly problem: { store: string; message: string }) {
    super(problem.message);
    this.name = 'DamagedRecordError';
  }
}

const dueOf = (p: ProcessRecord): Due => ({
  id: p.id,
  due: p.due!,
  created: p.created,
  contextId: p.contextId,
});

/**
 * Waking what is due, many at once (docs/persistence.md, The durability rule): a batch takes
 * the due processes in order of due time, runs each wake to its next stop in memory, and
 * commits them all together, one commit per process (all its wakes of the batch), in one
 * transaction. A wake that did not commit is simply run again; one whose context another writer
 * moved on is run again on the fresh context, alone, with the times it first ran at.
 */
export class WakeBatcher implements Advance {
  constructor(private readonly parts: BatcherParts) {}

  /** Fires every timer due by now, in order of due time, running each woken process to its stop. */
  async wakeDue(): Promise<number> {
    let woken = 0;
    // A process another runner holds is left to it; it is not tried again in this call.
    const busy = new Set<string>();
    for (;;) {
      // One read of the due index per batch, not per wake. A process a wake makes due again is
      // found by the next one.
      const now = this.parts.clock.now();
      let round = (await this.parts.store.dueProcesses(now))
        .filter((p) => !busy.has(p.id))
        .map(dueOf);
      if (round.length === 0) return woken;
      // The round's batches take it in turn, without reading the due index again.
      while (round.length > 0) {
        const batch = await this.settledBatch(round, now, () => this.parts.clock.now(), busy);
        woken += batch.woken;
        // Nothing it could wake (held by other runners, or being stopped): left to them.
        if (!batch.acted) return woken;
        round = batch.left;
      }
    }
  }

  /**
   * Advances the virtual clock to `target`, firing each timer due on the way at its due time,
   * in order (a timer due exactly at `target` fires). The wakes run in memory and commit in
   * batches; the clock moves to each batch's last wake once it has committed. Each batch is
   * reported to `onProgress`; an aborted `signal` ends the advance after the batch in progress,
   * at the last time reached.
   */
  async advanceTo(
    target: number,
    options: AdvanceOptions = {},
  ): Promise<{ wakes: number; reached: number }> {
    const { clock: anyClock, calls } = this.parts;
    if (!isSettable(anyClock)) throw new SupervisorError('only a virtual clock can be advanced');
    const clock = anyClock;
    let wakes = 0;
    const busy = new Set<string>();
    for (;;) {
      if (options.signal?.aborted) return { wakes, reached: clock.now() };
      // The call attempts due now are sent, and answered while the batches wake what else is
      // due now (not their processes, nor those of their contexts); time moves on only once
      // they have settled, to the earlier of the next timer and the next attempt
      // (docs/format.md#calls).
      const sending = await calls.send();
      const call = calls.nextDue();
      // An attempt still due now is one `settle` gave up on (a loop of calls answered at once):
      // left for the next advance rather than stepping in place.
      const next = call !== null && call > clock.now() && call < target ? call : target;
      const upTo = sending ? clock.now() : next;
      const held = calls.holding();
      const due = (await this.parts.store.dueProcesses(upTo)).filter(
        (p) => !busy.has(p.id) && !held(p),
      );
      const base = clock.now();
      const batch =
        due.length === 0
          ? undefined
          : await this.settledBatch(due.map(dueOf), upTo, (at) => Math.max(at, base), busy, {
              ...(options.keepPasses === undefined ? {} : { keepPasses: options.keepPasses }),
              ...(options.signal ? { signal: options.signal } : {}),
            });
      if (batch) {
        wakes += batch.woken;
        // What the batch left running runs on; what is still due is the next batch's.
        await this.parts.runner.runAll(false);
        options.onProgress?.(clock.now(), wakes);
      }
      // Nothing left to wake by `upTo` (or only what other runners hold): on to the attempt.
      if (!batch?.acted) {
        if (sending) {
          await calls.settle();
          continue;
        }
        if (upTo >= target) break;
        if (upTo > clock.now()) clock.set(upTo);
      }
    }
    clock.set(target);
    await calls.settle();
    return { wakes, reached: target };
  }

  /**
   * One batch, then the processes whose commit found their context moved on, again, alone
   * (each reread under its lock), at the times they first ran at, until all have committed.
   */
  private async settledBatch(
    candidates: Due[],
    upTo: number,
    timeOf: (due: number) => number,
    busy: Set<string>,
    advance: BatchAdvance = {},
  ): Promise<BatchOutcome> {
    const first = await this.batch(candidates, upTo, timeOf, busy, advance);
    const afters = first.after ? [first.after] : [];
    let woken = first.woken;
    let conflicted = first.conflicted;
    for (let attempt = 0; conflicted.length > 0; attempt++) {
      if (attempt >= MAX_CONFLICT_RETRIES)
        throw new SupervisorError(
          `the context of "${conflicted[0]!.id}" kept changing under it; its wakes did not commit`,
        );
      // Up to the batch's last wake only: the clock has not gone further.
      const again = await this.batch(conflicted, first.reached, timeOf, busy, advance);
      woken += again.woken;
      conflicted = again.conflicted;
      if (again.after) afters.push(again.after);
    }
    const settable = isSettable(this.parts.clock) ? this.parts.clock : undefined;
    if (settable && first.reached > settable.now()) settable.set(first.reached);
    for (const { held, at, act } of afters) {
      try {
        if (settable && at > settable.now()) settable.set(at);
        woken += await this.afterBatch(held, act);
      } finally {
        await held.release();
        this.parts.changes.changed(held.id);
      }
    }
    const acted = woken > 0 || afters.length > 0;
    return { woken, reached: first.reached, acted, left: first.left };
  }

  /**
   * Takes due processes in order of due time while the batch has room, each under its lock,
   * wakes them in memory (a process as often as it falls due by `upTo`) and commits them together.
   */
  private async batch(
    candidates: Due[],
    upTo: number,
    timeOf: (due: number) => number,
    busy: Set<string>,
    advance: BatchAdvance = {},
  ): Promise<{ woken: number; reached: number; conflicted: Due[]; left: Due[]; after?: After }> {
    const { keepPasses, signal } = advance;
    // With the retention rule applied in memory, what a batch holds per process stays bounded
    // (at most twice the passes kept), so an advance's batch may run longer before it commits.
    const maxSteps =
      keepPasses === undefined
        ? this.parts.maxStepsPerBatch
        : this.parts.maxStepsPerBatch * ADVANCE_BATCH_FACTOR;
    const heap = new DueHeap(candidates.filter((c) => c.due <= upTo));
    const held = new Map<string, Held>();
    const contexts = new Set<string>();
    const gone = new Set<string>();
    let after: After | undefined;
    let steps = 0;
    let reached = Number.NEGATIVE_INFINITY;
    // The time a wake of this batch reached a call: its first attempt is due then, so the batch
    // wakes nothing later (the advance sends it once the batch has committed).
    let callAt = Number.POSITIVE_INFINITY;
    const take = async (items: Due[]) => {
      // Settled, not Promise.all: a read that fails must not leave the locks the others took
      // meanwhile unlisted, or the finally below would never give them back (the processes
      // would stay locked in every tab until this one closed).
      const taken = await Promise.allSettled(items.map((c) => this.hold(c.id, upTo, busy)));
      let failure: { reason: unknown } | undefined;
      taken.forEach((t, i) => {
        if (t.status === 'rejected') failure ??= t;
        else if (!t.value) gone.add(items[i]!.id);
        else {
          held.set(t.value.id, t.value);
          contexts.add(t.value.record.contextId);
        }
      });
      if (failure) throw failure.reason;
    };
    let ok = false;
    try {
      // The locks and records of the first processes due, all asked for at once: with Web
      // Locks and IndexedDB each is a round trip, and they overlap. One process per context.
      const firsts: Due[] = [];
      const seen = new Set<string>();
      for (const c of heap.sorted()) {
        if (firsts.length >= MAX_PROCESSES_PER_BATCH) break;
        if (seen.has(c.contextId) || seen.has(c.id)) continue;
        seen.add(c.contextId).add(c.id);
        firsts.push(c);
      }
      await take(firsts);
      while (steps < maxSteps) {
        // Cancel takes effect after the wake in progress: what the batch ran so far commits.
        if (signal?.aborted && steps > 0) break;
        const top = heap.peek();
        if (!top || top.due > upTo || top.due > callAt) break;
        let h = held.get(top.id);
        if (!h && !gone.has(top.id)) {
          // Two processes of one context would write it in an order that one commit each
          // cannot keep: the second waits for the next batch, as does a full batch.
          if (held.size >= MAX_PROCESSES_PER_BATCH || contexts.has(top.contextId)) break;
          await take([top]);
          h = held.get(top.id);
        }
        heap.pop();
        if (!h) continue;
        // An entry left from before the process's last wake.
        if (h.record.status !== 'waiting' || h.record.due !== top.due) continue;
        if (this.parts.stopRequests.has(h.id)) continue;
        const at = timeOf(top.due);
        const woke = await this.wakeInMemory(h, at);
        if (woke === 'slow') {
          after = { held: h, at, act: h.wakes === 0 ? 'wake' : 'drive' };
          break;
        }
        reached = Math.max(reached, at);
        steps += woke.steps;
        if (this.parts.calls.reachesNewCall(h.record)) callAt = Math.min(callAt, at);
        if (keepPasses !== undefined) summarize(h, keepPasses);
        // Between the wakes of a batch too: a Stop or the page's command is let in.
        await this.parts.betweenWakes();
        const next = h.record;
        // Running on (a long run), or due again at once (no time passes): the drive's budget
        // counts such steps, so the drive takes it on after the commit, at this time.
        if (
          next.status === 'running' ||
          (next.status === 'waiting' &&
            (pendingWakes(next).length > 0 || (next.due !== null && next.due <= at)))
        ) {
          after = { held: h, at, act: 'drive' };
          break;
        }
        if (next.status === 'waiting' && next.due !== null && next.due <= upTo)
          heap.push(dueOf(next));
      }
      const conflicted = await this.commitHeld([...held.values()]);
      if (after && conflicted.some((c) => c.id === after!.held.id)) after = undefined;
      const woken = [...held.values()]
        .filter((h) => !conflicted.some((c) => c.id === h.id))
        .reduce((n, h) => n + h.wakes, 0);
      ok = true;
      const left = heap.sorted().filter((c) => !gone.has(c.id));
      return { woken, reached, conflicted, left, ...(after ? { after } : {}) };
    } finally {
      // The one left to the one-wake path keeps its lock for it (settledBatch releases it).
      const done = [...held.values()].filter((h) => !(ok && h === after?.held));
      await Promise.all(done.map((h) => h.release()));
      for (const h of done) if (h.wakes > 0) this.parts.changes.changed(h.id);
    }
  }

  /**
   * Commits every process of a batch that woke, in one turn, so that the store puts them in one
   * transaction (IdbStore batches the commits asked for together); each keeps its own
   * compare-and-set. Returns the processes whose context had moved on: nothing of them is written.
   */
  private async commitHeld(held: Held[]): Promise<Due[]> {
    const woke = held.filter((h) => h.wakes > 0);
    const results = await Promise.all(
      woke.map((h) => {
        const write =
          h.versions > 0
            ? {
                value: h.value,
                changes: h.changes,
                ...(h.versions === h.changes.length ? {} : { versions: h.versions }),
              }
            : undefined;
        return this.parts.store.commitStep({
          process: h.record,
          context: {
            id: h.context.id,
            expectedVersion: h.context.version,
            ...(write ? { write } : {}),
          },
          // The summary of the older passes goes first, in their place (IdbStore.pruneJournal).
          journal: h.summary ? [h.summary, ...h.journal] : h.journal,
        });
      }),
    );
    const conflicted: Due[] = [];
    woke.forEach((h, i) => {
      if (results[i]) {
        this.parts.guesses.know({
          id: h.context.id,
          version: h.context.version + h.versions,
          value: h.value,
        });
        h.stored = h.record;
      } else conflicted.push(dueOf(h.stored));
    });
    return conflicted;
  }

  /**
   * Takes a process's lock if it is free and reads it again under it (another tab may have
   * woken it meanwhile): undefined when it is busy, gone, or no longer due by `upTo`. The lock
   * is held until `release`.
   */
  private hold(id: string, upTo: number, busy: Set<string>): Promise<Held | undefined> {
    return new Promise<Held | undefined>((resolve, reject) => {
      let free!: () => void;
      const freed = new Promise<void>((r) => (free = r));
      // Resolves once the lock is given back, so that a rerun right after can take it again.
      const release = async () => {
        free();
        await held.catch(() => undefined);
      };
      const held = this.parts.lock.ifFree(id, async () => {
        let h: Held | undefined;
        try {
          h = await this.readHeld(id, upTo, release);
        } catch (e) {
          reject(e);
          return;
        }
        resolve(h);
        if (h) await freed;
      });
      held.then((r) => {
        if (!r.held) {
          busy.add(id);
          resolve(undefined);
        }
      }, reject);
    });
  }

  private async readHeld(
    id: string,
    upTo: number,
    release: () => Promise<void>,
  ): Promise<Held | undefined> {
    let loaded: LoadedProcess | undefined;
    try {
      loaded = await this.parts.store.loadProcess(id);
    } catch (e) {
      // A record that cannot be restored is reported by the store and no listing holds it: it
      // is left as stored, unwoken.
      if (isDamagedRecord(e)) return undefined;
      throw e;
    }
    if (!loaded) return undefined;
    const { record } = loaded;
    if (record.status !== 'waiting' || record.due === null || record.due > upTo) return undefined;
    let context: ContextRecord;
    let read: Held['read'];
    try {
      if (loaded.damaged) throw new DamagedRead(loaded.damaged);
      context = loaded.context ?? (await this.parts.runner.mustGetContext(record.contextId));
      read = this.parts.flows.reader(loaded.flows);
    } catch (e) {
      if (!isDamagedRecord(e)) throw e;
      await this.failDamaged(record, e);
      return undefined;
    }
    return {
      id,
      release,
      stored: record,
      record,
      context,
      value: context.value,
      changes: [],
      versions: 0,
      journal: [],
      passes: 0,
      read,
      wakes: 0,
      steps: 0,
    };
  }

  /**
   * A process whose context or flow cannot be restored fails, once, with the store's sentence
   * naming the record: waking it again would find the same damage every round.
   */
  private async failDamaged(record: ProcessRecord, e: Error): Promise<void> {
    const store = (e as { problem?: { store?: string } }).problem?.store;
    const what = store === 'contexts' ? 'its context' : store === 'flows' ? 'its flow' : 'a record';
    const error = `${what} cannot be read: ${e.message}`;
    await this.parts.store.putProcess({ ...record, status: 'failed', due: null, error });
    this.parts.changes.changed(record.id);
  }

  /**
   * Fires a held process's earliest timer and runs it to its next stop, in memory, at `at`.
   * 'slow' when the wake is one the batch leaves to the one-wake path: triggers pending, a flow
   * changed or missing (which that path reports), no timer.
   */
  private async wakeInMemory(h: Held, at: number): Promise<'slow' | { steps: number }> {
    const record = h.record;
    if (pendingWakes(record).length > 0) return 'slow';
    // Timers are read from the versions it fell asleep on, as for any wake.
    const slept = h.flows ?? (await this.parts.flows.sleptOn(record));
    const timer = earliestTimer(record.snapshot, (f) => slept.get(f));
    if (!timer || !(await this.parts.flows.sameFlows(record, h.read))) return 'slow';
    const flows = h.flows ?? (await this.parts.flows.flowsFor(record, h.read));
    const wake = { seq: timer.seq, trigger: timer.trigger };
    const run = await this.parts.inMemory.run(
      record,
      fireAct(wake),
      wake,
      flows,
      Math.min(MAX_STEPS_PER_COMMIT, this.parts.maxSteps),
      { id: h.context.id, version: h.context.version + h.versions, value: h.value },
      () => at,
    );
    h.record = run.record;
    h.value = run.value;
    h.changes.push(...run.changes);
    h.versions += run.versions;
    h.journal.push(...run.journal);
    for (const e of run.journal) if (e.type === 'woke') h.passes++;
    h.flows = flows;
    h.wakes += run.wakes;
    h.steps = run.steps;
    return { steps: run.steps };
  }

  /**
   * The wake a batch left to the one-wake path, on the record as the batch committed it: a drive
   * (what it wakes counts in the batch already), or the process's earliest timer, fired alone.
   */
  private async afterBatch(h: Held, act: 'drive' | 'wake'): Promise<number> {
    if (act === 'drive') {
      await this.parts.runner.drive(h.id, h.record, h.flows, h.steps);
      return 0;
    }
    await this.parts.runner.fireEarliestTimer(h.record, h.read);
    return 1;
  }
}
