import { applyWrites, toJsonValue, type ContextWrite } from '../../shared/contextWrite.ts';
import type { Flow, FlowNode } from '../../shared/schema.ts';
import { evaluate, evaluateCondition } from '../expr/evaluate.ts';
import { flowModel, type FlowModel } from './flowModel.ts';
import { generationAfter, samePasses, sharedHeads } from './generation.ts';
import type { EngineJournalEntry } from './journal.ts';
import type { Child, Generation, ScopeSnapshot, Snapshot, Token } from './snapshot.ts';

/** Sub-flows nest this deep at most; a sub-flow node at depth 16 fails (FORMAT.md §1). */
export const MAX_DEPTH = 16;

/** What the engine needs besides the snapshot: flows by id, and the time, passed in. */
export interface EngineEnv {
  flows: (id: string) => Flow | undefined;
  /** Milliseconds since the epoch; stamped on new waits so the supervisor can time them. */
  now: number;
  /**
   * Told of each node a step enters, before any of its expressions run, so that a runner that
   * has to stop a runaway expression from outside (the app ends its worker) can name the node.
   */
  entering?: (path: string) => void;
}

/** A running flow inside a step: its snapshot part with what is known of it. */
export interface Scope {
  data: ScopeSnapshot;
  model: FlowModel;
  prefix: string;
  depth: number;
  /** The scope and child entry this one runs under; absent for the top level. */
  parent?: { scope: Scope; child: Child };
}

/** Why a step could not complete its node; nothing of the step is kept. */
export class NodeFailure extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(message);
  }
}

const isBarrier = (n: FlowNode | undefined) => (n?.depends?.length ?? 0) > 0;

/**
 * The mutable state of one step. It works on a copy of the snapshot; the step's caller keeps it
 * only if the step completes, which is what makes a failed node write nothing.
 */
export class Run {
  readonly snapshot: Snapshot;
  readonly root: Scope;
  readonly journal: EngineJournalEntry[] = [];
  readonly writes: ContextWrite[] = [];
  /** The context as this step sees it: the live one with the step's own writes applied. */
  context: unknown;

  constructor(
    snapshot: Snapshot,
    context: unknown,
    readonly env: EngineEnv,
  ) {
    this.snapshot = structuredClone(snapshot);
    this.context = context;
    this.root = this.scopeOf(this.snapshot.scope, '', 0, undefined);
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
    return { data, model: flowModel(flow), prefix, depth, parent };
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

  nextSeq(): number {
    return this.snapshot.seq++;
  }

  /** Runs the token that became ready first, anywhere in the process. */
  async runNext(): Promise<boolean> {
    let best: { scope: Scope; token: Token } | undefined;
    for (const scope of this.scopes()) {
      for (const token of scope.data.ready) {
        if (!best || token.seq < best.token.seq) best = { scope, token };
      }
    }
    if (!best) return false;
    const { scope, token } = best;
    scope.data.ready.splice(scope.data.ready.indexOf(token), 1);
    await this.execute(scope, token);
    return true;
  }

  private async execute(scope: Scope, token: Token): Promise<void> {
    const node = scope.model.node(token.node);
    const path = scope.prefix + token.node;
    this.env.entering?.(path);
    if (!node)
      throw new NodeFailure(path, `node "${token.node}" is not in flow "${scope.data.flow}"`);
    switch (node.kind) {
      case 'work': {
        const writes = await this.evaluateSet(scope, node, path);
        await this.complete(scope, token.node, token.gen, writes, undefined);
        return;
      }
      case 'continue-after':
        scope.data.waits.push({
          node: node.id,
          gen: token.gen,
          seq: this.nextSeq(),
          since: this.env.now,
        });
        this.journal.push({
          type: 'waited',
          node: path,
          gen: token.gen,
          triggers: node.on.map((t) => t.id),
        });
        this.settle(scope, []);
        return;
      case 'subflow':
        this.startChild(scope, node.id, node.flow, token.gen, path);
        return;
      case 'end':
        if (node.terminate === true) {
          this.count(scope, node.id, token.gen);
          await this.finishScope(scope);
          return;
        }
        await this.complete(scope, token.node, token.gen, [], undefined);
        return;
      default:
        await this.complete(scope, token.node, token.gen, [], undefined);
    }
  }

  private async evaluateSet(scope: Scope, node: Extract<FlowNode, { kind: 'work' }>, path: string) {
    const writes: ContextWrite[] = [];
    let view = this.context;
    // Each expression sees the writes before it; the live context gets them all at once.
    for (const [target, expr] of Object.entries(node.set ?? {})) {
      const result = await evaluate(scope.model.flow, expr, view);
      if (!result.ok) throw new NodeFailure(path, `set "${target}": ${result.error}`);
      const json = toJsonValue(result.value);
      if (!json.ok) throw new NodeFailure(path, `set "${target}": ${json.error}`);
      const write: ContextWrite =
        json.value === undefined ? { path: target } : { path: target, value: json.value };
      view = applyWrites(view, [write]);
      writes.push(write);
    }
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
    child.scope.ready.push({
      node: start.id,
      gen: model.heads(start.id).map(() => 0),
      seq: this.nextSeq(),
    });
    scope.data.children.push(child);
    this.settle(scope, []);
  }

  /**
   * A node completed: its writes reach the context, its edges are taken in order, and the joins
   * this settles become ready before the edges' targets (FORMAT.md, Running a node).
   */
  async complete(
    scope: Scope,
    nodeId: string,
    gen: Generation,
    writes: ContextWrite[],
    firedTrigger: string | undefined,
  ): Promise<void> {
    const path = scope.prefix + nodeId;
    const after = writes.length > 0 ? applyWrites(this.context, writes) : this.context;
    const taken: { node: string; gen: Generation }[] = [];
    for (const edge of scope.model.edgesFrom(nodeId)) {
      if (edge.trigger !== undefined && edge.trigger !== firedTrigger) continue;
      if (edge.when !== undefined) {
        const result = await evaluateCondition(scope.model.flow, edge.when, after);
        if (!result.ok) throw new NodeFailure(path, `edge "${edge.id}" condition: ${result.error}`);
        if (!result.value) continue;
      }
      if (scope.model.isClosing(edge.id)) {
        const head = scope.prefix + edge.to;
        this.snapshot.passes[head] = (this.snapshot.passes[head] ?? 0) + 1;
      }
      taken.push({ node: edge.to, gen: generationAfter(scope.model, edge, gen) });
    }
    this.context = after;
    this.writes.push(...writes);
    if (writes.length > 0) this.journal.push({ type: 'context-written', node: path, writes });
    this.count(scope, nodeId, gen);

    const arrivals: { node: string; gen: Generation }[] = [];
    for (const target of taken) {
      if (!isBarrier(scope.model.node(target.node))) {
        arrivals.push(target);
        continue;
      }
      const known = scope.data.joins.some(
        (j) => j.node === target.node && samePasses(j.gen, target.gen, j.gen.length),
      );
      if (!known) scope.data.joins.push({ node: target.node, gen: target.gen, decided: false });
    }
    this.settle(scope, arrivals);
    await this.finishIfIdle(scope);
  }

  /** Counts a completion: visits, and the facts the joins naming the node will ask for. */
  private count(scope: Scope, nodeId: string, gen: Generation): void {
    const path = scope.prefix + nodeId;
    this.snapshot.visits[path] = (this.snapshot.visits[path] ?? 0) + 1;
    this.journal.push({ type: 'ran', node: path, gen });
    for (const join of scope.model.joinsNaming(nodeId)) {
      const key = gen.slice(0, sharedHeads(scope.model, nodeId, join));
      const known = scope.data.ran.some(
        (f) =>
          f.join === join &&
          f.node === nodeId &&
          f.gen.length === key.length &&
          samePasses(f.gen, key, key.length),
      );
      if (!known) scope.data.ran.push({ join, node: nodeId, gen: key });
    }
  }

  /**
   * Decides every join whose named nodes are all settled, then queues the joins that run ahead of
   * `arrivals`. Skipping a join can settle another, so this repeats until nothing changes.
   */
  settle(scope: Scope, arrivals: { node: string; gen: Generation }[]): void {
    const model = scope.model;
    const joinTokens: { node: string; gen: Generation }[] = [];
    let changed = true;
    while (changed) {
      changed = false;
      for (const record of scope.data.joins) {
        if (record.decided) continue;
        const live = this.liveItems(scope, [...arrivals, ...joinTokens], record);
        const depends = model.node(record.node)?.depends ?? [];
        const settled = depends.every((named) => {
          const shared = (at: string) => sharedHeads(model, at, record.node);
          const reachers = model.reachersAvoidingPasses(record.node, named);
          return !live.some(
            (x) => reachers.has(x.node) && samePasses(x.gen, record.gen, shared(x.node)),
          );
        });
        if (!settled) continue;
        const ran = depends.some((named) => {
          const length = sharedHeads(model, named, record.node);
          return scope.data.ran.some(
            (f) =>
              f.join === record.node &&
              f.node === named &&
              samePasses(f.gen, record.gen, length) &&
              f.gen.length === length,
          );
        });
        record.decided = true;
        const full = model.heads(record.node).length;
        scope.data.ran = scope.data.ran.filter(
          (f) =>
            !(
              f.join === record.node &&
              f.gen.length === full &&
              samePasses(f.gen, record.gen, full)
            ),
        );
        if (ran) joinTokens.push({ node: record.node, gen: record.gen });
        else
          this.journal.push({ type: 'skipped', node: scope.prefix + record.node, gen: record.gen });
        changed = true;
      }
    }
    for (const t of [...joinTokens, ...arrivals])
      scope.data.ready.push({ ...t, seq: this.nextSeq() });
    this.collect(scope);
  }

  /** What is running, ready, asleep or waiting at a join in a scope (FORMAT.md's settled rule). */
  private liveItems(scope: Scope, pending: { node: string; gen: Generation }[], except?: object) {
    const d = scope.data;
    return [
      ...d.ready,
      ...pending,
      ...d.waits,
      ...d.children,
      ...d.joins.filter((j) => !j.decided && j !== except),
    ];
  }

  /** Drops decided joins and ran facts that nothing live could still need (snapshot stays small). */
  private collect(scope: Scope): void {
    const model = scope.model;
    const live = this.liveItems(scope, []);
    const d = scope.data;
    d.joins = d.joins.filter((record) => {
      if (!record.decided) return true;
      const reachers = model.reachersAvoidingPasses(record.node, record.node);
      return live.some(
        (x) =>
          reachers.has(x.node) &&
          samePasses(x.gen, record.gen, sharedHeads(model, x.node, record.node)),
      );
    });
    d.ran = d.ran.filter((fact) => {
      const reachers = model.reachers(fact.join);
      return live.some(
        (x) =>
          reachers.has(x.node) &&
          samePasses(
            x.gen,
            fact.gen,
            Math.min(fact.gen.length, sharedHeads(model, x.node, fact.join)),
          ),
      );
    });
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

  /** A sub-flow with nothing left completes its sub-flow node; the top level finishes the process. */
  private async finishIfIdle(scope: Scope): Promise<void> {
    if (this.isIdle(scope)) await this.finishScope(scope);
  }

  /** Ends a scope at once (its end, or `terminate`): drops what is left and completes upward. */
  private async finishScope(scope: Scope): Promise<void> {
    Object.assign(scope.data, { ready: [], waits: [], joins: [], ran: [], children: [] });
    if (!scope.parent) {
      if (!this.snapshot.done) {
        this.snapshot.done = true;
        this.journal.push({ type: 'done' });
      }
      return;
    }
    const { scope: parent, child } = scope.parent;
    parent.data.children.splice(parent.data.children.indexOf(child), 1);
    await this.complete(parent, child.node, child.gen, [], undefined);
  }

  /** Wakes the wait with sequence `seq`: its trigger fired, with an optional payload. */
  async fire(seq: number, triggerId: string, payload: unknown): Promise<void> {
    for (const scope of this.scopes()) {
      const wait = scope.data.waits.find((w) => w.seq === seq);
      if (!wait) continue;
      const node = scope.model.node(wait.node);
      const path = scope.prefix + wait.node;
      this.env.entering?.(path);
      const trigger =
        node?.kind === 'continue-after' ? node.on.find((t) => t.id === triggerId) : undefined;
      if (!trigger) throw new NodeFailure(path, `"${path}" has no trigger "${triggerId}"`);
      scope.data.waits.splice(scope.data.waits.indexOf(wait), 1);
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
      await this.complete(scope, wait.node, wait.gen, writes, triggerId);
      return;
    }
    throw new NodeFailure('', `no wait ${seq} in this process`);
  }
}
