import {
  afterAttempt,
  attemptBegun,
  attemptEntry,
  firstProgress,
  type CallProgress,
} from './callProgress.ts';
import { idempotencyKey } from './idempotencyKey.ts';
import type { AttemptResult, CallOutcome, RecordedCall } from './recordedCall.ts';

/** A wait of a process at a continue-after with a call trigger, as its snapshot holds it. */
export interface CallWait {
  seq: number;
  /** The node's path through sub-flow nodes (`sub/pay`). */
  node: string;
  gen: readonly number[];
  call: RecordedCall;
  /**
   * The flow that holds the node, and the node's id in it: what a pin is keyed by
   * (docs/format.md#pinned-answers). Absent on waits made by hand in tests.
   */
  flow?: string;
  local?: string;
}

/** Where each wait's progress is kept, beside the process and outside its snapshot. */
export interface CallProgressStore {
  listCallProgress(processId: string): Promise<CallProgress[]>;
  putCallProgress(processId: string, progress: CallProgress): Promise<void>;
  deleteCallProgress(processId: string, seq: number): Promise<void>;
}

/**
 * What an attempt gave: a result now, one that comes `after` ms later on the clock (a scenario's
 * answer), or `pending`: no answer until `respond` gives one (a scenario's `respond` step).
 */
export type AttemptAnswer = { result: AttemptResult; after?: number } | 'pending';

export interface CallSenderDeps {
  now(): number;
  store: CallProgressStore;
  /** Sends one attempt (sendAttempt, or a scenario's answers); rejects only when `signal` aborts. */
  attempt(
    call: RecordedCall,
    key: string,
    signal: AbortSignal,
    about: { processId: string; wait: CallWait; attempt: number },
  ): Promise<AttemptAnswer>;
  /**
   * Fires the call's trigger with the outcome, and records `entry` (the last attempt) in the
   * process's journal in the same commit; a wait that is gone by then drops the outcome, and the
   * entry is journaled alone.
   */
  fire(
    processId: string,
    wait: CallWait,
    outcome: CallOutcome,
    entry: ReturnType<typeof attemptEntry>,
    /**
     * Told the record the fire reads under the process's lock, before it fires: the waits a
     * commit makes from it are numbered from its `snapshot.seq` on (`basedOn`).
     */
    loaded?: (record: { snapshot: { seq: number } }) => void,
  ): Promise<void>;
  /**
   * Takes the lock of a process's calls, the same lock in every runtime over this store (a Web
   * Lock in the browser, so two tabs' workers never send one attempt at once), and resolves
   * once it is held, with what gives it back. The sender holds it while it sends any attempt
   * of the process (`CallLease`). Without it, one sender over the store is assumed.
   */
  lease?(processId: string): Promise<() => void>;
  /**
   * Where wait `seq` stands in the process as stored: `waiting` (it may be sent), `held` (the
   * wait is there, its process may not run: stopped, failed, flow-changed) or `gone` (its
   * outcome was fired, or the process moved on). Asked under the process's lease before an
   * attempt, with the wait's stored progress: another runtime over the store may have sent it
   * since this one last knew.
   */
  stands?(processId: string, seq: number): Promise<'waiting' | 'held' | 'gone'>;
  /** Told when an attempt of a process begins, which changes its progress only in memory. */
  progressed?(processId: string): void;
  /** Records an attempt of `wait` that is retried in the process's journal. */
  journal?(
    processId: string,
    entry: ReturnType<typeof attemptEntry>,
    wait: CallWait,
  ): Promise<void>;
}

/**
 * This sender's hold of a process's call lock (`CallSenderDeps.lease`), shared by the attempts
 * of the process it sends at once, and kept from one attempt to the next while one is due at
 * once (an answer whose fire brings the process to its next call).
 */
interface CallLease {
  /** Resolves once the lock is held, with what gives it back. */
  held: Promise<() => void>;
  granted: boolean;
  /** Attempts running under it. */
  users: number;
  /**
   * The `snapshot.seq` of a record of the process read under its lock while this lease was
   * held: a wait numbered from it on was made after the lease was had, so no other runtime can
   * have sent it (any that learned of it has waited for this lease), and it is sent without
   * reading the store. Undefined until such a read (a fire's, `basedOn`).
   */
  base?: number;
}

interface Watched {
  active: boolean;
  waits: Map<number, CallWait>;
  /** Each wait's progress as this sender knows it, an attempt in flight included. */
  progress: Map<number, CallProgress>;
  /** The waits whose progress has a row in the store (read there, or saved by this sender). */
  stored: Set<number>;
}

/**
 * The supervisor's call sender (docs/format.md#calls): for each process asleep at a call, it
 * sends attempts when they fall due, keeps each wait's progress in the store between them, waits
 * between attempts on the supervisor's clock (the progress's `due`, which a virtual advance
 * reaches like a timer), and fires the trigger with the outcome.
 *
 * Delivery is at least once. The store keeps a wait's progress only once an attempt of it has
 * ended without an outcome (a retry is due later, or a scenario's answer comes later): a wait
 * with no row stands at its first attempt. Nothing is written before an attempt is sent, since
 * a re-send after a crash is the same attempt either way: the attempt after the one the store
 * last saw, with the wait's one Idempotency-Key (an attempt in flight when the runtime stopped
 * is sent again, counted as it was). Whether a wait is still to be sent is the stored process's
 * to say (`stands`): a fire that ended it removed it in the same commit. The outcome is fired
 * before any row is deleted, and a fire reaches only a wait that still exists, so a crash
 * between the two applies it once.
 */
export class CallSender {
  private readonly processes = new Map<string, Watched>();
  private readonly leases = new Map<string, CallLease>();
  private readonly inFlight = new Map<string, AbortController>();
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly deps: CallSenderDeps) {}

  /**
   * Tells the sender which call waits a process stands at now, and whether it may run (waiting:
   * yes; stopped, failed, flow-changed: no). A new wait's first attempt is due at once; the
   * progress of a wait that is gone is dropped, and an attempt of it in flight is abandoned (its
   * answer is dropped; a request already sent is not recalled). An attempt in flight for a
   * process that may not run is abandoned too, and sent again, same key, when it may.
   */
  async sync(processId: string, waits: readonly CallWait[], active: boolean): Promise<void> {
    // A process this sender already watches is as its memory says (every write of its progress
    // went through here, and a read could be older than a save in flight); only one it meets
    // for the first time, after a restart, is read from the store.
    let watched = this.processes.get(processId);
    if (!watched) {
      const stored = await this.deps.store.listCallProgress(processId);
      watched = this.processes.get(processId) ?? {
        active,
        waits: new Map(),
        progress: new Map(stored.map((p) => [p.seq, p])),
        stored: new Set(stored.map((p) => p.seq)),
      };
      this.processes.set(processId, watched);
    }
    // Changed in place: an attempt that settles meanwhile saves into this same record.
    watched.active = active;
    watched.waits = new Map(waits.map((w) => [w.seq, w]));
    const now = this.deps.now();
    for (const wait of waits) {
      if (!active) this.abandon(processId, wait.seq);
      // A new wait's first attempt is due at once; nothing is stored until an attempt ends.
      if (!watched.progress.has(wait.seq))
        watched.progress.set(wait.seq, firstProgress(wait.seq, now));
    }
    for (const seq of [...watched.progress.keys()]) {
      if (watched.waits.has(seq)) continue;
      watched.progress.delete(seq);
      this.abandon(processId, seq);
      if (!watched.stored.delete(seq)) continue;
      await this.deps.store.deleteCallProgress(processId, seq);
    }
    if (watched.waits.size === 0 && this.processes.get(processId) === watched)
      this.processes.delete(processId);
    this.giveBack(processId);
  }

  /**
   * The processes with an attempt in flight, its fire included; not one left waiting for
   * `respond` (a scenario's), which holds nothing up.
   */
  busyProcesses(): Set<string> {
    const busy = new Set<string>();
    for (const at of this.inFlight.keys())
      if (!this.pending.has(at)) busy.add(at.slice(0, at.indexOf('\u0000')));
    return busy;
  }

  /** Whether wait `seq` of the process is one this sender watches. */
  watches(processId: string, seq: number): boolean {
    return this.processes.get(processId)?.waits.has(seq) ?? false;
  }

  /**
   * Makes the next attempt of wait `seq` due now (the inspector's "send the next attempt now"):
   * false when the wait is not watched, or an attempt of it is in flight.
   */
  async dueNow(processId: string, seq: number): Promise<boolean> {
    const progress = this.processes.get(processId)?.progress.get(seq);
    if (!progress || progress.due === null || this.inFlight.has(slot(processId, seq))) return false;
    const now = this.deps.now();
    if (progress.due <= now) return true;
    // A scripted answer kept for later is not sent again: it comes now instead.
    const moved = { ...progress, due: now };
    await this.deps.store.putCallProgress(processId, moved);
    const watched = this.processes.get(processId);
    watched?.progress.set(seq, moved);
    watched?.stored.add(seq);
    return true;
  }

  /** The earliest time an attempt (or a scripted answer) falls due, of processes that may run. */
  nextDue(): number | null {
    let next: number | null = null;
    for (const [id, w] of this.processes) {
      if (!w.active) continue;
      for (const p of w.progress.values()) {
        const due = p.due ?? (this.inFlight.has(slot(id, p.seq)) ? null : this.deps.now());
        if (due !== null && (next === null || due < next)) next = due;
      }
    }
    return next;
  }

  /**
   * Starts every attempt due by now, processes in the order they were synced and each one's waits
   * in the order they were made; attempts run at once, bounded per origin by the sender's
   * `attempt`. Resolves once those it started have settled.
   */
  async sendDue(): Promise<void> {
    const now = this.deps.now();
    const started: Promise<void>[] = [];
    for (const [id, w] of this.processes) {
      if (!w.active) continue;
      for (const p of [...w.progress.values()].sort((a, b) => a.seq - b.seq)) {
        if (this.inFlight.has(slot(id, p.seq))) continue;
        // No due time and nothing in flight here: an attempt a stop or a crash interrupted.
        if (p.due !== null && p.due > now) continue;
        started.push(this.track(this.run(id, w.waits.get(p.seq)!, p)));
      }
    }
    await Promise.all(started);
  }

  /** Resolves once every attempt in flight has settled: for tests and a runtime closing. */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running]);
  }

  /** Gives back every lease kept for an attempt due (a runtime closing sends nothing more). */
  close(): void {
    for (const [id, lease] of [...this.leases]) if (lease.users === 0) this.release(id, lease);
  }

  /** Each wait's progress, for a report or the inspector. */
  progressOf(processId: string): CallProgress[] {
    return [...(this.processes.get(processId)?.progress.values() ?? [])];
  }

  /**
   * Answers the attempt of wait `seq` that is waiting for one (`pending`): a scenario's `respond`.
   * false when no attempt of that wait is waiting.
   */
  async respond(
    processId: string,
    seq: number,
    answer: { result: AttemptResult; after?: number },
  ): Promise<boolean> {
    const w = this.processes.get(processId);
    const progress = w?.progress.get(seq);
    const controller = this.inFlight.get(slot(processId, seq));
    if (!w || !progress || !controller || !this.pending.has(slot(processId, seq))) return false;
    this.pending.delete(slot(processId, seq));
    try {
      await this.answered(processId, w.waits.get(seq)!, progress, answer, controller.signal);
    } finally {
      this.inFlight.delete(slot(processId, seq));
    }
    return true;
  }

  private readonly pending = new Set<string>();

  private track(work: Promise<void>): Promise<void> {
    this.running.add(work);
    return work.finally(() => this.running.delete(work));
  }

  private async run(processId: string, wait: CallWait, known: CallProgress): Promise<void> {
    const at = slot(processId, wait.seq);
    const controller = new AbortController();
    this.inFlight.set(at, controller);
    let keep = false;
    const lease = this.deps.lease ? this.take(processId) : undefined;
    try {
      if (lease) await lease.held;
      controller.signal.throwIfAborted();
      // Under the lease, where the wait stands in the store: another runtime over this store
      // (another tab) may have sent this attempt, and settled it or moved on, since this one
      // last knew. Not for a wait made while this lease was held (`CallLease.base`), which none
      // can have sent: the next call of a chain goes without a read.
      const read = lease !== undefined && !(lease.base !== undefined && wait.seq >= lease.base);
      const progress = read ? await this.stored(processId, wait.seq, known) : known;
      if (progress === undefined) return;
      if (progress.due !== null && progress.due > this.deps.now()) return;
      if (progress.answer) {
        return await this.settle(
          processId,
          wait,
          progress,
          progress.answer,
          progress.answerMs ?? 0,
          controller.signal,
          lease,
        );
      }
      // Interrupted (no due time): the same attempt again; else the next one. Counted here and
      // not stored: a re-send after a crash counts on from what the store holds to the same
      // number, with the same key.
      const begun = progress.due === null ? progress : attemptBegun(progress);
      this.processes.get(processId)?.progress.set(wait.seq, begun);
      this.deps.progressed?.(processId);
      const key = idempotencyKey(processId, wait);
      // How long it took, on the sender's clock (a virtual one gives 0 to a real server's answer).
      const began = this.deps.now();
      const answer = await this.deps.attempt(wait.call, key, controller.signal, {
        processId,
        wait,
        attempt: begun.attempts,
      });
      if (answer === 'pending') {
        keep = true;
        this.pending.add(at);
        return;
      }
      await this.answered(
        processId,
        wait,
        begun,
        answer,
        controller.signal,
        this.deps.now() - began,
        lease,
      );
    } catch (error) {
      // Abandoned: the wait is gone, or its process may not run; the answer is dropped.
      if (!controller.signal.aborted) throw error;
    } finally {
      if (!keep) this.inFlight.delete(at);
      if (lease) {
        lease.users--;
        this.giveBack(processId);
      }
    }
  }

  /** The process's lease, taken for one more attempt (asked for if this sender holds none). */
  private take(processId: string): CallLease {
    let lease = this.leases.get(processId);
    if (!lease) {
      const made: CallLease = {
        held: this.deps.lease!(processId),
        granted: false,
        users: 0,
      };
      made.held.then(
        () => (made.granted = true),
        () => this.leases.get(processId) === made && this.leases.delete(processId),
      );
      this.leases.set(processId, (lease = made));
    }
    lease.users++;
    return lease;
  }

  /**
   * Gives the process's lease back once no attempt of it runs, unless one is due at once and
   * not yet sent (kept for it: the next `sendDue` sends it without taking the lock again).
   */
  private giveBack(processId: string): void {
    const lease = this.leases.get(processId);
    if (!lease || lease.users > 0) return;
    const w = this.processes.get(processId);
    const now = this.deps.now();
    const dueNow =
      w?.active === true &&
      [...w.progress.values()].some(
        (p) => (p.due === null || p.due <= now) && !this.inFlight.has(slot(processId, p.seq)),
      );
    if (!dueNow) this.release(processId, lease);
  }

  /**
   * A record of the process read under its lock while `lease` is held (and has been since it
   * was had): the waits numbered from its `snapshot.seq` on were made since, by commits no
   * other runtime's attempt can have come before (CallLease.base).
   */
  private basedOn(processId: string, lease: CallLease | undefined, seq: number): void {
    if (!lease?.granted || this.leases.get(processId) !== lease) return;
    lease.base = Math.min(lease.base ?? seq, seq);
  }

  private release(processId: string, lease: CallLease): void {
    if (this.leases.get(processId) === lease) this.leases.delete(processId);
    lease.held.then(
      (giveBack) => giveBack(),
      () => undefined,
    );
  }

  /**
   * Wait `seq`'s progress as the store has it, read under the wait's lock and taken as this
   * sender's: its row, or with none its first attempt (none has ended). undefined when the wait
   * may not be sent now: it is gone from the stored process (its outcome fired elsewhere), which
   * drops it here too, or its process may not run there (stopped, failed, flow-changed in
   * another runtime), which leaves it to the commit that lets it run.
   */
  private async stored(
    processId: string,
    seq: number,
    known: CallProgress,
  ): Promise<CallProgress | undefined> {
    const [rows, stands] = await Promise.all([
      this.deps.store.listCallProgress(processId),
      this.deps.stands?.(processId, seq) ?? ('waiting' as const),
    ]);
    const watched = this.processes.get(processId);
    const mine = watched?.progress.get(seq) === known ? watched : undefined;
    if (stands !== 'waiting') {
      if (stands === 'gone') mine?.progress.delete(seq);
      else if (mine) mine.active = false;
      return undefined;
    }
    const row = rows.find((p) => p.seq === seq);
    const progress = row ?? firstProgress(seq, known.due ?? this.deps.now());
    if (mine) {
      mine.progress.set(seq, progress);
      if (row) mine.stored.add(seq);
      else mine.stored.delete(seq);
    }
    return progress;
  }

  private async answered(
    processId: string,
    wait: CallWait,
    begun: CallProgress,
    answer: { result: AttemptResult; after?: number },
    signal: AbortSignal,
    ms = 0,
    lease?: CallLease,
  ): Promise<void> {
    const after = answer.after ?? 0;
    if (after > 0) {
      // A scenario's answer that comes later on the virtual clock: kept until then.
      const later = {
        ...begun,
        due: this.deps.now() + after,
        answer: answer.result,
        answerMs: after,
      };
      return this.save(processId, later, signal);
    }
    return this.settle(processId, wait, begun, answer.result, ms, signal, lease);
  }

  private async settle(
    processId: string,
    wait: CallWait,
    progress: CallProgress,
    result: AttemptResult,
    ms: number,
    signal: AbortSignal,
    /** The lease the attempt was sent under (none for a scenario's `respond`). */
    lease?: CallLease,
  ): Promise<void> {
    signal.throwIfAborted();
    const entry = attemptEntry(wait.call, progress.attempts, result, ms);
    const next = afterAttempt(wait.call, progress, result, this.deps.now());
    if ('progress' in next) {
      await this.deps.journal?.(processId, entry, wait);
      return this.save(processId, next.progress, signal);
    }
    signal.throwIfAborted();
    // The attempt's entry goes in the fire's commit: one write of the process, not two. The
    // record it fires on was read under this attempt's lease, if it has one.
    await this.deps.fire(processId, wait, next.outcome, entry, (record) =>
      this.basedOn(processId, lease, record.snapshot.seq),
    );
    // The fire's commit told `sync` that the wait is gone, which dropped its progress (and its
    // row, if one was stored); a fire that reached no wait (another tab moved the process on)
    // leaves them to be dropped here.
    const watched = this.processes.get(processId);
    if (!watched?.progress.has(wait.seq)) return;
    watched.progress.delete(wait.seq);
    if (!watched.stored.delete(wait.seq)) return;
    await this.deps.store.deleteCallProgress(processId, wait.seq);
  }

  private async save(
    processId: string,
    progress: CallProgress,
    signal: AbortSignal,
  ): Promise<void> {
    signal.throwIfAborted();
    const watched = this.processes.get(processId);
    // Marked before it is written, so that a `sync` meanwhile that finds the wait gone asks for
    // the row's delete after this write, not before it.
    watched?.stored.add(progress.seq);
    await this.deps.store.putCallProgress(processId, progress);
    // Abandoned while it saved (the wait went, the process stopped): what sync left stands.
    if (signal.aborted) return;
    watched?.progress.set(progress.seq, progress);
  }

  private abandon(processId: string, seq: number): void {
    const at = slot(processId, seq);
    this.pending.delete(at);
    this.inFlight.get(at)?.abort(new Error('the wait is gone or its process may not run'));
    this.inFlight.delete(at);
  }
}

const slot = (processId: string, seq: number) => `${processId}\u0000${seq}`;
