import type { Edge, Node } from '@xyflow/react';
import type { FlowEdge, FlowNode } from '../../shared/schema.ts';
import type { CanvasDiff } from '../inspector/canvasDiff.ts';
import { KIND_NAMES } from '../designer/kinds.ts';

/** Ghosts share the canvas with the flow's own items; the prefix keeps their ids apart. */
export const REMOVED_PREFIX = 'removed:';

export interface RemovedNodeData extends Record<string, unknown> {
  node: FlowNode;
}
export type RemovedCanvasNode = Node<RemovedNodeData, 'removed'>;

/** A removed edge is drawn by FlowEdge, dashed, with "removed" in its label and name. */
export interface RemovedEdgeData extends Record<string, unknown> {
  edge: FlowEdge;
  problems: readonly string[];
  change: 'removed';
}
export type RemovedCanvasEdge = Edge<RemovedEdgeData, 'flow'>;

export function removedNodeAriaLabel(node: FlowNode): string {
  const kind = KIND_NAMES[node.kind].toLowerCase();
  return `Removed since the process slept: ${kind} node ${node.id}`;
}

/**
 * Removed nodes and edges as ghosts on the canvas: nodes at their old positions, edges between
 * nodes that are drawn (the flow's own or ghosts). They can be neither selected, moved, deleted
 * nor connected: they are not part of the flow. An edge with an end that is drawn nowhere is
 * listed in `notDrawn` instead.
 */
export function removedOnCanvas(
  diff: CanvasDiff,
  canvasNodeIds: ReadonlySet<string>,
): { nodes: RemovedCanvasNode[]; edges: RemovedCanvasEdge[]; notDrawn: string[] } {
  const ghostIds = new Set(diff.removedNodes.map((n) => n.id));
  const nodes = diff.removedNodes.map((node, i): RemovedCanvasNode => ({
    id: REMOVED_PREFIX + node.id,
    type: 'removed',
    position: node.position ?? { x: i * 180, y: -160 },
    data: { node },
    draggable: false,
    selectable: false,
    connectable: false,
    deletable: false,
    ariaLabel: removedNodeAriaLabel(node),
  }));
  const end = (id: string) =>
    ghostIds.has(id) ? REMOVED_PREFIX + id : canvasNodeIds.has(id) ? id : undefined;
  const edges: RemovedCanvasEdge[] = [];
  const notDrawn = diff.notDrawn.map((x) => `${x.item} ${x.id}`);
  for (const edge of diff.removedEdges) {
    const source = end(edge.from);
    const target = end(edge.to);
    if (source === undefined || target === undefined) {
      notDrawn.push(`edge ${edge.id}`);
      continue;
    }
    edges.push({
      id: REMOVED_PREFIX + edge.id,
      source,
      target,
      type: 'flow',
      selectable: false,
      deletable: false,
      ariaLabel: `Removed since the process slept: edge ${edge.id} from ${edge.from} to ${edge.to}`,
      data: { edge, problems: [], change: 'removed' },
    });
  }
  return { nodes, edges, notDrawn };
}
