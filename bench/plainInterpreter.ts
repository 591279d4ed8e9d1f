import jsonata from 'jsonata';
import { addDuration, parseDuration } from '../shared/duration.ts';
import type { Flow, FlowNode } from '../shared/schema.ts';
import type { SimulateReportLike } from './simulateCases.ts';

/**
 * The peer of `flow simulate` (issue 29.6): what a reader of the engine could write in a day to
 * run the bench's scenarios, with nothing durable. A tree-walk over the flow's nodes, a queue of
 * tokens, JSONata for `set` and `when` (each expression compiled once), a sorted list of timers,
 * joins that count their arrivals, sub-flows as nested scopes. No snapshot, no journal, no store,
 * no generations (none of the bench's joins is in a loop), no flow-changed handling: only what the
 * bench's scenarios need, checked against the same report figures as the command's.
 */

interface Scenario {
  flows: Flow[];
  clock: string;
  maxLiveBranches?: number;
  steps: ({ start: string; as: string; context?: unknown } | { advance: string })[];
}

interface Scope {
  flow: Flow;
  prefix: string;
  /** Live things in this scope: tokens queued, timers set, sub-flows running. */
  live: number;
  arrived: Map<string, Set<string>>;
  parent?: { scope: Scope; node: string };
}

interface Token {
  scope: Scope;
  node: string;
}

interface Timer {
  due: number;
  seq: number;
  scope: Scope;
  node: string;
}

/** `ms` moved on by an ISO duration, with the project's own reading of durations. */
function after(ms: number, text: string): number {
  const d = parseDuration(text);
  if (!d) throw new Error(`plain interpreter: no duration "${text}"`);
  return addDuration(ms, d);
}

/** A flow's nodes by id and its edges by source, made once per flow. */
interface Indexed {
  nodes: Map<string, FlowNode>;
  out: Map<string, Flow['edges']>;
}
const indexes = new WeakMap<Flow, Indexed>();
function indexed(flow: Flow): Indexed {
  let i = indexes.get(flow);
  if (!i) {
    const out = new Map<string, Flow['edges']>();
    for (const e of flow.edges) {
      const list = out.get(e.from);
      if (list) list.push(e);
      else out.set(e.from, [e]);
    }
    indexes.set(flow, (i = { nodes: new Map(flow.nodes.map((n) => [n.id, n])), out }));
  }
  return i;
}

const compiled = new Map<string, jsonata.Expression>();
const expression = (text: string) => {
  let e = compiled.get(text);
  if (!e) compiled.set(text, (e = jsonata(text)));
  return e;
};

class Failure extends Error {}

class Process {
  readonly visits: Record<string, number> = {};
  private readonly queue: Token[] = [];
  private readonly timers: Timer[] = [];
  private seq = 0;
  private liveTotal = 0;
  status = 'running';
  error: string | null = null;

  constructor(
    private readonly flows: Map<string, Flow>,
    private readonly context: Record<string, unknown>,
    private readonly bound: number,
  ) {}

  start(flowId: string): void {
    this.enter(this.scopeOf(flowId, '', undefined), 'start');
  }

  private scopeOf(flowId: string, prefix: string, parent: Scope['parent']): Scope {
    const flow = this.flows.get(flowId)!;
    return { flow, prefix, live: 0, arrived: new Map(), parent };
  }

  private node(scope: Scope, id: string): FlowNode {
    return indexed(scope.flow).nodes.get(id)!;
  }

  private change(scope: Scope, by: number): void {
    scope.live += by;
    this.liveTotal += by;
    if (this.liveTotal > this.bound)
      throw new Failure(
        `the process has more than ${this.bound.toLocaleString('en')} live branches`,
      );
  }

  private enter(scope: Scope, node: string): void {
    this.change(scope, 1);
    this.queue.push({ scope, node });
  }

  /** Runs every token queued, then says whether the process is done, waiting or failed. */
  async run(now: number): Promise<void> {
    try {
      for (let i = 0; i < this.queue.length; i++) await this.execute(this.queue[i]!, now);
      this.queue.length = 0;
      this.status = this.timers.length > 0 ? 'waiting' : 'done';
    } catch (e) {
      if (!(e instanceof Failure)) throw e;
      this.queue.length = 0;
      this.status = 'failed';
      this.error = e.message;
    }
  }

  private async execute(token: Token, now: number): Promise<void> {
    const { scope } = token;
    const node = this.node(scope, token.node);
    const path = scope.prefix + node.id;
    this.change(scope, -1);
    if (node.kind === 'continue-after') {
      const timer = node.on.find((t) => t.timer !== undefined);
      if (timer?.timer) {
        const due = after(now, timer.timer);
        const entry = { due, seq: this.seq++, scope, node: node.id };
        // Sorted by due, then by when it was set.
        let at = this.timers.length;
        while (at > 0 && this.timers[at - 1]!.due > due) at--;
        this.timers.splice(at, 0, entry);
        this.change(scope, 1);
      }
      return;
    }
    if (node.kind === 'subflow') {
      this.change(scope, 1);
      const child = this.scopeOf(node.flow, `${path}/`, { scope, node: node.id });
      this.enter(child, 'start');
      return;
    }
    if (node.kind === 'work')
      for (const [target, text] of Object.entries(node.set ?? {}))
        // In place: nothing else holds the context.
        this.context[target] = await expression(text).evaluate(this.context);
    await this.completed(scope, node.id);
  }

  /** A node done: counted, and its edges taken (those whose condition holds). */
  private async completed(scope: Scope, nodeId: string): Promise<void> {
    const path = scope.prefix + nodeId;
    this.visits[path] = (this.visits[path] ?? 0) + 1;
    const node = this.node(scope, nodeId);
    if (node.kind === 'end') return this.finished(scope);
    for (const edge of indexed(scope.flow).out.get(nodeId) ?? []) {
      if (edge.when !== undefined && !(await expression(edge.when).evaluate(this.context)))
        continue;
      const target = this.node(scope, edge.to);
      const depends = target.depends;
      if (depends && depends.length > 0) {
        let arrived = scope.arrived.get(target.id);
        if (!arrived) scope.arrived.set(target.id, (arrived = new Set()));
        arrived.add(nodeId);
        if (arrived.size < depends.length) continue;
        scope.arrived.delete(target.id);
      }
      this.enter(scope, edge.to);
    }
    if (scope.live === 0) await this.finished(scope);
  }

  /** A scope with nothing left: a sub-flow's node completes in its parent. */
  private async finished(scope: Scope): Promise<void> {
    if (!scope.parent) return;
    this.change(scope.parent.scope, -1);
    await this.completed(scope.parent.scope, scope.parent.node);
  }

  /** Fires every timer due by `until`, in order, running the process after each. */
  async advance(until: number): Promise<void> {
    while (this.status === 'waiting' && this.timers.length > 0 && this.timers[0]!.due <= until) {
      const timer = this.timers.shift()!;
      this.change(timer.scope, -1);
      try {
        await this.completed(timer.scope, timer.node);
      } catch (e) {
        if (!(e instanceof Failure)) throw e;
        this.status = 'failed';
        this.error = e.message;
        return;
      }
      await this.run(timer.due);
    }
  }
}

/** Runs a scenario of the bench's kind; the report holds what the bench's checks read. */
export async function plainSimulate(scenario: Scenario): Promise<SimulateReportLike> {
  const flows = new Map(scenario.flows.map((f) => [f.id, f]));
  const processes = new Map<string, Process>();
  let now = Date.parse(scenario.clock);
  for (const step of scenario.steps) {
    if ('start' in step) {
      const p = new Process(
        flows,
        structuredClone(step.context ?? {}) as Record<string, unknown>,
        scenario.maxLiveBranches ?? 10_000,
      );
      processes.set(step.as, p);
      try {
        p.start(step.start);
      } catch (e) {
        if (!(e instanceof Failure)) throw e;
      }
      await p.run(now);
    } else {
      const until = after(now, step.advance);
      for (const p of processes.values()) await p.advance(until);
      now = until;
    }
  }
  return {
    processes: Object.fromEntries(
      [...processes].map(([id, p]) => [id, { status: p.status, visits: p.visits, error: p.error }]),
    ),
    errors: [],
  };
}
