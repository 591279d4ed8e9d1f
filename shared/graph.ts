import type { Flow } from './schema.ts';

/**
 * A flow's nodes and edges as integer-indexed adjacency lists, for the graph algorithms of loop
 * analysis and validation. Edges naming a missing node are left out (validation reports them);
 * for a duplicate node id the first node wins.
 */
export interface FlowGraph {
  ids: string[];
  index: ReadonlyMap<string, number>;
  /** Per node, its outgoing edges in the order the flow lists them. */
  out: GraphEdge[][];
  /** Per node, its incoming edges. */
  in: GraphEdge[][];
  start: number | undefined;
}

export interface GraphEdge {
  id: string;
  from: number;
  to: number;
}

export function buildGraph(flow: Flow): FlowGraph {
  const ids: string[] = [];
  const index = new Map<string, number>();
  let start: number | undefined;
  for (const node of flow.nodes) {
    if (index.has(node.id)) continue;
    index.set(node.id, ids.length);
    if (node.kind === 'start' && start === undefined) start = ids.length;
    ids.push(node.id);
  }
  const out: GraphEdge[][] = ids.map(() => []);
  const inn: GraphEdge[][] = ids.map(() => []);
  for (const edge of flow.edges) {
    const from = index.get(edge.from);
    const to = index.get(edge.to);
    if (from === undefined || to === undefined) continue;
    const e = { id: edge.id, from, to };
    out[from]!.push(e);
    inn[to]!.push(e);
  }
  return { ids, index, out, in: inn, start };
}

/**
 * Strongly connected components of the nodes in `within` (Tarjan's algorithm, iterative so that
 * a long chain cannot overflow the stack). Only components with a cycle are returned: more than
 * one node, or one node with an edge to itself.
 */
export function cyclicComponents(graph: FlowGraph, within: ReadonlySet<number>): number[][] {
  const order = new Map<number, number>();
  const low = new Map<number, number>();
  const onStack = new Set<number>();
  const stack: number[] = [];
  const result: number[][] = [];
  let counter = 0;
  const succ = (n: number) => graph.out[n]!.map((e) => e.to).filter((m) => within.has(m));
  for (const root of within) {
    if (order.has(root)) continue;
    const work: { node: number; next: number[]; i: number }[] = [];
    const enter = (n: number) => {
      order.set(n, counter);
      low.set(n, counter++);
      stack.push(n);
      onStack.add(n);
      work.push({ node: n, next: succ(n), i: 0 });
    };
    enter(root);
    while (work.length > 0) {
      const top = work[work.length - 1]!;
      if (top.i < top.next.length) {
        const m = top.next[top.i++]!;
        if (!order.has(m)) enter(m);
        else if (onStack.has(m)) low.set(top.node, Math.min(low.get(top.node)!, order.get(m)!));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(top.node)!));
      if (low.get(top.node) === order.get(top.node)) {
        const component: number[] = [];
        let m: number;
        do {
          m = stack.pop()!;
          onStack.delete(m);
          component.push(m);
        } while (m !== top.node);
        const selfLoop = graph.out[top.node]!.some((e) => e.to === top.node);
        if (component.length > 1 || selfLoop) result.push(component.reverse());
      }
    }
  }
  return result;
}

/**
 * Immediate dominators from `start` (Cooper, Harvey and Kennedy's iterative algorithm).
 * `idom[start] === start`; nodes that `start` cannot reach have `undefined`.
 */
export function immediateDominators(graph: FlowGraph, start: number): (number | undefined)[] {
  const postorder: number[] = [];
  const seen = new Set<number>([start]);
  const work: { node: number; i: number }[] = [{ node: start, i: 0 }];
  while (work.length > 0) {
    const top = work[work.length - 1]!;
    const edges = graph.out[top.node]!;
    if (top.i < edges.length) {
      const m = edges[top.i++]!.to;
      if (!seen.has(m)) {
        seen.add(m);
        work.push({ node: m, i: 0 });
      }
      continue;
    }
    work.pop();
    postorder.push(top.node);
  }
  const rank = new Map(postorder.map((n, i) => [n, i]));
  const idom: (number | undefined)[] = graph.ids.map(() => undefined);
  idom[start] = start;
  const intersect = (a: number, b: number) => {
    while (a !== b) {
      while (rank.get(a)! < rank.get(b)!) a = idom[a]!;
      while (rank.get(b)! < rank.get(a)!) b = idom[b]!;
    }
    return a;
  };
  const reversePostorder = [...postorder].reverse();
  let changed = true;
  while (changed) {
    changed = false;
    for (const n of reversePostorder) {
      if (n === start) continue;
      let next: number | undefined;
      for (const e of graph.in[n]!) {
        if (idom[e.from] === undefined) continue;
        next = next === undefined ? e.from : intersect(e.from, next);
      }
      if (next !== undefined && idom[n] !== next) {
        idom[n] = next;
        changed = true;
      }
    }
  }
  return idom;
}

/**
 * Every node with a path to `target` (itself included), walking edges backwards and skipping
 * those `skipEdge` names: what can still reach a node, or what comes before it.
 */
export function reachingTo(
  graph: FlowGraph,
  target: number,
  skipEdge: (edge: GraphEdge) => boolean = () => false,
): Set<number> {
  const seen = new Set<number>([target]);
  const work = [target];
  while (work.length > 0) {
    const n = work.pop()!;
    for (const e of graph.in[n]!) {
      if (seen.has(e.from) || skipEdge(e)) continue;
      seen.add(e.from);
      work.push(e.from);
    }
  }
  return seen;
}
