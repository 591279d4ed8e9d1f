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
 *
 * Its bookkeeping is in arrays indexed by node, kept with the graph and put back after each call,
 * so that loop analysis, which calls this once per nested component, pays for what `within`
 * holds, not for the whole flow each time: a flow of 20,000 nodes is validated in milliseconds.
 */
export function cyclicComponents(graph: FlowGraph, within: ReadonlySet<number>): number[][] {
  const { order, low, flags } = scratchOf(graph);
  for (const n of within) flags[n] = IN;
  const stack: number[] = [];
  const result: number[][] = [];
  let counter = 0;
  // Per node on the walk: the node, and how many of its outgoing edges were looked at.
  const work: number[] = [];
  const enter = (n: number) => {
    order[n] = counter;
    low[n] = counter++;
    stack.push(n);
    flags[n] = flags[n]! | ON_STACK;
    work.push(n, 0);
  };
  for (const root of within) {
    if (order[root] !== -1) continue;
    enter(root);
    while (work.length > 0) {
      const top = work.length - 2;
      const node = work[top]!;
      const edges = graph.out[node]!;
      let i = work[top + 1]!;
      // The next successor inside `within`, in the order the flow lists the edges.
      while (i < edges.length && (flags[edges[i]!.to]! & IN) === 0) i++;
      if (i < edges.length) {
        work[top + 1] = i + 1;
        const m = edges[i]!.to;
        if (order[m] === -1) enter(m);
        else if (flags[m]! & ON_STACK) low[node] = Math.min(low[node]!, order[m]!);
        continue;
      }
      work.length = top;
      if (top > 0) {
        const parent = work[top - 2]!;
        low[parent] = Math.min(low[parent]!, low[node]!);
      }
      if (low[node] === order[node]) {
        const component: number[] = [];
        let m: number;
        do {
          m = stack.pop()!;
          flags[m] = flags[m]! & ~ON_STACK;
          component.push(m);
        } while (m !== node);
        const selfLoop = edges.some((e) => e.to === node);
        if (component.length > 1 || selfLoop) result.push(component.reverse());
      }
    }
  }
  for (const n of within) {
    order[n] = -1;
    low[n] = -1;
    flags[n] = 0;
  }
  return result;
}

const IN = 1;
const ON_STACK = 2;

interface Scratch {
  order: Int32Array;
  low: Int32Array;
  flags: Uint8Array;
}

const scratch = new WeakMap<FlowGraph, Scratch>();

/** Arrays of the graph's size for `cyclicComponents`, all at rest (-1, -1, 0) between calls. */
function scratchOf(graph: FlowGraph): Scratch {
  let s = scratch.get(graph);
  if (!s) {
    const n = graph.ids.length;
    s = {
      order: new Int32Array(n).fill(-1),
      low: new Int32Array(n).fill(-1),
      flags: new Uint8Array(n),
    };
    scratch.set(graph, s);
  }
  return s;
}

/**
 * Immediate dominators from `start` (Cooper, Harvey and Kennedy's iterative algorithm).
 * `idom[start] === start`; nodes that `start` cannot reach have `undefined`.
 */
export function immediateDominators(graph: FlowGraph, start: number): (number | undefined)[] {
  const postorder: number[] = [];
  const count = graph.ids.length;
  const seen = new Uint8Array(count);
  seen[start] = 1;
  // Per node on the walk: the node, and how many of its outgoing edges were looked at.
  const work: number[] = [start, 0];
  while (work.length > 0) {
    const top = work.length - 2;
    const node = work[top]!;
    const edges = graph.out[node]!;
    const i = work[top + 1]!;
    if (i < edges.length) {
      work[top + 1] = i + 1;
      const m = edges[i]!.to;
      if (!seen[m]) {
        seen[m] = 1;
        work.push(m, 0);
      }
      continue;
    }
    work.length = top;
    postorder.push(node);
  }
  const rank = new Int32Array(count);
  postorder.forEach((n, i) => (rank[n] = i));
  const idom: (number | undefined)[] = new Array<number | undefined>(count).fill(undefined);
  idom[start] = start;
  const intersect = (a: number, b: number) => {
    while (a !== b) {
      while (rank[a]! < rank[b]!) a = idom[a]!;
      while (rank[b]! < rank[a]!) b = idom[b]!;
    }
    return a;
  };
  let changed = true;
  while (changed) {
    changed = false;
    // In reverse postorder.
    for (let k = postorder.length - 1; k >= 0; k--) {
      const n = postorder[k]!;
      if (n === start) continue;
      let next: number | undefined;
      // Indexed: a join of 10,000 branches has as many edges in, met in a task of their own.
      const into = graph.in[n]!;
      for (let j = 0; j < into.length; j++) {
        const from = into[j]!.from;
        if (idom[from] === undefined) continue;
        next = next === undefined ? from : intersect(from, next);
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
 * those whose id is in `skip`: what can still reach a node, or what comes before it. As one
 * flag per node (1: reaches it), by index: a set of numbers and a function asked per edge made
 * a walk over a flow of 10,000 nodes most of its check (docs/performance.md).
 */
export function reachingTo(
  graph: FlowGraph,
  target: number,
  skip: ReadonlySet<string> = NO_EDGES,
): Uint8Array {
  const seen = new Uint8Array(graph.ids.length);
  seen[target] = 1;
  const work = [target];
  const skips = skip.size > 0;
  while (work.length > 0) {
    const into = graph.in[work.pop()!]!;
    for (let i = 0; i < into.length; i++) {
      const e = into[i]!;
      if (seen[e.from] === 1 || (skips && skip.has(e.id))) continue;
      seen[e.from] = 1;
      work.push(e.from);
    }
  }
  return seen;
}

const NO_EDGES: ReadonlySet<string> = new Set();
