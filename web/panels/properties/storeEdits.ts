import type { FlowEdge, FlowNode, NodeKind, NodeOf } from '../../../shared/schema.ts';
import type { CanvasEdge, CanvasNode } from '../../designer/canvasTypes.ts';
import { useMemo } from 'react';
import {
  edit,
  updateEdge,
  updateNode,
  useDesignerStore,
  type DesignerStore,
} from '../../designer/designerStore.ts';
import { toCanvasEdge } from '../../designer/flowCanvas.ts';

/**
 * The panel's writes to the designer store. Each reads the node or edge as it is now, not as a
 * component last rendered it (a blur can commit just before a click acts), and records one undo
 * step, or none when nothing changed.
 */

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export const flowEdgeOf = (e: CanvasEdge): FlowEdge =>
  e.data?.edge ?? { id: e.id, from: e.source, to: e.target };

function currentNode<K extends NodeKind>(
  store: DesignerStore,
  id: string,
  kind: K,
): NodeOf<K> | undefined {
  const node = store.getState().nodes.find((n) => n.id === id)?.data.node;
  return node?.kind === kind ? (node as NodeOf<K>) : undefined;
}

/** Changes one node of a known kind. */
export function changeNode<K extends NodeKind>(
  store: DesignerStore,
  id: string,
  kind: K,
  change: (node: NodeOf<K>) => NodeOf<K>,
): void {
  const node = currentNode(store, id, kind);
  if (node === undefined) return;
  const next = change(node);
  if (!same(node, next)) updateNode(store, id, next as FlowNode);
}

/** Changes one node of any kind (its label or `depends`). */
export function changeAnyNode(
  store: DesignerStore,
  id: string,
  change: (node: FlowNode) => FlowNode,
): void {
  const node = store.getState().nodes.find((n) => n.id === id)?.data.node;
  if (node === undefined) return;
  const next = change(node);
  if (!same(node, next)) updateNode(store, id, next);
}

export function changeEdge(
  store: DesignerStore,
  id: string,
  change: (edge: FlowEdge) => FlowEdge,
): void {
  const canvasEdge = store.getState().edges.find((e) => e.id === id);
  if (canvasEdge === undefined) return;
  const edge = flowEdgeOf(canvasEdge);
  const next = change(edge);
  if (!same(edge, next)) updateEdge(store, id, next);
}

/**
 * Changes a node and the edges leaving it in one undo step: renaming or removing a trigger
 * carries its edges along, so no edge is left naming a trigger that is gone.
 */
export function changeNodeAndEdges<K extends NodeKind>(
  store: DesignerStore,
  id: string,
  kind: K,
  change: (node: NodeOf<K>, edges: readonly FlowEdge[]) => { node: NodeOf<K>; edges: FlowEdge[] },
): void {
  const node = currentNode(store, id, kind);
  if (node === undefined) return;
  const before = store.getState().edges;
  const outgoing = before.filter((e) => e.source === id).map(flowEdgeOf);
  const next = change(node, outgoing);
  if (same(node, next.node) && same(outgoing, next.edges)) return;
  const nextById = new Map(next.edges.map((e) => [e.id, e]));
  edit(store, (s) => ({
    nodes: s.nodes.map((n) =>
      n.id === id
        ? ({ ...n, type: next.node.kind, data: { ...n.data, node: next.node } } as CanvasNode)
        : n,
    ),
    edges: s.edges.flatMap((e) => {
      if (e.source !== id) return [e];
      const edge = nextById.get(e.id);
      if (edge === undefined) return [];
      return same(edge, flowEdgeOf(e))
        ? [e]
        : [{ ...toCanvasEdge(edge, next.node), selected: e.selected }];
    }),
  }));
}

/** The edits above, bound to this workbench's designer store. */
export function useStoreEdits() {
  const store = useDesignerStore();
  return useMemo(
    () => ({
      changeNode: <K extends NodeKind>(
        id: string,
        kind: K,
        change: (node: NodeOf<K>) => NodeOf<K>,
      ) => changeNode(store, id, kind, change),
      changeAnyNode: (id: string, change: (node: FlowNode) => FlowNode) =>
        changeAnyNode(store, id, change),
      changeEdge: (id: string, change: (edge: FlowEdge) => FlowEdge) =>
        changeEdge(store, id, change),
      changeNodeAndEdges: <K extends NodeKind>(
        id: string,
        kind: K,
        change: (
          node: NodeOf<K>,
          edges: readonly FlowEdge[],
        ) => { node: NodeOf<K>; edges: FlowEdge[] },
      ) => changeNodeAndEdges(store, id, kind, change),
    }),
    [store],
  );
}
