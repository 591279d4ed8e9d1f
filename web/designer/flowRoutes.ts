import type { FlowEdge, FlowNode } from '../../shared/schema.ts';
import { fanOffsets, type Point, type Rect } from './edgeGeometry.ts';
import { routeEdge, type RoutedPath } from './edgeRouting.ts';

/** A node as the canvas measured it: its box and where its handles are, in flow coordinates. */
export interface MeasuredNode {
  node: FlowNode;
  rect: Rect;
  /** Source handles by id (null: the general one), at the point an edge leaves them. */
  sources: { id: string | null; at: Point }[];
  /** Where an edge comes in, if the node takes edges. */
  target: Point | undefined;
}

/** An edge as drawn: its record, its source node, whether it closes a loop, and its route. */
export interface DrawnEdge {
  edge: FlowEdge;
  from: MeasuredNode;
  loop: boolean;
  route: RoutedPath;
}

/**
 * Every edge of a flow on the route the canvas draws it on (edgeRouting.ts): round the boxes of
 * the nodes it does not join, loops round their nodes, parallel edges apart. Edges whose ends
 * are not drawn are left out.
 */
export function routeFlow(
  measured: readonly MeasuredNode[],
  edges: readonly FlowEdge[],
  closing: ReadonlyMap<string, { depth: number; spans: readonly string[] }>,
): DrawnEdge[] {
  const byId = new Map(measured.map((m) => [m.node.id, m]));
  const fans = fanOffsets(edges.map((e) => ({ id: e.id, source: e.from, target: e.to })));
  const out: DrawnEdge[] = [];
  for (const edge of edges) {
    const from = byId.get(edge.from);
    const to = byId.get(edge.to);
    const source =
      from?.sources.find((s) => s.id === (edge.trigger ? `trigger:${edge.trigger}` : null))?.at ??
      from?.sources[0]?.at;
    const target = to?.target;
    if (!from || !to || !source || !target) continue;
    const loop = closing.get(edge.id);
    const others = measured.filter((m) => m !== from && m !== to).map((m) => m.rect);
    const route = routeEdge(
      {
        source,
        target,
        fan: fans.get(edge.id) ?? 0,
        loop: loop && {
          bottom: Math.max(
            ...loop.spans
              .map((id) => byId.get(id))
              .map((m) => (m ? m.rect.y + m.rect.height : -Infinity)),
          ),
          depth: loop.depth,
        },
      },
      () => others,
    );
    out.push({ edge, from, loop: loop !== undefined, route });
  }
  return out;
}
