import type { FlowGraph, GraphEdge } from '../../shared/graph.ts';
import { flowLoops } from '../../shared/loops.ts';
import type { Flow, FlowEdge, FlowNode } from '../../shared/schema.ts';
import { signature } from '../../shared/signature.ts';

/**
 * What the engine needs to know of a flow, computed once per flow object: nodes by id, edges in
 * order, the loop heads over each node, closing edges, and the reachability sets that make the
 * join check cheap.
 */
/**
 * What a step needs of one node, found with one look-up (`FlowModel.info`): a step looked the
 * node, its edges, its heads, the joins naming it and each target's kind up one by one, a dozen
 * look-ups in maps of every node, which a flow of 10,000 nodes no cache held.
 */
export interface NodeInfo {
  node: FlowNode;
  /** Its outgoing edges to nodes of the flow, in order. */
  edges: readonly EdgeInfo[];
  /** Loop heads that dominate it, outermost first (`FlowModel.heads`). */
  heads: readonly string[];
  /** Nodes with `depends` that name it (`FlowModel.joinsNaming`). */
  joins: readonly string[];
  /** It has `depends`: arrivals wait at it (docs/format.md#joins). */
  barrier: boolean;
  /** A work node's `set` as a list, in its order; empty for other kinds. */
  set: readonly (readonly [path: string, expression: string])[];
}

/** An edge, with its target's info and whether it closes a loop. */
export interface EdgeInfo {
  edge: FlowEdge;
  to: NodeInfo;
  closing: boolean;
}

export interface FlowModel {
  flow: Flow;
  signature: string;
  /** Whether the flow has a loop: without one, every generation is empty. */
  loops: boolean;
  node(id: string): FlowNode | undefined;
  /** What a step needs of a node, in one look-up; undefined for an id not in the flow. */
  info(id: string): NodeInfo | undefined;
  edgesFrom(id: string): readonly FlowEdge[];
  /** Loop heads that dominate a node, outermost first: the shape of its generation. */
  heads(id: string): readonly string[];
  isClosing(edgeId: string): boolean;
  /** Nodes with `depends` that name `id`. */
  joinsNaming(id: string): readonly string[];
  /**
   * Nodes that can reach `target` without taking a closing edge into a loop head that dominates
   * `join` (docs/format.md's settled rule). With `target === join`, the nodes that could still
   * arrive at the join in its own generation.
   */
  reachersAvoidingPasses(join: string, target: string): ReadonlySet<string>;
  /**
   * The union of `reachersAvoidingPasses(join, named)` over the nodes `join` names: a join is
   * settled when no live item of its generation stands in it.
   */
  reachersOfDepends(join: string): ReadonlySet<string>;
  /** The nodes a join names in `depends`, as a set. */
  dependsOf(join: string): ReadonlySet<string>;
  /** Nodes that can reach `target` by any path, loops included. */
  reachers(target: string): ReadonlySet<string>;
}

const models = new WeakMap<Flow, FlowModel>();

/** The empty list of heads or joins every node without any shares. */
const NO_IDS: readonly string[] = Object.freeze([]);
const signatures = new WeakMap<Flow, string>();

/**
 * A flow's signature, computed once per flow object as the model is (a flow is never changed in
 * place; an edit is a new object): a start hashed a flow twice, for the versions it records and
 * for its model, which for a flow of 20,000 nodes was a cost of its own.
 */
export function signatureOf(flow: Flow): string {
  let s = signatures.get(flow);
  if (s === undefined) signatures.set(flow, (s = signature(flow)));
  return s;
}

export function flowModel(flow: Flow): FlowModel {
  let model = models.get(flow);
  if (!model) models.set(flow, (model = buildModel(flow)));
  return model;
}

function buildModel(flow: Flow): FlowModel {
  const { graph, loops } = flowLoops(flow);
  const nodes = new Map<string, FlowNode>();
  for (const n of flow.nodes) if (!nodes.has(n.id)) nodes.set(n.id, n);
  const edges = new Map<string, FlowEdge[]>();
  for (const e of flow.edges) {
    if (!nodes.has(e.to)) continue;
    const list = edges.get(e.from) ?? [];
    list.push(e);
    edges.set(e.from, list);
  }
  const naming = new Map<string, string[]>();
  for (const n of nodes.values()) {
    for (const dep of new Set(n.depends ?? [])) {
      const list = naming.get(dep) ?? [];
      list.push(n.id);
      naming.set(dep, list);
    }
  }
  const headsOf = (id: string) => loops.dominatingHeads.get(id) ?? [];
  const infos = new Map<string, NodeInfo>();
  // Equal lists of heads and of joins are one list, shared by the nodes that have it: a step
  // reads its node's, and 10,000 branches naming one join read the same one, not each its own.
  // Keyed by the one id of a list of one (most), else by the ids joined; an empty list is one.
  const lists = new Map<string, readonly string[]>();
  const shared = (list: readonly string[]): readonly string[] => {
    if (list.length === 0) return NO_IDS;
    const key = list.length === 1 ? list[0]! : `${list.length}\u0000${list.join('\u0000')}`;
    let one = lists.get(key);
    if (!one) lists.set(key, (one = list));
    return one;
  };
  for (const n of nodes.values()) {
    infos.set(n.id, {
      node: n,
      edges: [],
      heads: shared(headsOf(n.id)),
      joins: shared(naming.get(n.id) ?? []),
      barrier: (n.depends?.length ?? 0) > 0,
      set: n.kind === 'work' ? Object.entries(n.set ?? {}) : [],
    });
  }
  for (const [from, list] of edges) {
    const info = infos.get(from);
    if (!info) continue;
    const out = info.edges as EdgeInfo[];
    for (const edge of list)
      out.push({ edge, to: infos.get(edge.to)!, closing: loops.closingEdges.has(edge.id) });
  }
  const avoiding = new Map<string, ReadonlySet<string>>();
  const plain = new Map<string, ReadonlySet<string>>();
  const ofDepends = new Map<string, ReadonlySet<string>>();
  const named = new Map<string, ReadonlySet<string>>();
  const passSkip = (join: string) => {
    const passHeads = new Set(headsOf(join));
    return (e: GraphEdge) => loops.closingEdges.has(e.id) && passHeads.has(graph.ids[e.to]!);
  };
  return {
    flow,
    signature: signatureOf(flow),
    loops: loops.heads.length > 0,
    node: (id) => nodes.get(id),
    info: (id) => infos.get(id),
    edgesFrom: (id) => edges.get(id) ?? [],
    heads: headsOf,
    isClosing: (edgeId) => loops.closingEdges.has(edgeId),
    joinsNaming: (id) => naming.get(id) ?? [],
    reachersAvoidingPasses(join, target) {
      const key = `${join}\u0000${target}`;
      let set = avoiding.get(key);
      if (!set) avoiding.set(key, (set = reachersOf(graph, [target], passSkip(join))));
      return set;
    },
    reachersOfDepends(join) {
      let set = ofDepends.get(join);
      if (!set) {
        const targets = nodes.get(join)?.depends ?? [];
        ofDepends.set(join, (set = reachersOf(graph, targets, passSkip(join))));
      }
      return set;
    },
    dependsOf(join) {
      let set = named.get(join);
      if (!set) named.set(join, (set = new Set(nodes.get(join)?.depends ?? [])));
      return set;
    },
    reachers(target) {
      let set = plain.get(target);
      if (!set) plain.set(target, (set = reachersOf(graph, [target], () => false)));
      return set;
    },
  };
}

/**
 * Every node with a path to one of `targets` (themselves included), by id: one walk for all of
 * them, so that the union costs what the graph does, not what each target's set does.
 */
function reachersOf(
  graph: FlowGraph,
  targets: readonly string[],
  skip: (e: GraphEdge) => boolean,
): ReadonlySet<string> {
  // A flag per node and indexed loops: the first settle of a join of 10,000 branches walks all
  // of them, in a step of its own.
  const seen = new Uint8Array(graph.ids.length);
  const out = new Set<string>();
  const work: number[] = [];
  for (const t of targets) {
    const i = graph.index.get(t);
    if (i !== undefined && seen[i] !== 1) {
      seen[i] = 1;
      out.add(t);
      work.push(i);
    }
  }
  while (work.length > 0) {
    const into = graph.in[work.pop()!]!;
    for (let j = 0; j < into.length; j++) {
      const e = into[j]!;
      if (seen[e.from] === 1 || skip(e)) continue;
      seen[e.from] = 1;
      out.add(graph.ids[e.from]!);
      work.push(e.from);
    }
  }
  return out;
}
