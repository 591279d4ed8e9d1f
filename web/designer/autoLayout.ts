import type { CanvasEdge, CanvasNode } from './canvasTypes.ts';

const DEFAULT_SIZE = { width: 180, height: 80 };

/**
 * Lays the drawing out left to right with ELK's layered algorithm. elkjs is large, so it is
 * loaded only when a designer asks for a layout.
 */
export async function layoutDrawing(
  nodes: readonly CanvasNode[],
  edges: readonly CanvasEdge[],
): Promise<CanvasNode[]> {
  const { default: ELK } = await import('elkjs/lib/elk.bundled.js');
  const elk = new ELK();
  const graph = await elk.layout({
    id: 'flow',
    layoutOptions: {
      'elk.algorithm': 'layered',
      'elk.direction': 'RIGHT',
      'elk.spacing.nodeNode': '40',
      'elk.layered.spacing.nodeNodeBetweenLayers': '80',
    },
    children: nodes.map((n) => ({
      id: n.id,
      width: n.measured?.width ?? DEFAULT_SIZE.width,
      height: n.measured?.height ?? DEFAULT_SIZE.height,
    })),
    edges: edges.map((e) => ({ id: e.id, sources: [e.source], targets: [e.target] })),
  });
  const placed = new Map((graph.children ?? []).map((c) => [c.id, { x: c.x ?? 0, y: c.y ?? 0 }]));
  return nodes.map((n) => ({ ...n, position: placed.get(n.id) ?? n.position }));
}
