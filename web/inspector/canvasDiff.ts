import type { FlowChange } from '../../shared/flowDiff.ts';
import type { Flow, FlowEdge, FlowNode } from '../../shared/schema.ts';

export type ChangeMark = 'added' | 'changed';

/** What changed in one flow under a process whose flow changed, as the canvas draws it. */
export interface CanvasDiff {
  flow: string;
  /** Nodes and edges of the flow as it is now that were added or changed. */
  nodes: ReadonlyMap<string, ChangeMark>;
  edges: ReadonlyMap<string, ChangeMark>;
  /** Removed nodes and edges as they were in the version the process slept on (old positions). */
  removedNodes: FlowNode[];
  removedEdges: FlowEdge[];
  /** Removed items that version does not hold (it is not in the store): listed, never drawn. */
  notDrawn: { item: 'node' | 'edge'; id: string }[];
}

/**
 * The changes of a `flow-changed` process, flow by flow, with what was removed taken from the
 * versions it slept on. A change of edge order alone (id '') marks nothing: FlowChangedPanel
 * lists it.
 */
export function canvasDiffs(
  changes: readonly FlowChange[],
  sleptOn: ReadonlyMap<string, Flow>,
): Map<string, CanvasDiff> {
  const out = new Map<string, CanvasDiff>();
  for (const c of changes) {
    if (c.id === '') continue;
    let diff = out.get(c.flow);
    if (!diff) {
      diff = {
        flow: c.flow,
        nodes: new Map(),
        edges: new Map(),
        removedNodes: [],
        removedEdges: [],
        notDrawn: [],
      };
      out.set(c.flow, diff);
    }
    if (c.change !== 'removed') {
      (diff[c.item === 'node' ? 'nodes' : 'edges'] as Map<string, ChangeMark>).set(c.id, c.change);
      continue;
    }
    const before = sleptOn.get(c.flow);
    const old =
      c.item === 'node'
        ? before?.nodes.find((n) => n.id === c.id)
        : before?.edges.find((e) => e.id === c.id);
    if (!old) diff.notDrawn.push({ item: c.item, id: c.id });
    else if (c.item === 'node') diff.removedNodes.push(old as FlowNode);
    else diff.removedEdges.push(old as FlowEdge);
  }
  return out;
}
