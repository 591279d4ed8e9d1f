import { buildGraph, cyclicComponents, immediateDominators, type FlowGraph } from './graph.ts';
import type { Flow } from './schema.ts';

/** One loop of a flow: a cycle entered at one node, its head (docs/format.md#loops-and-generations). */
export interface Loop {
  head: string;
  /** Every node on a cycle through the head, the head included. */
  nodes: ReadonlySet<string>;
  /** Edges from inside the loop back to its head: each one taken begins a new pass. */
  closingEdges: readonly string[];
  /** The head of the loop this one sits inside, if any. */
  parent: string | undefined;
}

/** A cycle that can be entered at more than one node: it has no single head and cannot run. */
export interface IrreducibleCycle {
  nodes: string[];
  entries: string[];
}

export interface LoopAnalysis {
  /** Loop heads, an enclosing loop's head before the heads inside it. */
  heads: string[];
  loops: ReadonlyMap<string, Loop>;
  /** Ids of every loop's closing edges. */
  closingEdges: ReadonlySet<string>;
  /**
   * Per node, the loop heads that dominate it, outermost first: the passes it belongs to, and so
   * the shape of its generation. Nodes after a loop's exit that only the loop leads to count too.
   */
  dominatingHeads: ReadonlyMap<string, readonly string[]>;
  /** Nodes that a process can reach from `start`. */
  reachable: ReadonlySet<string>;
  irreducible: IrreducibleCycle[];
}

const analysed = new WeakMap<Flow, { graph: FlowGraph; loops: LoopAnalysis }>();

/**
 * A flow's graph and loops, found once per flow object: validation and the engine's model both
 * need them, and a process's start asks both of the same flow (a flow of 20,000 nodes was
 * analysed twice). A flow is never changed in place once analysed; an edit is a new object.
 */
export function flowLoops(flow: Flow): { graph: FlowGraph; loops: LoopAnalysis } {
  let known = analysed.get(flow);
  if (!known) {
    const graph = buildGraph(flow);
    known = { graph, loops: analyzeLoops(flow, graph) };
    analysed.set(flow, known);
  }
  return known;
}

/**
 * Finds the loops of a flow by peeling strongly connected components: a component with a single
 * entry is a loop with that entry as its head; removing the head exposes the loops nested inside.
 * A component with several entries is an irreducible cycle, reported rather than guessed at.
 */
export function analyzeLoops(flow: Flow, graph: FlowGraph = buildGraph(flow)): LoopAnalysis {
  const loops = new Map<string, Loop>();
  const heads: string[] = [];
  const closingEdges = new Set<string>();
  const irreducible: IrreducibleCycle[] = [];
  const name = (n: number) => graph.ids[n]!;

  const pending: { within: Set<number>; parent: string | undefined }[] = [
    { within: new Set(graph.ids.keys()), parent: undefined },
  ];
  while (pending.length > 0) {
    const { within, parent } = pending.shift()!;
    for (const component of cyclicComponents(graph, within)) {
      const members = new Set(component);
      const entries = component.filter(
        (n) => n === graph.start || graph.in[n]!.some((e) => !members.has(e.from)),
      );
      if (entries.length === 0) continue; // unreachable from start: never runs
      if (entries.length > 1) {
        irreducible.push({ nodes: component.map(name), entries: entries.map(name) });
        continue;
      }
      const head = entries[0]!;
      const closing = graph.in[head]!.filter((e) => members.has(e.from)).map((e) => e.id);
      closing.forEach((id) => closingEdges.add(id));
      heads.push(name(head));
      loops.set(name(head), {
        head: name(head),
        nodes: new Set(component.map(name)),
        closingEdges: closing,
        parent,
      });
      members.delete(head);
      pending.push({ within: members, parent: name(head) });
    }
  }

  const dominatingHeads = new Map<string, readonly string[]>();
  const reachable = new Set<string>();
  if (graph.start !== undefined) {
    const idom = immediateDominators(graph, graph.start);
    // A node's heads are its immediate dominator's, and itself if it is a head: each found once
    // along the dominator tree, so that a chain of n nodes costs n, not n² (nodes that share
    // their heads share the list, which no one changes).
    const byNode: (readonly string[] | undefined)[] = [];
    const headsOf = (n: number): readonly string[] => {
      const path: number[] = [];
      let d = n;
      while (byNode[d] === undefined) {
        path.push(d);
        if (d === graph.start) break;
        d = idom[d]!;
      }
      let above = byNode[d] ?? [];
      for (let i = path.length - 1; i >= 0; i--) {
        const at = path[i]!;
        const own = loops.has(name(at)) ? [...above, name(at)] : above;
        byNode[at] = own;
        above = own;
      }
      return byNode[n]!;
    };
    graph.ids.forEach((id, n) => {
      if (idom[n] === undefined) return;
      reachable.add(id);
      dominatingHeads.set(id, headsOf(n));
    });
  }
  return { heads, loops, closingEdges, dominatingHeads, reachable, irreducible };
}
