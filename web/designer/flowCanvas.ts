import type { Flow, FlowEdge, FlowNode } from '../../shared/schema.ts';
import { edgeAriaLabel, edgeTriggerKind } from './edgeLabel.ts';
import { triggerHandleId, type CanvasEdge, type CanvasNode } from './canvasTypes.ts';

/** Everything of a flow but its nodes and edges: id, name and any unknown top-level fields. */
export type FlowMeta = { format: 'flow/1'; id: string; name?: string; [field: string]: unknown };

/** The canvas's nodes and edges for a flow. Nodes without a position are laid out in a row. */
export function toCanvas(flow: Flow): { meta: FlowMeta; nodes: CanvasNode[]; edges: CanvasEdge[] } {
  const { nodes, edges, ...meta } = flow;
  const byId = new Map(nodes.map((n) => [n.id, n]));
  return {
    meta,
    nodes: nodes.map((n, i) => toCanvasNode(n, n.position ?? { x: i * 180, y: 0 })),
    edges: edges.map((e) => toCanvasEdge(e, byId.get(e.from))),
  };
}

export function toCanvasNode(node: FlowNode, position: { x: number; y: number }): CanvasNode {
  const { position: _p, ...rest } = node;
  return {
    id: node.id,
    type: node.kind,
    position,
    data: { node: rest as FlowNode, problems: [] },
  } as CanvasNode;
}

/**
 * A canvas edge. With its source node, an edge from a trigger is named for the trigger's kind
 * ("on timer daily") from the start, not only once validation has run.
 */
export function toCanvasEdge(edge: FlowEdge, source?: FlowNode): CanvasEdge {
  return {
    id: edge.id,
    source: edge.from,
    target: edge.to,
    type: 'flow',
    ...(edge.trigger !== undefined ? { sourceHandle: triggerHandleId(edge.trigger) } : {}),
    ariaLabel: edgeAriaLabel(edge, [], edgeTriggerKind(edge, source)),
    data: { edge, problems: [] },
  };
}

/** The flow the canvas shows, as `flow/1`: positions from the canvas, unknown fields kept. */
export function fromCanvas(
  meta: FlowMeta,
  nodes: readonly CanvasNode[],
  edges: readonly CanvasEdge[],
): Flow {
  return {
    ...meta,
    nodes: nodes.map((n) => ({
      ...n.data.node,
      position: { x: Math.round(n.position.x), y: Math.round(n.position.y) },
    })),
    edges: edges.map((e) => e.data?.edge ?? { id: e.id, from: e.source, to: e.target }),
  };
}
