import type { FlowEdge, FlowNode } from '../../shared/schema.ts';
import type { CanvasEdge, CanvasNode } from './canvasTypes.ts';
import { toCanvasEdge, toCanvasNode } from './flowCanvas.ts';
import { freshId, ID_PREFIX } from './newIds.ts';

/** A piece of a flow copied from the canvas: the selected nodes and the edges among them. */
export interface Fragment {
  nodes: (FlowNode & { position: { x: number; y: number } })[];
  edges: FlowEdge[];
}

export function copyFragment(
  nodes: readonly CanvasNode[],
  edges: readonly CanvasEdge[],
): Fragment | undefined {
  const chosen = nodes.filter((n) => n.selected);
  if (chosen.length === 0) return undefined;
  const ids = new Set(chosen.map((n) => n.id));
  return {
    nodes: chosen.map((n) => ({ ...structuredClone(n.data.node), position: { ...n.position } })),
    edges: edges
      .filter((e) => ids.has(e.source) && ids.has(e.target))
      .map((e) => structuredClone(e.data!.edge)),
  };
}

/**
 * Adds a fragment to the drawing with new ids (never reusing one in the flow), its edges and
 * `depends` renamed to match, moved by `offset`, and selected in place of what was.
 */
export function pasteFragment(
  nodes: readonly CanvasNode[],
  edges: readonly CanvasEdge[],
  fragment: Fragment,
  offset: { x: number; y: number },
): { nodes: CanvasNode[]; edges: CanvasEdge[] } {
  const takenNodes = new Set(nodes.map((n) => n.id));
  const rename = new Map<string, string>();
  for (const n of fragment.nodes) {
    const id = freshId(ID_PREFIX[n.kind] ?? n.kind, takenNodes);
    takenNodes.add(id);
    rename.set(n.id, id);
  }
  const added = fragment.nodes.map((n) => {
    const { position, ...rest } = n;
    const depends = rest.depends?.map((d) => rename.get(d) ?? d);
    const node = { ...rest, id: rename.get(n.id)!, ...(depends ? { depends } : {}) } as FlowNode;
    return {
      ...toCanvasNode(node, { x: position.x + offset.x, y: position.y + offset.y }),
      selected: true,
    };
  });
  const takenEdges = new Set(edges.map((e) => e.id));
  const addedEdges = fragment.edges.map((e) => {
    const id = freshId('e', takenEdges);
    takenEdges.add(id);
    return {
      ...toCanvasEdge(
        { ...e, id, from: rename.get(e.from)!, to: rename.get(e.to)! },
        added.find((n) => n.id === rename.get(e.from))?.data.node,
      ),
      selected: false,
    };
  });
  return {
    nodes: [...nodes.map((n) => (n.selected ? { ...n, selected: false } : n)), ...added],
    edges: [...edges.map((e) => (e.selected ? { ...e, selected: false } : e)), ...addedEdges],
  };
}
