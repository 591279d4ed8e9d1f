import {
  applyWrites,
  MAX_VALUE_CHARS,
  toJsonValue,
  type ContextWrite,
} from '../../shared/contextWrite.ts';
import type { Call, Flow, Trigger } from '../../shared/schema.ts';
import { CALL_BINDINGS } from '../expr/callBindings.ts';
import {
  conditionNow,
  evaluate,
  evaluateCondition,
  evaluateNow,
  type Condition,
  type Evaluation,
} from '../expr/evaluate.ts';
import { randomAt } from '../expr/seeded.ts';
import type { StepInputs } from '../expr/stepBindings.ts';
import { flowModel, type EdgeInfo, type FlowModel, type NodeInfo } from './flowModel.ts';
import { generationAlong, samePasses, sharedHeads } from './generation.ts';
import type { EngineEnv } from './engineEnv.ts';
import type { EngineJournalEntry } from './journal.ts';
import { dropLiveIndex, indexLive, liveIndexOf, type LiveIndex } from './liveIndex.ts';
import { callExpressions, recordCall } from './recordCall.ts';
import type { Scope } from './scope.ts';
import { statusOf, type EngineStatus } from './waits.ts';
import {
  copyForStep,
  shareScopes,
  type Child,
  type Generation,
  type JoinRecord,
  type RanFact,
  type ScopeSnapshot,
  type Snapshot,
  type RecordedCall,
  type Token,
  type Wait,
  waitIndex,
} from './snapshot.ts';

/** Sub-flows nest this deep at most; a sub-flow node at depth 16 fails (docs/format.md#flows). */
export const MAX_DEPTH = 16;

/**
 * Live branches a process may have at once by default: nodes ready, waits and running sub-flows,
 * counted across sub-flows. Wide enough for a fan-out over 10,000 items (what Step Functions'
 * distributed map runs), and low enough that a flow multiplying its branches (a sub-flow calling
 * its own flow twice, a lattice of fan-outs) fails within seconds: a step costs what it does,
 * not what is live (the facts, ready tokens and scopes are walked without copies), so reaching
 * the bound costs little more than the steps that reach it. See docs/decisions.md.
 */
export const MAX_LIVE_BRANCHES = 10_000;

export type { EngineEnv } from './engineEnv.ts';
export type { Scope } from './scope.ts';

/** Why a step could not complete its node; nothing of the step is kept. */
export class NodeFailure extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(message);
  }
}

const isCall = (t: Trigger): t is Trigger & { call: Call } => t.call !== undefined;

/**
 * A context not yet made: `base` with the last `count` of `writes` applied. A node's writes
 * reach the supervisor as writes, which it applies itself; the context after them is made only
 * when an edge's condition, or a caller of `Run.context`, reads it.
 */
class PendingWrites {
  private value: unknown;
  private done = false;
  private readonly from: number;
  constructor(
    private readonly base: unknown,
    private readonly writes: readonly ContextWrite[],
    count: number,
  ) {
    this.from = writes.length - count;
  }

  made(): unknown {
    if (!this.done) {
      this.value = applyWrites(this.base, this.writes.slice(this.from));
      this.done = true;
    }
    return this.value;
  }
}

type Pending = unknown;

const applyingLast = (base: unknown, writes: readonly ContextWrite[], count = 1): Pending =>
  new PendingWrites(base, writes, count);

/** Something live in a scope, as the settled rule sees it: a node and its generation. */
type LiveItem = { node: string; gen: Generation };

/**
 * A part of a step, written as a generator so that a step runs synchronously from end to end
 * when every expression it meets has a result at once (the shortcut in expr/fastPath.ts), and
 * pauses only where jsonata must be awaited: it yields that promise and is resumed with its
 * result (`drive` in step.ts). Awaiting every node instead cost more than running it.
 */
export type Steps<T> = Generator<Promise<unknown>, T, unknown>;

/** What a step passes where nothing is pending: one list, never changed. */
const NONE: readonly LiveItem[] = Object.freeze([]);
const NO_TOKENS: readonly Token[] = Object.freeze([]);

/** A node not in its flow's model (one a flow change removed) has no edges, heads or joins. */
const NO_EDGES: readonly EdgeInfo[] = Object.freeze([]);
const NO_HEADS: readonly string[] = Object.freeze([]);

/** A result as a JSON value; numbers, strings, booleans and null are already one. */
function jsonOf(value: unknown): ReturnType<typeof toJsonValue> {
  const t = typeof value;
  if (
    value === null ||
    t === 'boolean' ||
    // -0 is left to toJsonValue, which makes it 0 as JSON does.
    (t === 'number' && Number.isFinite(value) && !Object.is(value, -0)) ||
    // Escaped, each character takes at most six; below this no string can pass the limit.
    (t === 'string' && (value as string).length < MAX_VALUE_CHARS / 6 - 2)
  )
    return { ok: true, value };
  return toJsonValue(value);
}

/**
 * The mutable state of one step. It works on a copy of the snapshot; the step's caller keeps it
 * only if the step completes, which is what makes a failed node write nothing.
 */
export class Run {
  readonly snapshot: Snapshot;
  readonly root: Scope;
  /** What the step did and wrote, appended to the lists given (runToStop's, for all its steps). */
  readonly journal: EngineJournalEntry[];
  readonly writes: ContextWrite[];
  /**
   * The context as this step sees it, the live one with the step's own writes applied; made from
   * the writes only when read (see `Pending`).
   */
  get context(): unknown {
    return (this.pendingContext = this.seen(this.pendingContext));
  }
  private pendingContext: Pending;
  /**
   * What expressions know of the step besides the context: its time, and the process's seeded
   * sequence, whose draws the snapshot counts (so a failed node, whose snapshot is the one
   * before it, draws the same numbers when retried).
   */
  get inputs(): StepInputs {
    // Made only for an expression jsonata evaluates: the shortcut needs neither.
    return (this.madeInputs ??= {
      now: this.env.now,
      draw: () => this.draw(),
      ...(this.env.functions ? { functions: this.env.functions } : {}),
    });
  }
  private madeInputs: StepInputs | undefined;
  /** The context after the writes `evaluateSet` last made (pending until read). */
  private setAfter: Pending;
  /**
   * With an owned snapshot, its counters, its scopes' lists and its join records are changed in
   * place, and each change is noted here as what puts it back, so that `undo` can give back the
   * snapshot as it was when the node fails: four entries a change (`Undo`, then three), not an
   * object or a function per change, which a step made several of.
   */
  private readonly undoLog: unknown[] | undefined;
  /** Whether the caller owns the snapshot (see the constructor). */
  private readonly owned: boolean;
  /**
   * With an owned snapshot, what is live across its sub-flows, kept as the step changes it
   * (liveIndex.ts) once a step has needed it; every change to a ready, waits or children list
   * is told to it below. Never kept for a step's own copy, which no later step shares.
   */
  private index: LiveIndex | undefined;
  /** Whether the step's journal entries are made (`EngineEnv.journal`). */
  private readonly journaling: boolean;

  /**
   * `owned`: nobody but the caller holds `snapshot` (runToStop's own steps), so its counters need
   * no copy. Copying them is the one cost of a step that grows with the flow (a counter per
   * node), which a long run of steps would pay again at every node.
   */
  constructor(
    snapshot: Snapshot,
    context: unknown,
    readonly env: EngineEnv,
    owned = false,
    journal: EngineJournalEntry[] = [],
    writes: ContextWrite[] = [],
  ) {
    this.journal = journal;
    this.writes = writes;
    this.snapshot = owned ? shareScopes(snapshot) : copyForStep(snapshot);
    this.undoLog = owned ? [] : undefined;
    this.owned = owned;
    this.journaling = env.journal !== false;
    this.index = owned ? liveIndexOf(this.snapshot.scope) : undefined;
    this.pendingContext = context;
    this.root = this.scopeOf(this.snapshot.scope, '', 0, undefined);
  }

  /**
   * Where the process stands after the step (`statusOf`): from the index where one is kept,
   * rather than a look through the running sub-flows for a ready token.
   */
  status(): EngineStatus {
    const s = this.snapshot;
    if (s.failed || s.done || !this.index) return statusOf(s);
    return this.index.first() ? 'running' : 'waiting';
  }

  /** The next number of the process's sequence; `snapshot` is this step's own copy. */
  private draw(): number {
    const n = this.snapshot.draws ?? 0;
    this.snapshot.draws = n + 1;
    return randomAt(this.snapshot.seed ?? 0, n);
  }

  /** A context, made now if it was left pending. */
  private seen(context: Pending): unknown {
    return context instanceof PendingWrites ? context.made() : context;
  }

  /** Adds one to a counter (visits, passes); what it was before, if it was. */
  private bump(counters: Record<string, number>, key: string): number | undefined {
    const before = counters[key];
    this.undoLog?.push(Undo.Counter, counters, key, before);
    counters[key] = (before ?? 0) + 1;
    return before;
  }

  /** Puts the counters and lists of an owned snapshot back as they were before the step. */
  undo(): void {
    const log = this.undoLog ?? [];
    for (let i = log.length - 4; i >= 0; i -= 4)
      undoOne(log[i] as Undo, log[i + 1], log[i + 2], log[i + 3]);
    log.length = 0;
    // The index was told of the changes just undone: it is made again when next needed.
    if (this.owned) this.dropIndex();
  }

  /** The index of what is live, made now from the snapshot if none is kept (owned only). */
  private liveIndex(): LiveIndex {
    return (this.index ??= indexLive(this.snapshot.scope));
  }

  private dropIndex(): void {
    this.index = undefined;
    dropLiveIndex(this.snapshot.scope);
  }

  // Every change a step makes to a scope's lists or join records goes through these four, so
  // that an owned snapshot's can be undone. A snapshot not owned is this step's copy: nothing
  // to note.

  private append<T>(list: T[], item: T): void {
    list.push(item);
    this.undoLog?.push(Undo.Pop, list, undefined, undefined);
  }

  /** Queues a ready token; the list stays known to be in order while each comes after the last. */
  private queue(scope: Scope, token: Token): void {
    const ready = scope.data.ready;
    const last = ready[ready.length - 1];
    if (last !== undefined && last.seq > token.seq) orderedLists.delete(ready);
    this.append(ready, token);
    if (this.index && !this.index.queued(token, scope)) this.dropIndex();
  }

  private removeAt<T>(list: T[], index: number): void {
    if (index === 0) {
      // The first of a list (the earliest ready token, most steps): `shift`, which V8 does in
      // place, where `splice` moved every item after it; a fan-out's 10,000 ready tokens, each
      // taken from the front, cost a quadratic number of moves.
      const removed = list.shift()!;
      this.undoLog?.push(Undo.Unshift, list, removed, undefined);
      return;
    }
    const removed = list.splice(index, 1)[0];
    this.undoLog?.push(Undo.Insert, list, removed, index);
  }

  private replace<K extends 'ready' | 'waits' | 'joins' | 'ran' | 'children'>(
    data: ScopeSnapshot,
    key: K,
    value: ScopeSnapshot[K],
  ): void {
    const before = data[key];
    data[key] = value;
    this.undoLog?.push(Undo.Replace, data, key, before);
  }

  private decide(record: JoinRecord): void {
    record.decided = true;
    this.undoLog?.push(Undo.Undecide, record, undefined, undefined);
  }

  private scopeOf(
    data: ScopeSnapshot,
    prefix: string,
    depth: number,
    parent: Scope['parent'],
  ): Scope {
    const flow = this.env.flows(data.flow);
    if (!flow)
      throw new NodeFailure(prefix || data.flow, `flow "${data.flow}" is not in the workspace`);
    return {
      data,
      model: flowModel(flow),
      prefix,
      depth,
      parent,
      chain: parent ? undefined : NO_CHAIN,
      // Made now, under this step's lookup, below a parent made or checked under it too.
      checked: this.env.flows,
    };
  }

  /** Every scope, the top level first, then each child under its parent. */
  *scopes(from: Scope = this.root): Generator<Scope> {
    yield from;
    for (const child of from.data.children) {
      yield* this.scopes(
        this.scopeOf(child.scope, `${from.prefix}${child.node}/`, child.depth, {
          scope: from,
          child,
        }),
      );
    }
  }

  /**
   * The scope an index entry names: the scope a step queued its token in, as made then, while
   * each scope up to the top level still runs the flow object it was made with (the steps of
   * one run share one lookup, which is not asked again, but a caller could give another);
   * otherwise, or for an entry of a walk, made again along its chain. A scope made again costs
   * a string and an object per level, at every step of a process nested deep.
   */
  private scopeAt(where: Scope | readonly Child[]): Scope {
    if (isChain(where)) return this.scopeAlong(where);
    const flows = this.env.flows;
    // Checked under this very lookup (the steps of one run share theirs): asked nothing again.
    if (where.checked === flows) return where;
    for (let s: Scope | undefined = where; s; s = s.parent?.scope) {
      if (flows(s.data.flow) !== s.model.flow) return this.scopeAlong(chainOf(where));
    }
    for (let s: Scope | undefined = where; s; s = s.parent?.scope) s.checked = flows;
    return where;
  }

  /** The scope reached from the top level through `chain`, each child under its parent. */
  private scopeAlong(chain: readonly Child[]): Scope {
    let scope = this.root;
    for (const child of chain) {
      scope = this.scopeOf(child.scope, `${scope.prefix}${child.node}/`, child.depth, {
        scope,
        child,
      });
    }
    scope.chain = chain;
    return scope;
  }

  nextSeq(): number {
    return this.snapshot.seq++;
  }

  /** Runs the token that became ready first, anywhere in the process. */
  *runNext(): Steps<boolean> {
    let token: Token | undefined;
    let scope: Scope;
    const index =
      this.index ??
      (this.owned && this.root.data.children.length > 0 ? this.liveIndex() : undefined);
    if (index) {
      // Running sub-flows, in a snapshot the caller owns: the index knows the earliest token.
      const first = index.first();
      if (!first) return false;
      token = first.token;
      scope = this.scopeAt(first.where);
      index.shift();
    } else if (this.root.data.children.length === 0) {
      // A process without running sub-flows (most steps) needs no walk over scopes.
      const ready = this.root.data.ready;
      // Tokens are queued in the order of their numbers, so the first is the earliest; a list
      // not known to be in order (a snapshot written by hand) is looked through.
      if (inOrder(ready)) token = ready[0];
      else for (const t of ready) if (!token || t.seq < token.seq) token = t;
      scope = this.root;
    } else {
      // Walked over the snapshot alone, and a scope made only for the one that holds the token:
      // a process running 10,000 sub-flows made 10,000 scopes at every step.
      const found = earliestReady(this.snapshot.scope);
      if (!found) return false;
      token = found.token;
      scope = this.scopeAlong(found.chain);
    }
    if (!token) return false;
    this.removeAt(scope.data.ready, scope.data.ready.indexOf(token));
    yield* this.execute(scope, token);
    this.checkBranches(scope.prefix + token.node);
    return true;
  }

  /**
   * Fails the node at `path` when the step left more live branches than allowed. Counted after
   * every step, in the engine, so the app and `flow simulate` stop a flow that multiplies its
   * branches alike, and in a moment rather than when memory runs out.
   */
  private checkBranches(path: string): void {
    const limit = this.env.maxLiveBranches ?? MAX_LIVE_BRANCHES;
    const root = this.snapshot.scope;
    // Counted by the index where one is kept, or made (an owned snapshot running sub-flows); a
    // process without sub-flows holds all of it in its own lists.
    const live = this.index
      ? this.index.live
      : root.children.length === 0
        ? root.ready.length + root.waits.length
        : this.owned
          ? this.liveIndex().live
          : liveBranches(root, limit);
    if (live <= limit) return;
    throw new NodeFailure(
      path,
      `the process has more than ${limit.toLocaleString('en')} live branches (nodes ready, waits and running sub-flows); does a flow multiply its branches, such as a sub-flow that calls its own flow, or fan-outs into fan-outs?`,
    );
  }

  private *execute(scope: Scope, token: Token): Steps<void> {
    const info = scope.model.info(token.node);
    const path = scope.prefix + token.node;
    this.env.entering?.(path);
    if (!info)
      throw new NodeFailure(path, `node "${token.node}" is not in flow "${scope.data.flow}"`);
    const node = info.node;
    switch (node.kind) {
      case 'work': {
        const writes = yield* this.evaluateSet(scope, info, path);
        yield* this.complete(scope, token.node, token.gen, writes, undefined, this.setAfter, info);
        return;
      }
      case 'continue-after': {
        const wait: Wait = { node: node.id, gen: token.gen, seq: 0, since: this.env.now };
        const trigger = node.on.find(isCall);
        // The request is made now, against the live context, and recorded in the wait: the
        // supervisor sends it; the engine only stops, as for any wait (docs/format.md#calls).
        if (trigger) wait.call = yield* this.recordCall(scope, trigger, path);
        wait.seq = this.nextSeq();
        this.append(scope.data.waits, wait);
        if (this.index) this.index.live++;
        if (this.journaling)
          this.journal.push({
            type: 'waited',
            node: path,
            gen: token.gen,
            triggers: node.on.map((t) => t.id),
          });
        this.settle(scope, NO_TOKENS);
        return;
      }
      case 'subflow':
        this.startChild(scope, node.id, node.flow, token.gen, path);
        return;
      case 'end':
        if (node.terminate === true) {
          this.count(scope, info, node.id, token.gen, path);
          yield* this.finishScope(scope);
          return;
        }
        yield* this.complete(scope, token.node, token.gen, [], undefined, undefined, info);
        return;
      default:
        yield* this.complete(scope, token.node, token.gen, [], undefined, undefined, info);
    }
  }

  /** The request of a call trigger, its expressions evaluated in the order callExpressions lists. */
  private *recordCall(
    scope: Scope,
    trigger: Trigger & { call: Call },
    path: string,
  ): Steps<RecordedCall> {
    const owner = scope.model.flow;
    const view = this.context;
    const values: unknown[] = [];
    for (const { field, text } of callExpressions(trigger.call)) {
      const result = (yield evaluate(owner, text, view, this.inputs, CALL_BINDINGS)) as Evaluation;
      if (!result.ok)
        throw new NodeFailure(path, `trigger "${trigger.id}" ${field}: ${result.error}`);
      values.push(result.value);
    }
    const recorded = recordCall(trigger, values);
    if (!recorded.ok) throw new NodeFailure(path, recorded.error);
    return recorded.call;
  }

  private *evaluateSet(scope: Scope, info: NodeInfo, path: string): Steps<ContextWrite[]> {
    const writes: ContextWrite[] = [];
    let view = this.context;
    // Each expression sees the writes before it; the live context gets them all at once. The
    // context after the last write is made only if something reads it (`complete`): a copy of
    // the context per step is what the step costs when the context is large.
    let stale = false;
    const owner = scope.model.flow;
    const list = info.set;
    // Indexed, not for-of: see `complete`. Nor a destructuring of the pair, which took an
    // iterator.
    for (let i = 0; i < list.length; i++) {
      const entry = list[i]!;
      const target = entry[0];
      const expr = entry[1];
      if (stale) view = applyWrites(view, writes.slice(-1));
      // valueOf, written out: a generator per expression cost more than the shortcut's answer.
      const result =
        evaluateNow(owner, expr, view) ??
        ((yield evaluate(owner, expr, view, this.inputs)) as Evaluation);
      if (!result.ok) throw new NodeFailure(path, `set "${target}": ${result.error}`);
      const json = jsonOf(result.value);
      if (!json.ok) throw new NodeFailure(path, `set "${target}": ${json.error}`);
      const write: ContextWrite =
        json.value === undefined ? { path: target } : { path: target, value: json.value };
      writes.push(write);
      stale = true;
    }
    // The context after them, for `complete`: a field, not an object made per step to hold it.
    this.setAfter = stale ? applyingLast(view, writes) : view;
    return writes;
  }

  private startChild(
    scope: Scope,
    nodeId: string,
    flowId: string,
    gen: Generation,
    path: string,
  ): void {
    const depth = scope.depth + 1;
    if (depth > MAX_DEPTH) {
      throw new NodeFailure(
        path,
        `sub-flows nest ${depth} deep here; at most ${MAX_DEPTH} are allowed (does a flow call itself?)`,
      );
    }
    const flow = this.env.flows(flowId);
    if (!flow) throw new NodeFailure(path, `calls flow "${flowId}", which is not in the workspace`);
    const model = flowModel(flow);
    const start = flow.nodes.find((n) => n.kind === 'start');
    if (!start) throw new NodeFailure(path, `flow "${flowId}" has no start node`);
    const child: Child = {
      node: nodeId,
      gen,
      depth,
      scope: {
        flow: flowId,
        signature: model.signature,
        ready: [],
        waits: [],
        joins: [],
        ran: [],
        children: [],
      },
    };
    const token: Token = {
      node: start.id,
      gen: model.heads(start.id).map(() => 0),
      seq: this.nextSeq(),
    };
    child.scope.ready.push(token);
    this.append(scope.data.children, child);
    const index = this.index;
    if (index) {
      index.live++;
      const inChild: Scope = {
        data: child.scope,
        model,
        prefix: `${path}/`,
        depth,
        parent: { scope, child },
        chain: undefined,
        checked: this.env.flows,
      };
      if (!index.queued(token, inChild)) this.dropIndex();
    }
    this.settle(scope, NO_TOKENS);
  }

  /**
   * A node completed: its writes reach the context, its edges are taken in order, and the joins
   * this settles become ready before the edges' targets (docs/format.md#running-a-node).
   */
  *complete(
    scope: Scope,
    nodeId: string,
    gen: Generation,
    writes: ContextWrite[],
    firedTrigger: string | undefined,
    /** The context with `writes` applied, when the caller has it already. */
    applied?: unknown,
    /** The node's info, when the caller has it already. */
    info: NodeInfo | undefined = scope.model.info(nodeId),
  ): Steps<void> {
    const path = scope.prefix + nodeId;
    const after: Pending =
      applied !== undefined
        ? applied
        : writes.length > 0
          ? applyingLast(this.context, writes, writes.length)
          : this.context;
    const edges = info?.edges ?? NO_EDGES;
    const heads = info?.heads ?? NO_HEADS;
    // Edges into joins wait at them (`reached`); the others arrive, as the tokens they become
    // (numbered when queued, after the joins they settle). Most steps take no edge into a join,
    // and then no list is made for them.
    const arrivals: Token[] = [];
    let reached: LiveItem[] | undefined;
    // Indexed, not for-of: an iterator held across the loop's yield is an object per step.
    for (let i = 0; i < edges.length; i++) {
      const out: EdgeInfo = edges[i]!;
      const edge = out.edge;
      if (edge.trigger !== undefined && edge.trigger !== firedTrigger) continue;
      if (edge.when !== undefined) {
        // conditionOf, written out (see evaluateSet).
        const input = this.seen(after);
        const result =
          conditionNow(scope.model.flow, edge.when, input) ??
          ((yield evaluateCondition(scope.model.flow, edge.when, input, this.inputs)) as Condition);
        if (!result.ok) throw new NodeFailure(path, `edge "${edge.id}" condition: ${result.error}`);
        if (!result.value) continue;
      }
      if (out.closing) this.bump(this.snapshot.passes, scope.prefix + edge.to);
      const target: Token = { node: edge.to, gen: generationAlong(heads, out, gen), seq: 0 };
      if (out.to.barrier) (reached ??= []).push(target);
      else arrivals.push(target);
    }
    this.took(scope, info, nodeId, gen, path, writes, after, arrivals, reached);
    if (this.isIdle(scope)) yield* this.finishScope(scope);
  }

  /**
   * The rest of `complete`, once its edges are chosen: nothing here awaits, so it is a plain
   * method, whose locals are not kept in a generator's frame.
   */
  private took(
    scope: Scope,
    info: NodeInfo | undefined,
    nodeId: string,
    gen: Generation,
    path: string,
    writes: ContextWrite[],
    after: Pending,
    arrivals: Token[],
    reached: LiveItem[] | undefined,
  ): void {
    this.pendingContext = after;
    for (let i = 0; i < writes.length; i++) this.writes.push(writes[i]!);
    if (writes.length > 0 && this.journaling)
      this.journal.push({ type: 'context-written', node: path, writes });
    this.count(scope, info, nodeId, gen, path);
    // A join reached in a generation with no record yet gets one, in the order of the edges.
    if (reached !== undefined) {
      for (let i = 0; i < reached.length; i++) {
        const target = reached[i]!;
        if (!hasJoin(scope.data.joins, target))
          this.append(scope.data.joins, { node: target.node, gen: target.gen, decided: false });
      }
    }
    this.settle(scope, arrivals);
  }

  /** Counts a completion: visits, and the facts the joins naming the node will ask for. */
  private count(
    scope: Scope,
    info: NodeInfo | undefined,
    nodeId: string,
    gen: Generation,
    /** `scope.prefix + nodeId`, as the caller made it: a key made again is looked up again. */
    path: string,
  ): void {
    // A node never counted before has no fact yet (facts are made here only): its facts need no
    // search through the others, which a join naming 10,000 branches made a step's largest cost.
    const first = this.bump(this.snapshot.visits, path) === undefined;
    if (this.journaling) this.journal.push({ type: 'ran', node: path, gen });
    const joins = info?.joins ?? NO_HEADS;
    // Indexed, not for-of: no iterator per completion.
    for (let j = 0; j < joins.length; j++) {
      const join = joins[j]!;
      // The generation itself where the join shares all its heads (a value: never changed).
      const shared = sharedHeads(scope.model, nodeId, join);
      const key = shared === gen.length ? gen : gen.slice(0, shared);
      const known =
        !first &&
        scope.data.ran.some(
          (f) =>
            f.join === join &&
            f.node === nodeId &&
            f.gen.length === key.length &&
            samePasses(f.gen, key, key.length),
        );
      if (!known) this.append(scope.data.ran, { join, node: nodeId, gen: key });
    }
  }

  /**
   * Decides every join whose named nodes are all settled, then queues the joins that run ahead of
   * `arrivals`. Skipping a join can settle another, so this repeats until nothing changes.
   */
  settle(scope: Scope, arrivals: readonly Token[]): void {
    if (scope.data.joins.length === 0) {
      // Nothing to decide (most steps): the arrivals are queued, with no list made for joins.
      for (let i = 0; i < arrivals.length; i++) this.queueNew(scope, arrivals[i]!);
      this.collect(scope);
      return;
    }
    const model = scope.model;
    let joinTokens: Token[] | undefined;
    let changed = true;
    while (changed) {
      changed = false;
      for (const record of scope.data.joins) {
        if (record.decided) continue;
        // Settled when no live item of the join's generation could reach any named node: one
        // look-up per live item in the union of the named nodes' reachers, not one per pair.
        const settled = !this.liveReaching(
          scope,
          arrivals,
          joinTokens ?? NO_TOKENS,
          record,
          model.reachersOfDepends(record.node),
          record.gen,
          record.node,
        );
        if (!settled) continue;
        // A ran fact is kept per named node, so one pass over the facts answers for all of them.
        const named = model.dependsOf(record.node);
        const ran = scope.data.ran.some((f) => {
          if (f.join !== record.node || !named.has(f.node)) return false;
          const length = sharedHeads(model, f.node, record.node);
          return f.gen.length === length && samePasses(f.gen, record.gen, length);
        });
        this.decide(record);
        const full = model.heads(record.node).length;
        this.replace(
          scope.data,
          'ran',
          scope.data.ran.filter(
            (f) =>
              !(
                f.join === record.node &&
                f.gen.length === full &&
                samePasses(f.gen, record.gen, full)
              ),
          ),
        );
        if (ran) (joinTokens ??= []).push({ node: record.node, gen: record.gen, seq: 0 });
        else if (this.journaling)
          this.journal.push({ type: 'skipped', node: scope.prefix + record.node, gen: record.gen });
        changed = true;
      }
    }
    if (joinTokens)
      for (let i = 0; i < joinTokens.length; i++) this.queueNew(scope, joinTokens[i]!);
    for (let i = 0; i < arrivals.length; i++) this.queueNew(scope, arrivals[i]!);
    this.collect(scope);
  }

  /**
   * Numbers a token this step made and queues it: made unnumbered, so that the joins an arrival
   * settles take their numbers first, and numbered before anything else sees it.
   */
  private queueNew(scope: Scope, token: Token): void {
    token.seq = this.nextSeq();
    this.queue(scope, token);
  }

  /**
   * Whether anything running, ready, asleep or waiting at a join in a scope (docs/format.md's
   * settled rule), or about to be ready (`pending`, `more`), stands in `reachers` in the
   * generation `gen`, compared on the heads it shares with `target` (at most `cap` of them).
   * Walked in place, and with no function made per question: a step must not copy every live
   * item to ask whether one of them matters, and asks this at every completion near a join.
   */
  private liveReaching(
    scope: Scope,
    pending: readonly LiveItem[],
    more: readonly LiveItem[],
    except: object | undefined,
    reachers: ReadonlySet<string>,
    gen: Generation,
    target: string,
    cap = Infinity,
  ): boolean {
    const d = scope.data;
    const model = scope.model;
    return (
      reaching(d.ready, reachers, gen, model, target, cap) ||
      reaching(pending, reachers, gen, model, target, cap) ||
      reaching(more, reachers, gen, model, target, cap) ||
      reaching(d.waits, reachers, gen, model, target, cap) ||
      reaching(d.children, reachers, gen, model, target, cap) ||
      reachingJoin(d.joins, except, reachers, gen, model, target, cap)
    );
  }

  /** Drops decided joins and ran facts that nothing live could still need (snapshot stays small). */
  private collect(scope: Scope): void {
    if (scope.data.joins.length === 0 && scope.data.ran.length === 0) return;
    const model = scope.model;
    const d = scope.data;
    // A decided join is kept while something live could still arrive in its generation; most
    // steps have none decided, and look at no live item for them.
    if (d.joins.some(isDecided)) {
      const joins = d.joins.filter(
        (record) =>
          !record.decided ||
          this.liveReaching(
            scope,
            NONE,
            NONE,
            undefined,
            model.reachersAvoidingPasses(record.node, record.node),
            record.gen,
            record.node,
          ),
      );
      if (joins.length !== d.joins.length) this.replace(d, 'joins', joins);
    }
    // Whether a fact is still needed depends on its join and generation only, and the facts of
    // one join and generation (one per named node that ran) lie side by side: one look at what
    // is live answers for the run of them. Nearly every step drops none, which the first fact
    // of each run (groupHeads) tells at a cost that follows the runs, not the facts (a join
    // naming 10,000 branches holds a fact per branch that ran); only then are the facts walked.
    const facts = d.ran;
    let dropsSome = false;
    for (const head of groupHeads(facts)) {
      if (!this.factNeeded(scope, head)) {
        dropsSome = true;
        break;
      }
    }
    if (!dropsSome) return;
    let last: RanFact | undefined;
    let keep = true;
    let kept: RanFact[] | undefined;
    for (let i = 0; i < facts.length; i++) {
      const fact = facts[i]!;
      if (last === undefined || !sameGroup(last, fact)) {
        last = fact;
        keep = this.factNeeded(scope, fact);
      }
      if (!keep && kept === undefined) kept = facts.slice(0, i);
      else if (keep && kept !== undefined) kept.push(fact);
    }
    if (kept !== undefined) this.replace(d, 'ran', kept);
  }

  /** Whether anything live in the scope could still reach the fact's join in its generation. */
  private factNeeded(scope: Scope, fact: RanFact): boolean {
    return this.liveReaching(
      scope,
      NONE,
      NONE,
      undefined,
      scope.model.reachers(fact.join),
      fact.gen,
      fact.join,
      fact.gen.length,
    );
  }

  private isIdle(scope: Scope): boolean {
    const d = scope.data;
    return (
      d.ready.length === 0 &&
      d.waits.length === 0 &&
      d.children.length === 0 &&
      d.joins.every((j) => j.decided)
    );
  }

  /** Ends a scope at once (its end, or `terminate`): drops what is left and completes upward. */
  private *finishScope(scope: Scope): Steps<void> {
    const d = scope.data;
    // Ended with something still live in it (`terminate`): what it drops, sub-flows and all,
    // is not told to the index one by one; it is made again when next needed.
    if (this.index && d.ready.length + d.waits.length + d.children.length > 0) this.dropIndex();
    for (const key of SCOPE_LISTS) this.replace(scope.data, key, []);
    if (!scope.parent) {
      if (!this.snapshot.done) {
        this.snapshot.done = true;
        if (this.journaling) this.journal.push({ type: 'done' });
      }
      return;
    }
    const { scope: parent, child } = scope.parent;
    this.removeAt(parent.data.children, parent.data.children.indexOf(child));
    if (this.index) this.index.live--;
    yield* this.complete(parent, child.node, child.gen, [], undefined);
  }

  /** Wakes the wait with sequence `seq`: its trigger fired, with an optional payload. */
  *fire(seq: number, triggerId: string, payload: unknown): Steps<void> {
    const scopes = this.root.data.children.length === 0 ? [this.root] : this.scopes();
    for (const scope of scopes) {
      // A list out of order (a snapshot written by hand) is looked through.
      let at = waitIndex(scope.data.waits, seq);
      if (at < 0) at = scope.data.waits.findIndex((w) => w.seq === seq);
      if (at < 0) continue;
      const wait = scope.data.waits[at]!;
      const node = scope.model.node(wait.node);
      const path = scope.prefix + wait.node;
      this.env.entering?.(path);
      const trigger =
        node?.kind === 'continue-after' ? node.on.find((t) => t.id === triggerId) : undefined;
      if (!trigger) throw new NodeFailure(path, `"${path}" has no trigger "${triggerId}"`);
      this.removeAt(scope.data.waits, at);
      if (this.index) this.index.live--;
      if (this.journaling)
        this.journal.push({ type: 'woke', node: path, gen: wait.gen, trigger: triggerId });
      const writes: ContextWrite[] = [];
      if (trigger.into !== undefined) {
        const json = toJsonValue(payload);
        if (!json.ok)
          throw new NodeFailure(path, `trigger "${triggerId}": the payload ${json.error}`);
        writes.push(
          json.value === undefined
            ? { path: trigger.into }
            : { path: trigger.into, value: json.value },
        );
      }
      yield* this.complete(scope, wait.node, wait.gen, writes, triggerId);
      this.checkBranches(path);
      return;
    }
    throw new NodeFailure('', `no wait ${seq} in this process`);
  }
}

/**
 * The token ready first anywhere under `scope`, and the children leading to its scope; none when
 * nothing is ready.
 */
function earliestReady(scope: ScopeSnapshot): { token: Token; chain: Child[] } | undefined {
  let best: Token | undefined;
  let bestChain: Child[] = [];
  const chain: Child[] = [];
  const walk = (data: ScopeSnapshot): void => {
    for (const t of data.ready) {
      if (!best || t.seq < best.seq) {
        best = t;
        bestChain = chain.slice();
      }
    }
    for (const child of data.children) {
      chain.push(child);
      walk(child.scope);
      chain.pop();
    }
  };
  walk(scope);
  return best ? { token: best, chain: bestChain } : undefined;
}

/**
 * What puts a change of an owned snapshot back (`Run.undo`), each with its three operands:
 * numbers, so that a log entry is four plain values.
 */
const Undo = {
  /** A counter (counters, key, what it was: undefined if absent). */
  Counter: 0,
  /** An item appended (list). */
  Pop: 1,
  /** The first item removed (list, item). */
  Unshift: 2,
  /** An item removed elsewhere (list, item, index). */
  Insert: 3,
  /** A scope's list replaced (data, key, the list before). */
  Replace: 4,
  /** A join decided (record). */
  Undecide: 5,
} as const;
type Undo = (typeof Undo)[keyof typeof Undo];

function undoOne(op: Undo, a: unknown, b: unknown, c: unknown): void {
  switch (op) {
    case Undo.Counter: {
      const counters = a as Record<string, number>;
      if (c === undefined) delete counters[b as string];
      else counters[b as string] = c as number;
      return;
    }
    case Undo.Pop:
      (a as unknown[]).pop();
      // A list shortened and grown again may keep its length: what is known of it goes.
      factGroups.delete(a as unknown[]);
      return;
    case Undo.Unshift:
      (a as unknown[]).unshift(b);
      return;
    case Undo.Insert:
      (a as unknown[]).splice(c as number, 0, b);
      return;
    case Undo.Replace:
      (a as Record<string, unknown>)[b as string] = c;
      return;
    case Undo.Undecide:
      (a as JoinRecord).decided = false;
  }
}

/** The chain of the top-level scope: no children. */
const NO_CHAIN: readonly Child[] = Object.freeze([]);

const isChain = (where: Scope | readonly Child[]): where is readonly Child[] =>
  Array.isArray(where);

/** The children from the top level down to `scope`, made once per scope object. */
function chainOf(scope: Scope): readonly Child[] {
  if (scope.chain !== undefined) return scope.chain;
  const parent = scope.parent!;
  return (scope.chain = [...chainOf(parent.scope), parent.child]);
}

/** A scope's lists, which ending a scope empties. */
const SCOPE_LISTS = ['ready', 'waits', 'joins', 'ran', 'children'] as const;

/**
 * Ready lists known to be in the order of their tokens' numbers. A list is looked through once
 * (one copied for a step, one read from the store); taking tokens out keeps the order, and
 * `queue` forgets a list a token would put out of order.
 */
const orderedLists = new WeakSet<readonly Token[]>();

function inOrder(ready: readonly Token[]): boolean {
  if (orderedLists.has(ready)) return true;
  for (let i = 1; i < ready.length; i++) if (ready[i - 1]!.seq > ready[i]!.seq) return false;
  orderedLists.add(ready);
  return true;
}

/**
 * The first fact of each run of facts of one join and generation, per list of facts, as far as
 * the list has been looked at: facts are only ever appended to a list (a list filtered is a new
 * one, and an append undone forgets what is known of its list), so a longer list is looked at
 * from where it was left.
 */
const factGroups = new WeakMap<readonly unknown[], { length: number; heads: RanFact[] }>();

function groupHeads(facts: readonly RanFact[]): readonly RanFact[] {
  let known = factGroups.get(facts);
  if (!known || known.length > facts.length)
    factGroups.set(facts, (known = { length: 0, heads: [] }));
  for (let i = known.length; i < facts.length; i++) {
    const fact = facts[i]!;
    if (i === 0 || !sameGroup(facts[i - 1]!, fact)) known.heads.push(fact);
  }
  known.length = facts.length;
  return known.heads;
}

/** Facts of one join and generation: what is live answers for all of them alike (`collect`). */
function sameGroup(a: RanFact, b: RanFact): boolean {
  return (
    a.join === b.join &&
    (a.gen === b.gen || (a.gen.length === b.gen.length && samePasses(a.gen, b.gen, b.gen.length)))
  );
}

/**
 * Whether something live at `node` in generation `at` stands in `reachers` in the generation
 * `gen`, compared on the heads `node` shares with `target`, at most `cap` (`Run.liveReaching`).
 */
function reaches(
  node: string,
  at: Generation,
  reachers: ReadonlySet<string>,
  gen: Generation,
  model: FlowModel,
  target: string,
  cap: number,
): boolean {
  if (!reachers.has(node)) return false;
  // Without loops every generation is empty: the same in all of them.
  return !model.loops || samePasses(at, gen, Math.min(cap, sharedHeads(model, node, target)));
}

/** `reaches` for any of `items` (a loop rather than `some`: no closure per question). */
function reaching(
  items: readonly LiveItem[],
  reachers: ReadonlySet<string>,
  gen: Generation,
  model: FlowModel,
  target: string,
  cap: number,
): boolean {
  for (let i = 0; i < items.length; i++) {
    const x = items[i]!;
    if (reaches(x.node, x.gen, reachers, gen, model, target, cap)) return true;
  }
  return false;
}

/** `reaching` over the undecided join records but `except`. */
function reachingJoin(
  joins: readonly JoinRecord[],
  except: object | undefined,
  reachers: ReadonlySet<string>,
  gen: Generation,
  model: FlowModel,
  target: string,
  cap: number,
): boolean {
  for (let i = 0; i < joins.length; i++) {
    const j = joins[i]!;
    if (!j.decided && j !== except && reaches(j.node, j.gen, reachers, gen, model, target, cap))
      return true;
  }
  return false;
}

const isDecided = (j: JoinRecord) => j.decided;

/** Whether a join record for the node stands in the generation (no closure per arrival). */
function hasJoin(joins: readonly JoinRecord[], target: LiveItem): boolean {
  for (const j of joins)
    if (j.node === target.node && samePasses(j.gen, target.gen, j.gen.length)) return true;
  return false;
}

/**
 * Nodes ready, waits and running sub-flows in a scope and its sub-flows (a running sub-flow is a
 * branch too, and the largest part of a snapshot); stops counting once past `limit`.
 */
function liveBranches(scope: ScopeSnapshot, limit: number): number {
  let live = scope.ready.length + scope.waits.length + scope.children.length;
  for (const c of scope.children) {
    if (live > limit) break;
    live += liveBranches(c.scope, limit - live);
  }
  return live;
}

/**
 * One instance of each class a step makes, kept for as long as the engine is loaded. V8 holds
 * the hidden class (map) an instance's fields give it only while some instance has it: a full
 * collection between two runs (a process idle between wakes, or the benchmark's collection
 * before each slice) frees it, and every optimized function of the step, which checks for it,
 * is thrown away and compiled again, the next runs paying 5–10× meanwhile. See docs/engine.md.
 */
export const keptShapes: object[] = [];

/** The smallest process: a flow with no nodes, so that a `Run` of it can be made at load. */
const idleFlow: Flow = { format: 'flow/1', id: '', nodes: [], edges: [] };
const idleSnapshot: Snapshot = {
  format: 'snapshot/1',
  seq: 1,
  visits: {},
  passes: {},
  scope: { flow: '', signature: '', ready: [], waits: [], joins: [], ran: [], children: [] },
};
const idleEnv: EngineEnv = { flows: () => idleFlow, now: 0 };
keptShapes.push(
  new PendingWrites(undefined, [], 0),
  new Run(idleSnapshot, undefined, idleEnv),
  new Run(idleSnapshot, undefined, idleEnv, true),
);
