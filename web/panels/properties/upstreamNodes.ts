import { buildGraph, reachingTo } from '../../../shared/graph.ts';
import { analyzeLoops } from '../../../shared/loops.ts';
import type { Flow } from '../../../shared/schema.ts';

/**
 * The nodes a node can wait for in its `depends`: every node with a path to it within one pass,
 * that is, without taking a loop's closing edge (docs/format.md#loops-and-generations). This is the
 * rule `validateFlow` checks `depends` against, so a choice offered here never becomes a
 * `depends-upstream` problem. Ids come in the order the flow lists its nodes; the node itself is
 * left out, and an unknown id has no upstream nodes.
 */
export function upstreamNodes(flow: Flow, nodeId: string): string[] {
  const graph = buildGraph(flow);
  const target = graph.index.get(nodeId);
  if (target === undefined) return [];
  const { closingEdges } = analyzeLoops(flow, graph);
  const seen = reachingTo(graph, target, closingEdges);
  return graph.ids.filter((_, i) => i !== target && seen[i] === 1);
}
