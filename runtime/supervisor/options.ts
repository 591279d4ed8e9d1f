import type { PendingWake } from './records.ts';
import type { Locks } from './locks.ts';
import type { ExtraFunctions } from '../expr/evaluate.ts';
import type { CallSenderDeps } from '../calls/callSender.ts';
import type { OriginAllowlist } from '../calls/originAllowlist.ts';
import type { SecretSource } from '../calls/secrets.ts';
import type { PinSource } from '../calls/pinnedAnswer.ts';
import type { StartTimer } from '../calls/sendAttempt.ts';

/**
 * How the supervisor sends calls (docs/format.md#calls; supervisor/callLoop.ts). Without it no
 * call reaches the network: every attempt is refused as an origin not allowed.
 */
export interface CallOptions {
  /** Where `$secret(name)` values come from as each attempt is sent. */
  secrets: SecretSource;
  /** The origins calls may reach; an empty list allows none. */
  allow: OriginAllowlist;
  /** Requests in flight per origin at most (DEFAULT_PER_ORIGIN, 6, when absent). */
  perOrigin?: number;
  /** The runtime's fetch (the worker's, or a test's); the global one when absent. */
  fetch?: typeof fetch;
  /** The runtime runs in a page or worker, where a CORS refusal looks like a network error. */
  inBrowser?: boolean;
  /**
   * Starts the timer of an attempt's timeout (sendAttempt's real one when absent): a test's own,
   * so that it says when a timeout is reached and no test waits on real time.
   */
  startTimer?: StartTimer;
  /** Sends one attempt instead of sendAttempt: a scenario's scripted answers, a test. */
  attempt?: CallSenderDeps['attempt'];
  /**
   * The pins of calls (docs/format.md#pinned-answers), asked before each attempt: a pinned call
   * is answered by its pin and nothing is sent, `attempt` included.
   */
  pins?: PinSource;
  /**
   * Told of every attempt that got its result (the journal's call-attempt entry, when it was
   * answered on the clock): a scenario's report lists them though its store keeps no journal.
   */
  onAttempt?(
    processId: string,
    entry: Parameters<NonNullable<CallSenderDeps['journal']>>[1],
    wait: Parameters<NonNullable<CallSenderDeps['journal']>>[2],
    at: number,
  ): void;
}

export interface SupervisorOptions {
  /** Per-process locks: Web Locks in the browser, so that two tabs never run one process. */
  locks?: Locks;
  newId?: (kind: 'process' | 'context') => string;
  /** Hears which node each step is in, and when it is out (the app's runaway watchdog). */
  watch?: StepWatch;
  /** Steps (and wakes) one drive may take before the process is stopped; MAX_STEPS_PER_RUN. */
  maxStepsPerRun?: number;
  /**
   * Steps one commit of a drive holds at most; MAX_STEPS_PER_COMMIT when absent. `flow simulate`
   * gives its whole budget (`Infinity`): see MAX_STEPS_PER_COMMIT for why the app's runs commit
   * every so many steps, and docs/decisions.md for why the command does not.
   */
  maxStepsPerCommit?: number;
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
   * timers up to the next other process's due time, in one commit (oneByOneAdvance.ts), instead
   * of batching the due processes into shared transactions (wakeBatcher.ts). For a store whose
   * commits cost nothing to share, kept in memory by its only runner, whose caller runs one
   * operation at a time (so that, without a watch, the engine's acts are not queued behind one
   * another): `flow simulate`. Same records, contexts and report (wakeOneByOne.property.test.ts).
   */
  wakeOneByOne?: boolean;
  /**
   * Functions expressions may call besides JSONata's own, handed to the engine in its
   * environment (`EngineEnv.functions`). The app gives none; the dev server's worker gives
   * `$block` when an e2e test asks (web/runtime/testFunctions.ts).
   */
  functions?: ExtraFunctions;
  /** How calls are sent; absent: every attempt is refused, nothing is sent (CallOptions). */
  calls?: CallOptions;
  /**
   * false: this supervisor sends no attempts at all, and a process at a call waits (Restate's
   * handler, where attempts run as journaled side effects of the handler itself,
   * runtime/restate/callAttempts.ts, and each invocation builds a supervisor that must not leave
   * work behind it). true when absent.
   */
  sendsCalls?: boolean;
}

export interface WakeOptions extends SupervisorOptions {
  /** Steps a batch of wakes may run before it commits; MAX_STEPS_PER_BATCH when absent. */
  maxStepsPerBatch?: number;
  /** With no `betweenSteps`, the real time a batch runs before a turn of the event loop; BATCH_SLICE_MS. */
  batchSliceMs?: number;
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

/**
 * How a run may go on past a stop whose earliest timer is not due yet (an advance that wakes one
 * process at a time): `may(due)` says whether a timer due then fires in this run, `at(due)` the
 * time it fires at, from which the run's later acts take their time.
 */
export interface RunOn {
  may(due: number): boolean;
  at(due: number): number;
}

/** What an advance asks of `advanceTo`. */
export interface AdvanceOptions {
  /** Told after each batch has committed: the clock's time, and the wakes so far. */
  onProgress?: (time: number, wakes: number) => void;
  /** Ends the advance after the wake in progress (its batch commits what it ran). */
  signal?: AbortSignal;
  /**
   * The journal's retention rule (keep the last N passes of a process in full, sum up the older
   * ones), applied to each batch before it commits: the passes an advance would store and the
   * rule then delete are summed up in memory instead. Absent: every entry is committed.
   */
  keepPasses?: number;
}

/** How the clock is advanced: in shared batches, or one process at a time (chosen once). */
export interface Advance {
  advanceTo(target: number, options?: AdvanceOptions): Promise<{ wakes: number; reached: number }>;
}
