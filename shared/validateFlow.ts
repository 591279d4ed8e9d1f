import { BOUND_FUNCTIONS } from './boundFunctions.ts';
import { callProblems } from './callProblems.ts';
import { quote } from './quote.ts';
import { contextPathProblem } from './contextPath.ts';
import { durationProblem } from './duration.ts';
import { expressionAst, expressionProblem, visitAst } from './expressionSyntax.ts';
import { cyclicComponents, reachingTo } from './graph.ts';
import { flowLoops } from './loops.ts';
import type { Problem } from './problem.ts';
import type { Flow, FlowNode } from './schema.ts';
import { NO_SECRETS, secretUses } from './secretRefs.ts';
import { unmappedProblems } from './unmapped.ts';

// Its own module, so that the rules in other files (unmapped.ts) name it without importing
// this one, which imports them.
export type { Problem } from './problem.ts';

export interface ValidateOptions {
  /** The workspace's flows by id; with it, sub-flow nodes are checked against it. */
  flows?: ReadonlyMap<string, Flow>;
}

const list = (ids: readonly string[]) => ids.map((id) => quote(id)).join(', ');

/** What an expression outside a call is told when it names `$secret`. */
const SECRET_ONLY =
  "uses $secret, which only a call's url, headers and body may: a secret must never reach the context";

/**
 * Every problem that keeps a well-formed flow from running (docs/format.md#flows and #errors), each with the
 * node or edge it belongs to and a message a designer understands. An empty list means the flow
 * can run. The flow is only read.
 */
export function validateFlow(flow: Flow, options: ValidateOptions = {}): Problem[] {
  const problems: Problem[] = [];
  const node = (n: FlowNode, rule: string, message: string) =>
    problems.push({ rule, message, nodeId: n.id });

  checkIds(flow, problems);
  const nodes = new Map<string, FlowNode>();
  for (const n of flow.nodes) if (!nodes.has(n.id)) nodes.set(n.id, n);

  const starts = flow.nodes.filter((n) => n.kind === 'start');
  if (starts.length === 0) {
    problems.push({ rule: 'start-count', message: 'the flow has no start node; add one' });
  }
  for (const extra of starts.slice(1)) {
    node(
      extra,
      'start-count',
      `a second start node; a flow has exactly one (the first is ${quote(starts[0]!.id)})`,
    );
  }

  for (const edge of flow.edges) {
    for (const end of ['from', 'to'] as const) {
      if (!nodes.has(edge[end])) {
        problems.push({
          rule: 'edge-missing-node',
          edgeId: edge.id,
          message: `goes ${end} ${quote(edge[end])}, which is not a node of this flow`,
        });
      }
    }
    if (edge.when !== undefined) {
      const p = expressionProblem(edge.when);
      if (p)
        problems.push({ rule: 'expression-syntax', edgeId: edge.id, message: `condition ${p}` });
      else if (secretUses(edge.when) !== NO_SECRETS)
        problems.push({ rule: 'secret-use', edgeId: edge.id, message: `condition ${SECRET_ONLY}` });
    }
    if (edge.trigger !== undefined) {
      const source = nodes.get(edge.from);
      if (source && source.kind !== 'continue-after') {
        problems.push({
          rule: 'edge-trigger',
          edgeId: edge.id,
          message: `names trigger ${quote(edge.trigger)}, but ${quote(source.id)} is a ${source.kind} node, which has no triggers`,
        });
      } else if (
        source?.kind === 'continue-after' &&
        !source.on.some((t) => t.id === edge.trigger)
      ) {
        problems.push({
          rule: 'edge-trigger',
          edgeId: edge.id,
          message: `names trigger ${quote(edge.trigger)}, which is not a trigger of ${quote(source.id)} (it has ${list(source.on.map((t) => t.id)) || 'none'})`,
        });
      }
    }
  }

  for (const n of flow.nodes) checkNodeFields(n, options, node);
  checkGraph(flow, nodes, problems);
  // What an import could not map (BPMN), noted on its node or edge.
  problems.push(...unmappedProblems(flow));
  return problems;
}

function checkIds(flow: Flow, problems: Problem[]): void {
  const seenNodes = new Set<string>();
  for (const n of flow.nodes) {
    if (seenNodes.has(n.id)) {
      problems.push({
        rule: 'duplicate-id',
        nodeId: n.id,
        message: `another node already has the id ${quote(n.id)}`,
      });
    }
    seenNodes.add(n.id);
  }
  const seenEdges = new Set<string>();
  for (const e of flow.edges) {
    if (seenEdges.has(e.id)) {
      problems.push({
        rule: 'duplicate-id',
        edgeId: e.id,
        message: `another edge already has the id ${quote(e.id)}`,
      });
    }
    seenEdges.add(e.id);
  }
}

function checkNodeFields(
  n: FlowNode,
  options: ValidateOptions,
  report: (n: FlowNode, rule: string, message: string) => void,
): void {
  if (n.kind === 'join' && (n.depends === undefined || n.depends.length === 0)) {
    report(n, 'join-depends', 'a join must name the nodes it waits for in "depends"');
  }
  if (n.kind === 'work') {
    for (const [path, expr] of Object.entries(n.set ?? {})) {
      const pathProblem = contextPathProblem(path);
      if (pathProblem) report(n, 'context-path', `set: ${pathProblem}`);
      const p = expressionProblem(expr);
      if (p) report(n, 'expression-syntax', `set ${quote(path)}: the expression ${p}`);
      else if (secretUses(expr) !== NO_SECRETS)
        report(n, 'secret-use', `set ${quote(path)}: ${SECRET_ONLY}`);
    }
  }
  if (n.kind === 'continue-after') {
    if (n.on.length === 0) {
      report(
        n,
        'continue-after-triggers',
        'has no trigger; add a timer, an event, a human or a call trigger',
      );
    }
    const calls = n.on.filter((t) => t.call !== undefined);
    if (calls.length > 1) {
      report(
        n,
        'call-count',
        `has ${calls.length} call triggers (${list(calls.map((t) => t.id))}); a continue-after makes one call at most`,
      );
    }
    const seen = new Set<string>();
    for (const t of n.on) {
      if (seen.has(t.id))
        report(n, 'continue-after-triggers', `two triggers have the id ${quote(t.id)}`);
      seen.add(t.id);
      if (t.timer !== undefined) {
        const p = durationProblem(t.timer);
        if (p) report(n, 'timer-duration', `trigger ${quote(t.id)}: ${p}`);
      }
      if (t.into !== undefined) {
        const p = contextPathProblem(t.into);
        if (p) report(n, 'context-path', `trigger ${quote(t.id)} into: ${p}`);
      }
      if (t.call !== undefined) {
        for (const p of callProblems(t.call))
          report(n, p.rule, `trigger ${quote(t.id)} ${p.message}`);
      }
      const names = new Set<string>();
      for (const f of t.human?.fields ?? []) {
        if (names.has(f.name))
          report(
            n,
            'human-fields',
            `trigger ${quote(t.id)}: two fields are named ${quote(f.name)}`,
          );
        names.add(f.name);
      }
    }
  }
  if (n.kind === 'subflow') {
    if (n.flow === '') report(n, 'subflow-flow', 'names no flow to call; choose one');
    else if (options.flows && !options.flows.has(n.flow)) {
      report(n, 'subflow-flow', `calls flow ${quote(n.flow)}, which is not in the workspace`);
    }
  }
}

function checkGraph(flow: Flow, nodes: ReadonlyMap<string, FlowNode>, problems: Problem[]): void {
  const { graph, loops } = flowLoops(flow);

  // Every cycle must pass through a continue-after: a cycle left when those are taken out is one
  // that a process would spin round without ever saving where it is.
  const notWaits = new Set(
    [...graph.ids.keys()].filter((i) => nodes.get(graph.ids[i]!)?.kind !== 'continue-after'),
  );
  for (const cycle of cyclicComponents(graph, notWaits)) {
    const ids = cycle.map((i) => graph.ids[i]!);
    problems.push({
      rule: 'cycle-without-wait',
      nodeId: ids[0],
      message: `the cycle through ${list(ids)} has no continue-after node; every loop must stop at one so that each pass is saved`,
    });
  }
  for (const cycle of loops.irreducible) {
    problems.push({
      rule: 'loop-entries',
      nodeId: cycle.entries[0],
      message: `the loop through ${list(cycle.nodes)} is entered at more than one node (${list(cycle.entries)}); a loop must be entered at one node, its head`,
    });
  }

  // Upstream means a path into the join that does not go round a loop: a node reached only after
  // the join, on a later pass, can never be waited for.
  for (const n of flow.nodes) {
    const target = graph.index.get(n.id);
    // One backward walk per node with depends, however many nodes it names.
    const upstream =
      target !== undefined && (n.depends?.length ?? 0) > 0
        ? reachingTo(graph, target, loops.closingEdges)
        : undefined;
    for (const dep of n.depends ?? []) {
      const from = graph.index.get(dep);
      if (from === undefined) {
        problems.push({
          rule: 'depends-missing',
          nodeId: n.id,
          message: `depends on ${quote(dep)}, which is not a node of this flow`,
        });
      } else if (dep === n.id) {
        problems.push({ rule: 'depends-upstream', nodeId: n.id, message: 'depends on itself' });
      } else if (target !== undefined && upstream?.[from] !== 1) {
        problems.push({
          rule: 'depends-upstream',
          nodeId: n.id,
          message: `depends on ${quote(dep)}, which does not come before it: no path leads from ${quote(dep)} to ${quote(n.id)} within one pass`,
        });
      }
    }
  }
}

/**
 * What a designer should know about a flow that can run, not a problem: each expression that
 * calls a function the runtime binds to the step (`$now`, `$millis`, `$random`, `$shuffle`;
 * boundFunctions.ts), once per function and expression. `flow validate` prints them as notes.
 */
export function flowNotes(flow: Flow): Problem[] {
  const notes: Problem[] = [];
  const note = (text: string, where: { nodeId?: string; edgeId?: string }, what: string) => {
    for (const name of boundCalls(text)) {
      notes.push({
        rule: 'bound-function',
        ...where,
        message: `${what} calls $${name}(), which ${BOUND_FUNCTIONS[name]}`,
      });
    }
  };
  for (const n of flow.nodes) {
    if (n.kind !== 'work') continue;
    for (const [path, expr] of Object.entries(n.set ?? {}))
      note(expr, { nodeId: n.id }, `set ${quote(path)}`);
  }
  for (const e of flow.edges) if (e.when !== undefined) note(e.when, { edgeId: e.id }, 'condition');
  return notes;
}

/** The bound functions an expression names, in the order first named; none if it does not parse. */
function boundCalls(text: string): string[] {
  if (expressionProblem(text) !== undefined) return [];
  const found = new Set<string>();
  visitAst(expressionAst(text), (node) => {
    const { type, value } = node as { type?: unknown; value?: unknown };
    if (type === 'variable' && typeof value === 'string' && Object.hasOwn(BOUND_FUNCTIONS, value))
      found.add(value);
  });
  return [...found].sort();
}

/**
 * What a designer would want to know of a flow that can still run (docs/format.md does not refuse
 * these): a node that no edge leads to, which never runs. Each has `severity: 'warning'`.
 */
export function designFlowWarnings(flow: Flow): Problem[] {
  const ids = new Set(flow.nodes.map((n) => n.id));
  const reached = new Set(flow.edges.filter((e) => ids.has(e.from)).map((e) => e.to));
  return flow.nodes
    .filter((n) => n.kind !== 'start' && !reached.has(n.id))
    .map((n) => ({
      rule: 'never-runs',
      severity: 'warning' as const,
      nodeId: n.id,
      message: 'never runs: nothing leads here',
    }));
}
