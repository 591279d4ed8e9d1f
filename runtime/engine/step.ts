import type { ContextWrite } from '../../shared/contextWrite.ts';
import type { Flow } from '../../shared/schema.ts';
import { flowModel } from './flowModel.ts';
import type { EngineJournalEntry } from './journal.ts';
import { keptShapes, NodeFailure, Run, type EngineEnv, type Steps } from './run.ts';
import { copyScopes, type Snapshot } from './snapshot.ts';
import { statusOf, waitsWithTriggers, type EngineStatus, type WaitView } from './waits.ts';

// Where a snapshot stands lives apart from the stepping, so that the page can show it without
// loading the expression evaluator (waits.ts).
export { statusOf, waitsWithTriggers };
export type { EngineStatus, WaitView };

/** What one step returns: the new snapshot, the node's writes, and what happened. */
export interface StepResult {
  snapshot: Snapshot;
  /** The step's writes to the context, in order; they reach the live context together. */
  writes: ContextWrite[];
  journal: EngineJournalEntry[];
  status: EngineStatus;
  /** The waits the process stands at after the step. */
  waits: WaitView[];
}

/**
 * A new process of `flow`, ready at its start node. `seed` seeds its `$random()` sequence: data
 * chosen by the caller (the supervisor derives it from the process id), never drawn here.
 */
export function startSnapshot(flow: Flow, seed?: number): Snapshot {
  const model = flowModel(flow);
  const start = flow.nodes.find((n) => n.kind === 'start');
  const ready = start ? [{ node: start.id, gen: model.heads(start.id).map(() => 0), seq: 0 }] : [];
  // Written with the fields of every snapshot a step copies (copyScopes), in its order, and
  // `seed` after them as copyScopes adds it: one shape for both (see keptShapes in run.ts).
  const snapshot: Snapshot = {
    format: 'snapshot/1',
    seq: 1,
    visits: {},
    passes: {},
    scope: {
      flow: flow.id,
      signature: model.signature,
      ready,
      waits: [],
      joins: [],
      ran: [],
      children: [],
    },
  };
  if (seed !== undefined) snapshot.seed = seed;
  return snapshot;
}

/**
 * Runs a generator of `Run` to its end: synchronously while it yields nothing, and from the
 * first expression that jsonata must evaluate on, as a promise.
 */
function drive<T>(steps: Steps<T>): T | Promise<T> {
  const first = steps.next();
  if (first.done) return first.value;
  return (async (): Promise<T> => {
    let at: IteratorResult<Promise<unknown>, T> = first;
    while (!at.done) at = steps.next(await at.value);
    return at.value;
  })();
}

/** A step's result, with the context as the step left it (its writes applied). */
/** A step's result, with the context as the step left it (its writes applied). */
type Outcome = StepResult & { readonly context: unknown };

/**
 * One step or one fire, as a value when it needed no awaiting and as a promise when it did.
 * `owned`: see `Run`; only runToStop, for the snapshots its own steps made, passes true.
 */
function guarded(
  snapshot: Snapshot,
  context: unknown,
  env: EngineEnv,
  act: (run: Run) => Steps<unknown>,
  owned = false,
  /** Lists the step appends its journal and writes to, rather than lists of its own. */
  into?: { journal: EngineJournalEntry[]; writes: ContextWrite[] },
): Outcome | Promise<Outcome> {
  if (snapshot.failed) {
    throw new Error(
      `the process failed at "${snapshot.failed.path}"; retry it before running it on`,
    );
  }
  let run: Run | undefined;
  let done: unknown;
  try {
    run = new Run(snapshot, context, env, owned, into?.journal, into?.writes);
    done = drive(act(run));
  } catch (e) {
    return failedStep(e, run, snapshot, context, env);
  }
  const ran = run;
  if (done instanceof Promise) {
    return done.then(
      () => outcomeOf(ran, env),
      (e: unknown) => failedStep(e, ran, snapshot, context, env),
    );
  }
  return outcomeOf(ran, env);
}

function outcomeOf(run: Run, env: EngineEnv): Outcome {
  return new StepOutcome(
    run.snapshot,
    run.writes,
    run.journal,
    run.status(),
    env.flows,
    run.snapshot,
    run,
    undefined,
  );
}

/**
 * A step's result, its waits listed only when asked for: the supervisor times a process from
 * its snapshot, and listing every wait after every step cost a step what the live waits are.
 * The context after the step is made only if asked for (runToStop): a step hands the
 * supervisor its writes, which it applies to the context itself. One object per step, a class:
 * an object literal with getters costs far more to make.
 */
class StepOutcome implements Outcome {
  private listed: WaitView[] | undefined;
  constructor(
    readonly snapshot: Snapshot,
    readonly writes: ContextWrite[],
    readonly journal: EngineJournalEntry[],
    readonly status: EngineStatus,
    private readonly flows: EngineEnv['flows'],
    private readonly waitsOf: Snapshot,
    run: Run | undefined,
    given: unknown,
  ) {
    this.#run = run;
    this.#given = given;
  }

  /**
   * The step's run, whose context is the step's; or none, and the context `given`. Fields of
   * their own (#), not properties: a result compares with another by what the step did.
   */
  readonly #run: Run | undefined;
  readonly #given: unknown;

  get waits(): WaitView[] {
    return (this.listed ??= waitsWithTriggers(this.waitsOf, this.flows));
  }

  get context(): unknown {
    return this.#run ? this.#run.context : this.#given;
  }
}

function failedStep(
  e: unknown,
  run: Run | undefined,
  snapshot: Snapshot,
  context: unknown,
  env: EngineEnv,
): Outcome {
  if (!(e instanceof NodeFailure)) throw e;
  run?.undo();
  // A failed node writes nothing and moves nothing: the snapshot is the one before the step.
  const failed: Snapshot = { ...snapshot, failed: { path: e.path, message: e.message } };
  const journal: EngineJournalEntry[] = [{ type: 'failed', node: e.path, message: e.message }];
  return new StepOutcome(failed, [], journal, 'failed', env.flows, snapshot, undefined, context);
}

const runNext = (run: Run) => run.runNext();

/**
 * Runs the node that became ready first; a snapshot with nothing ready comes back as it was.
 * `owned`: nobody but the caller holds `snapshot`, nor will look at it again (a run of steps
 * whose intermediate snapshots no one keeps): the step may change its counters in place.
 */
export async function step(
  snapshot: Snapshot,
  context: unknown,
  env: EngineEnv,
  owned = false,
): Promise<StepResult> {
  return stepNow(snapshot, context, env, owned);
}

/**
 * `step`, as a value when the step needed no awaiting (no expression jsonata had to evaluate)
 * and as a promise when it did: a caller that takes many steps in a row (a supervisor's run)
 * then pays no promise and no turn of the microtask queue for each.
 */
export function stepNow(
  snapshot: Snapshot,
  context: unknown,
  env: EngineEnv,
  owned = false,
): StepResult | Promise<StepResult> {
  return guarded(snapshot, context, env, runNext, owned);
}

/** Fires one trigger of the wait numbered `seq`; the continue-after completes (docs/format.md#flows). */
export async function fire(
  snapshot: Snapshot,
  context: unknown,
  env: EngineEnv,
  wake: { seq: number; trigger: string; payload?: unknown },
  /** As for `step`: nobody but the caller holds `snapshot`, so its counters need no copy. */
  owned = false,
): Promise<StepResult> {
  return fireNow(snapshot, context, env, wake, owned);
}

/** `fire`, as a value when it needed no awaiting (see `stepNow`). */
export function fireNow(
  snapshot: Snapshot,
  context: unknown,
  env: EngineEnv,
  wake: { seq: number; trigger: string; payload?: unknown },
  owned = false,
): StepResult | Promise<StepResult> {
  return guarded(
    snapshot,
    context,
    env,
    (run) => run.fire(wake.seq, wake.trigger, wake.payload),
    owned,
  );
}

/** The snapshot without its failure, so that `retry` runs the failed node again. */
export function clearFailure(snapshot: Snapshot): Snapshot {
  const { failed: _failed, ...rest } = snapshot;
  return rest;
}

/**
 * Steps until the process stops (asleep, done or failed), applying each step's writes to its
 * own copy of the context. For tests and tools; the supervisor steps one at a time so that it
 * can commit each step on its own.
 */
export async function runToStop(
  snapshot: Snapshot,
  context: unknown,
  env: EngineEnv,
): Promise<StepResult & { context: unknown }> {
  const status = statusOf(snapshot);
  let current: StepResult = {
    snapshot,
    writes: [],
    journal: [],
    status,
    // Only a snapshot that runs no step is returned as given; otherwise the last step's waits.
    waits: status === 'running' ? [] : waitsWithTriggers(snapshot, env.flows),
  };
  const journal: EngineJournalEntry[] = [];
  const writes: ContextWrite[] = [];
  // Each step appends to these two itself: no lists per step to copy from.
  const into = { journal, writes };
  // The snapshots of this loop's own steps are seen by no one else until it returns: from the
  // second step on, each step may change its counters in place (see `Run`).
  let owned = false;
  while (current.status === 'running') {
    // A step that needed no awaiting is taken as it is: no promise per step.
    const journalAt = journal.length;
    const writesAt = writes.length;
    const next = guarded(current.snapshot, context, env, runNext, owned, into);
    const outcome = next instanceof Promise ? await next : next;
    owned = true;
    current = outcome;
    context = outcome.context;
    if (current.journal !== journal) {
      // A failed step: what it had appended is dropped, and its own entry (`failed`) kept.
      journal.length = journalAt;
      writes.length = writesAt;
      for (const e of current.journal) journal.push(e);
      for (const w of current.writes) writes.push(w);
    }
  }
  return new Stopped(current, journal, writes, context);
}

/** What runToStop returns: the last step's snapshot and status, its waits listed when read. */
class Stopped implements StepResult {
  readonly snapshot: Snapshot;
  readonly status: EngineStatus;
  constructor(
    private readonly last: StepResult,
    readonly journal: EngineJournalEntry[],
    readonly writes: ContextWrite[],
    readonly context: unknown,
  ) {
    this.snapshot = last.snapshot;
    this.status = last.status;
  }

  get waits(): WaitView[] {
    return this.last.waits;
  }
}

/** Each running flow's id and the signature it started on, by path (`''` for the top level). */
export function signaturesOf(
  snapshot: Snapshot,
): { path: string; flow: string; signature: string }[] {
  const out: { path: string; flow: string; signature: string }[] = [];
  const walk = (scope: Snapshot['scope'], path: string) => {
    out.push({ path, flow: scope.flow, signature: scope.signature });
    for (const c of scope.children) walk(c.scope, `${path}${c.node}/`);
  };
  walk(snapshot.scope, '');
  return out;
}

// See keptShapes in run.ts: these two are made once per step too.
{
  const run = keptShapes.find((x) => x instanceof Run)!;
  const result = new StepOutcome(
    run.snapshot,
    [],
    [],
    'waiting',
    () => undefined,
    run.snapshot,
    run,
    undefined,
  );
  const done = copyScopes(run.snapshot);
  done.done = true;
  keptShapes.push(result, new Stopped(result, [], [], undefined), done);
}
