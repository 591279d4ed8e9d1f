import type { CanvasEdge, CanvasNode } from '../designer/canvasTypes.ts';
import type { MissingCanvasNode } from './nodes/MissingNode.tsx';

const OFFSET = 240;

/**
 * Placeholders for the nodes that edges name and the flow lacks, beside the end that is there:
 * right of an edge's source, or left of its target.
 */
export function missingNodes(
  nodes: readonly CanvasNode[],
  edges: readonly CanvasEdge[],
): MissingCanvasNode[] {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const out = new Map<string, MissingCanvasNode>();
  for (const e of edges) {
    for (const [end, other, dx] of [
      [e.target, e.source, OFFSET],
      [e.source, e.target, -OFFSET],
    ] as const) {
      if (byId.has(end) || out.has(end)) continue;
      const beside = byId.get(other);
      const position = beside
        ? { x: beside.position.x + dx, y: beside.position.y + 20 * out.size }
        : { x: 0, y: 20 * out.size };
      out.set(end, {
        id: end,
        type: 'missing',
        position,
        data: { id: end },
        // Not part of the flow, so its measurements never come back through the store: a size
        // of its own lets React Flow show it.
        width: 170,
        height: 84,
        selectable: false,
        draggable: false,
        connectable: false,
      });
    }
  }
  return [...out.values()];
}
