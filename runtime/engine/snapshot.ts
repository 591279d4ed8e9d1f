/**
 * The snapshot of a process: where it is, as JSON (FORMAT.md, The context, the snapshot and the
 * signature). It holds no context value, and its size follows what is live (ready, asleep,
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
 * (FORMAT.md, Loops and generations). Empty for a node in no loop.
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
