/**
 * The snapshot of a process: where it is, as JSON (docs/format.md#the-context-the-snapshot-and-the-signature).
 * It holds no context value, and its size follows what is live (ready, asleep,
 * waiting at a join, running sub-flows), never the passes completed or the time gone by: every
 * record below is dropped as soon as nothing live can need it.
 */
export interface Snapshot {
  format: 'snapshot/1';
  /** The next sequence number; ready nodes run in the order of theirs. */
  seq: number;
  /** Completions per node path (`b/step`): a counter per node, not a list. */
  visits: Record<string, number>;
  /** Per loop head path, how often a closing edge led into it. */
  passes: Record<string, number>;
  /** The node whose failure stopped the process; `retry` runs it again. */
  failed?: { path: string; message: string };
  /** Set once the process has finished; nothing in it runs again. */
  done?: true;
  /** The seed of the process's `$random()` sequence (0 when absent); data, set at its start. */
  seed?: number;
  /** How many numbers of that sequence its steps have drawn: a counter, never a list. */
  draws?: number;
  scope: ScopeSnapshot;
}

/** One running flow: the top-level one, or a sub-flow nested under a sub-flow node. */
export interface ScopeSnapshot {
  flow: string;
  signature: string;
  ready: Token[];
  waits: Wait[];
  joins: JoinRecord[];
  /** Which named nodes ran, per join and generation, for joins still to decide. */
  ran: RanFact[];
  children: Child[];
}

/**
 * A generation: the pass number of each loop head that dominates a node, outermost first
 * (docs/format.md#loops-and-generations). Empty for a node in no loop.
 */
export type Generation = number[];

export interface Token {
  node: string;
  gen: Generation;
  seq: number;
}

/** A continue-after node asleep until one of its triggers fires. */
export interface Wait {
  node: string;
  gen: Generation;
  /** Unique in the process: how a trigger names the wait it fires. */
  seq: number;
  /** When the process fell asleep here, in ms since the epoch; timers count from it. */
  since: number;
  /**
   * The request of the node's call trigger, evaluated against the live context when the node was
   * reached (docs/format.md#calls): what every attempt sends, so that a retry or a send after a
   * reload sends the same request. Absent for a node without a call.
   */
  call?: RecordedCall;
}

/**
 * A value as JSON holds it. Its members are left `unknown` rather than the type recursively:
 * Playwright's `evaluate` types its argument recursively, and a snapshot handed to it then went
 * too deep for the compiler.
 */
export type JsonValue = null | boolean | number | string | unknown[] | { [key: string]: unknown };

/**
 * A call's request as made when its node was reached, with every default filled in. A secret
 * stands in it as its placeholder (`{{secret:shop}}`), never as its value: the sender puts the
 * value in when it sends an attempt, so the snapshot, the journal and the inspector never hold it.
 */
export interface RecordedCall {
  /** The id of the call trigger, which the outcome fires. */
  trigger: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  /** Sent as JSON; absent when the call has no body or its expression gave nothing. */
  body?: JsonValue;
  /** How long an attempt waits for an answer, in ms. */
  timeout: number;
  /** Absent: the call is attempted once. Durations in ms. */
  retry?: {
    /** More attempts after the first, at most. */
    max: number;
    interval: number;
    backoff: number;
    maxInterval: number;
    on: (number | 'network' | 'timeout')[];
  };
}

/** A node with `depends` reached in a generation: waiting until its named nodes are settled. */
export interface JoinRecord {
  node: string;
  gen: Generation;
  /** Decided joins are kept only while a straggler of their generation could still arrive. */
  decided: boolean;
}

/** `node` ran in the generation `gen` of the join, compared on the heads the two share. */
export interface RanFact {
  join: string;
  node: string;
  gen: Generation;
}

export interface Child {
  node: string;
  gen: Generation;
  depth: number;
  scope: ScopeSnapshot;
}

/**
 * A copy of a snapshot that a step may change: every container a step changes (the counters, the
 * lists of each scope, the join records, whose `decided` it sets) is copied; the records a step
 * never changes in place (tokens, waits, ran facts, generations) are shared. Far cheaper than a
 * deep clone, and the snapshot given to the step stays as it was, which a failed node relies on.
 */
export function copyForStep(snapshot: Snapshot): Snapshot {
  const copy = copyScopes(snapshot);
  copy.visits = copyCounts(snapshot.visits);
  copy.passes = copyCounts(snapshot.passes);
  return copy;
}

function copyCounts(counts: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const key in counts) out[key] = counts[key]!;
  return out;
}

/** `copyForStep` without the counters. */
export function copyScopes(snapshot: Snapshot): Snapshot {
  return withScope(snapshot, copyScope(snapshot.scope));
}

/**
 * A new snapshot object around the same scopes and counters, for a step that owns the snapshot
 * (see `Run`): it changes them in place, undoing each change if its node fails, so that a step
 * costs what it does rather than what is live (copying a scope's lists copied its 100 waits at
 * every act). The object itself is new: `seq` and `draws` change on it, and a snapshot object
 * stands for one position (`earliestTimer` keeps its answer per object).
 */
export function shareScopes(snapshot: Snapshot): Snapshot {
  return withScope(snapshot, snapshot.scope);
}

// Fields written in one order for both: one shape (see keptShapes in run.ts).
function withScope(snapshot: Snapshot, scope: ScopeSnapshot): Snapshot {
  const copy: Snapshot = {
    format: snapshot.format,
    seq: snapshot.seq,
    visits: snapshot.visits,
    passes: snapshot.passes,
    scope,
  };
  if (snapshot.failed) copy.failed = snapshot.failed;
  if (snapshot.done) copy.done = snapshot.done;
  if (snapshot.seed !== undefined) copy.seed = snapshot.seed;
  if (snapshot.draws !== undefined) copy.draws = snapshot.draws;
  return copy;
}

// Written out field by field rather than spread: a spread of records of varied shapes (read from
// the store, made by a step) was the largest cost of a step. Every field of the type is listed.
function copyScope(scope: ScopeSnapshot): ScopeSnapshot {
  return {
    flow: scope.flow,
    signature: scope.signature,
    ready: scope.ready.slice(),
    waits: scope.waits.slice(),
    joins: scope.joins.length === 0 ? [] : scope.joins.map(copyJoin),
    ran: scope.ran.slice(),
    children: scope.children.length === 0 ? [] : scope.children.map(copyChild),
  };
}

const copyJoin = (j: JoinRecord): JoinRecord => ({ node: j.node, gen: j.gen, decided: j.decided });

const copyChild = (c: Child): Child => ({
  node: c.node,
  gen: c.gen,
  depth: c.depth,
  scope: copyScope(c.scope),
});

/**
 * Where the wait numbered `seq` is in a scope's waits, or -1. Waits are appended as they are
 * made, each with the process's next number, and removed without reordering, so a scope's list
 * is in order of `seq` and a binary search finds one: a look through every wait at every fire
 * cost a process with n waits n per pass. Only for a list in that order.
 */
export function waitIndex(waits: readonly Wait[], seq: number): number {
  let lo = 0;
  let hi = waits.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const at = waits[mid]!.seq;
    if (at === seq) return mid;
    if (at < seq) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}
