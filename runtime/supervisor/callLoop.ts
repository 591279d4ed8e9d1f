import type { attemptEntry, CallProgress } from '../calls/callProgress.ts';
import { CallSender, type CallSenderDeps, type CallWait } from '../calls/callSender.ts';
import { allowOrigins } from '../calls/originAllowlist.ts';
import { DEFAULT_PER_ORIGIN, OriginLimiter } from '../calls/originLimiter.ts';
import { pinnedAttempt } from '../calls/pinnedAnswer.ts';
import type { AttemptResult } from '../calls/recordedCall.ts';
import { noSecrets } from '../calls/secrets.ts';
import { sendAttempt } from '../calls/sendAttempt.ts';
import { callWaitsOf } from './callWaits.ts';
import type { ChangeListeners } from './changes.ts';
import type { Clock } from './clock.ts';
import { MAX_STEPS_PER_RUN } from './limits.ts';
import type { CallOptions } from './options.ts';
import { holdLock, type Locks } from './locks.ts';
import { callLockName, type ProcessLock } from './processLock.ts';
import { stamp } from './recordFacts.ts';
import {
  CALL_WAITS,
  type JournalEntry,
  type ProcessRecord,
  type ProcessStatus,
} from './records.ts';
import type { Store } from './store.ts';

type AttemptEntry = ReturnType<typeof attemptEntry>;

/** What an advance of the clock asks of the call loop (wakeBatcher.ts, oneByOneAdvance.ts). */
export interface CallTimes {
  /**
   * Sends every attempt due by now and waits until they, and the fires their outcomes make,
   * have settled: on a virtual clock, time moves on only once what is due now is done.
   */
  settle(): Promise<void>;
  /**
   * Starts every attempt due by now without waiting for the answers, so that the wakes due now
   * run meanwhile: true while attempts are in flight, which `settle` then awaits before time
   * moves on. false, sending nothing, at an instant `settle` gave up on (a loop of calls
   * answered at once), which is then the next advance's.
   */
  send(): Promise<boolean>;
  /**
   * Whether a process must not be woken while the attempts in flight settle: one of them is
   * its own, or another process's of the same context, whose fire would write that context in
   * an order the machine's speed decides.
   */
  holding(): (process: Pick<ProcessRecord, 'id' | 'contextId'>) => boolean;
  /** When the next attempt falls due (of processes that may run), or null. */
  nextDue(): number | null;
  /**
   * Whether the record stands at a call wait the loop has not been told of yet: its first
   * attempt is due at the time the process reached it, so a batch of wakes goes no further.
   */
  reachesNewCall(record: ProcessRecord): boolean;
}

/** What the call loop stands on. */
export interface CallLoopParts {
  /** The store itself, not the supervisor's watched one: the loop's own writes sync nothing. */
  store: Store;
  clock: Clock;
  lock: ProcessLock;
  /** The locks `lock` takes; a process's attempts are sent under one of them (callLockName). */
  locks: Locks;
  changes: ChangeListeners;
  /**
   * Fires a call trigger with its outcome, `entries` journaled in the fire's commit
   * (Deliveries.fireCall); false, with nothing written, when the wait is gone.
   */
  fire(
    id: string,
    seq: number,
    triggerId: string,
    outcome: unknown,
    entries: JournalEntry[],
    /** Told the record the fire read under the process's lock, before it fires. */
    loaded?: (record: ProcessRecord) => void,
  ): Promise<boolean>;
  options: CallOptions | undefined;
  /** false: no attempt is ever sent (SupervisorOptions.sendsCalls). */
  sends: boolean;
}

/** Statuses whose process may still go on, and whose call waits therefore keep their progress. */
const LIVE: readonly ProcessStatus[] = ['waiting', 'stopped', 'failed', 'flow-changed'];

/**
 * The supervisor's part that sends calls (docs/format.md#calls; docs/architecture.md): a
 * CallSender told, after every commit of a process, which call waits it stands at and whether
 * it may run (`committed`, from the store the supervisor's parts write through), and driven by
 * the supervisor's time: a real-time wake starts what is due (`startDue`), an advance of the
 * virtual clock sends and awaits it (`settle`) before the clock moves past it.
 *
 * Delivery is at least once (CallSender): after a restart, the first use of the loop reads the
 * processes that may still go on and tells the sender of their call waits, so an attempt a
 * crash interrupted is sent again, with the same Idempotency-Key.
 */
export class CallLoop implements CallTimes {
  private readonly sender: CallSender;
  /** Per process, the syncs in order: a later one never overtakes an earlier. */
  private readonly chains = new Map<string, Promise<void>>();
  private readonly background = new Set<Promise<void>>();
  private recovery: Promise<void> | undefined;
  /** A failure of an attempt started in the background, thrown by the next call that waits. */
  private failure: { error: unknown } | undefined;

  constructor(private readonly parts: CallLoopParts) {
    const { store, clock, changes, options } = parts;
    const limiter = new OriginLimiter(options?.perOrigin ?? DEFAULT_PER_ORIGIN);
    // No options: no secrets and no origin allowed, so every attempt is refused unsent.
    const secrets = options?.secrets ?? noSecrets;
    const allow = options?.allow ?? allowOrigins([]);
    const send: CallSenderDeps['attempt'] =
      options?.attempt ??
      (async (call, key, signal) => ({
        result: await sendAttempt(call, {
          secrets,
          allow,
          limiter,
          key,
          signal,
          ...(options?.fetch ? { fetch: options.fetch } : {}),
          ...(options?.inBrowser ? { inBrowser: true } : {}),
          ...(options?.startTimer ? { startTimer: options.startTimer } : {}),
        }),
      }));
    // A pinned call is answered by its pin, and nothing is sent (docs/format.md#pinned-answers).
    const pins = options?.pins;
    const attempt: CallSenderDeps['attempt'] = pins
      ? async (call, key, signal, about) => {
          const pinned = await pinnedAttempt(pins, about.wait, clock.now());
          return pinned ? { result: pinned } : send(call, key, signal, about);
        }
      : send;
    this.sender = new CallSender({
      now: () => clock.now(),
      store: {
        listCallProgress: (id) => store.listCallProgress(id),
        // The inspector shows each attempt: a change of progress is a change of the process.
        putCallProgress: async (id, progress) => {
          await store.putCallProgress(id, progress);
          changes.changed(id);
        },
        deleteCallProgress: async (id, seq) => {
          await store.deleteCallProgress(id, seq);
          changes.changed(id);
        },
      },
      attempt,
      // Two runtimes over one store (two tabs) each know the wait: one sends the process's
      // attempts at a time, and the other, once it has the lock, finds their results stored.
      lease: (id) => holdLock(parts.locks, callLockName(id)),
      // The stored process says whether the wait is still to be sent: a fire removes it.
      stands: async (id, seq) => {
        const record = await store.getProcess(id);
        if (!record || !LIVE.includes(record.status)) return 'gone';
        if (!callWaitsOf(record.snapshot).some((w) => w.seq === seq)) return 'gone';
        return record.status === 'waiting' ? 'waiting' : 'held';
      },
      // The inspector shows an attempt in flight, which is kept in memory only.
      progressed: (id) => changes.changed(id),
      fire: async (id, wait, outcome, entry, loaded) => {
        const entries = this.attemptRecords(id, entry, wait);
        const fired = await parts.fire(id, wait.seq, wait.call.trigger, outcome, entries, loaded);
        if (!fired) await this.journalAlone(id, entries);
      },
      journal: (id, entry, wait) => this.journalAlone(id, this.attemptRecords(id, entry, wait)),
    });
  }

  /**
   * An attempt of `wait` told to `onAttempt`, and its journal entry (docs/format.md#calls),
   * stamped now: none when the store keeps no journal.
   */
  private attemptRecords(id: string, entry: AttemptEntry, wait: CallWait): JournalEntry[] {
    const { options, clock, store } = this.parts;
    options?.onAttempt?.(id, entry, wait, clock.now());
    if (!store.keepsJournal) return [];
    const made = { type: 'call-attempt' as const, node: wait.node, wait: wait.seq, ...entry };
    return [stamp(id, made, undefined, clock.now())];
  }

  /**
   * Appends `entries` to a process's journal in a write of their own: a retried attempt's, or
   * the last one's when its fire reached no wait. Under the process's lock, as every write of
   * it: the record as it is, with the entries appended.
   */
  private journalAlone(id: string, entries: JournalEntry[]): Promise<void> {
    if (entries.length === 0) return Promise.resolve();
    const { store, lock } = this.parts;
    return lock.locked(id, async () => {
      const record = await store.getProcess(id);
      if (record) await store.putProcess(record, entries);
    });
  }

  /**
   * Told after every commit of a process, with the record as committed: its call waits, and
   * whether it may run. A process with none that the sender does not watch costs nothing.
   */
  committed(record: ProcessRecord): Promise<void> {
    if (!this.parts.sends) return Promise.resolve();
    const waits = LIVE.includes(record.status) ? callWaitsOf(record.snapshot) : [];
    if (waits.length === 0 && !this.known.has(record.id)) return Promise.resolve();
    return this.sync(record.id, record.contextId, waits, record.status === 'waiting');
  }

  /** Processes the sender watches (a cheap test on every commit), with their contexts. */
  private readonly known = new Map<string, string>();
  /** The instant `settle` last gave up at, with attempts still due then. */
  private gaveUpAt: number | undefined;

  private sync(id: string, contextId: string, waits: CallWait[], active: boolean): Promise<void> {
    if (waits.length > 0) this.known.set(id, contextId);
    const before = this.chains.get(id) ?? this.ready();
    const next = before
      .catch(() => undefined)
      .then(() => this.sender.sync(id, waits, active))
      .finally(() => {
        if (this.chains.get(id) === next) this.chains.delete(id);
        if (waits.length === 0) this.known.delete(id);
      });
    this.chains.set(id, next);
    return next;
  }

  /**
   * Once per supervisor, before its first use of time: the call waits of every process asleep
   * at a call, read from the store, so that what a crash or a closed tab interrupted goes on.
   */
  ready(): Promise<void> {
    if (!this.parts.sends) return Promise.resolve();
    this.recovery ??= this.recover();
    return this.recovery;
  }

  private async recover(): Promise<void> {
    // Waiting processes alone: one stopped, failed or asking what to do is told of at the commit
    // that lets it go on (a resume, a retry, a choice), which reads its progress then. They are
    // found along the index of what waiting processes wait for (CALL_WAITS): no other record
    // is read, however many processes sleep.
    for (const record of await this.parts.store.waitersFor(CALL_WAITS)) {
      const waits = callWaitsOf(record.snapshot);
      if (record.status !== 'waiting' || waits.length === 0 || this.known.has(record.id)) continue;
      this.known.set(record.id, record.contextId);
      // Not chained behind `ready` (this is it): in order with any commit's sync after.
      const next = this.sender.sync(record.id, waits, true);
      this.chains.set(record.id, next);
      await next;
      if (this.chains.get(record.id) === next) this.chains.delete(record.id);
    }
  }

  /** When the next attempt falls due, or null (CallSender.nextDue). */
  nextDue(): number | null {
    return this.parts.sends ? this.sender.nextDue() : null;
  }

  reachesNewCall(record: ProcessRecord): boolean {
    if (!this.parts.sends || record.status !== 'waiting') return false;
    return callWaitsOf(record.snapshot).some((w) => !this.sender.watches(record.id, w.seq));
  }

  /**
   * Starts the attempts due by now without waiting for their answers (the real-time schedule:
   * an answer comes when it comes, and its fire is a wake of its own). A failure of one is
   * thrown by the next call of the loop that waits.
   */
  async startDue(): Promise<void> {
    if (!this.parts.sends) return;
    await this.ready();
    this.throwFailure();
    const started = this.sender.sendDue().catch((error: unknown) => {
      this.failure ??= { error };
    });
    this.background.add(started);
    void started.finally(() => this.background.delete(started));
  }

  async settle(): Promise<void> {
    if (!this.parts.sends) return;
    await this.ready();
    // A fire can bring its process to another call due at once: sent in the same instant. A
    // flow that does so without end (a loop of calls answered at once) is left, after as many
    // rounds as a run has steps, to the next advance, rather than holding this one forever.
    const now = this.parts.clock.now();
    for (let round = 0; ; round++) {
      await this.idle();
      const due = this.sender.nextDue();
      if (due === null || due > now) break;
      if (round === MAX_STEPS_PER_RUN) {
        this.gaveUpAt = now;
        break;
      }
      await this.sender.sendDue();
    }
    await this.idle();
  }

  async send(): Promise<boolean> {
    if (!this.parts.sends || this.gaveUpAt === this.parts.clock.now()) return false;
    await this.startDue();
    return this.sender.busyProcesses().size > 0;
  }

  holding(): (process: Pick<ProcessRecord, 'id' | 'contextId'>) => boolean {
    const busy = this.parts.sends ? this.sender.busyProcesses() : new Set<string>();
    if (busy.size === 0) return () => false;
    const contexts = new Set([...busy].map((id) => this.known.get(id)));
    return (p) => busy.has(p.id) || contexts.has(p.contextId);
  }

  /** Waits for the attempts in flight, then gives back the locks kept for attempts due. */
  async close(): Promise<void> {
    try {
      await this.idle();
    } finally {
      this.sender.close();
    }
  }

  /** Resolves once every attempt in flight, and every sync asked for, has settled. */
  async idle(): Promise<void> {
    for (;;) {
      await Promise.all(
        [...this.chains.values(), ...this.background].map((p) => p.catch(() => {})),
      );
      await this.sender.idle();
      if (this.chains.size === 0 && this.background.size === 0) break;
    }
    this.throwFailure();
  }

  /** Each call wait's progress, for the inspector. */
  async progressOf(id: string): Promise<CallProgress[]> {
    await this.ready();
    await this.chains.get(id)?.catch(() => undefined);
    const watched = this.sender.progressOf(id);
    if (watched.length > 0) return watched.sort((a, b) => a.seq - b.seq);
    // A stopped or failed process the sender is not told of yet: as stored.
    return this.parts.store.listCallProgress(id);
  }

  /** Makes the next attempt of wait `seq` due now, and starts it; false when there is none. */
  async sendNow(id: string, seq: number): Promise<boolean> {
    await this.ready();
    await this.chains.get(id)?.catch(() => undefined);
    if (!(await this.sender.dueNow(id, seq))) return false;
    await this.startDue();
    return true;
  }

  /** A scenario's `respond`: answers the attempt of wait `seq` that waits for one. */
  async respond(
    id: string,
    seq: number,
    answer: { result: AttemptResult; after?: number },
  ): Promise<boolean> {
    await this.ready();
    await this.chains.get(id)?.catch(() => undefined);
    return this.sender.respond(id, seq, answer);
  }

  private throwFailure(): void {
    const failure = this.failure;
    if (!failure) return;
    this.failure = undefined;
    throw failure.error;
  }
}
