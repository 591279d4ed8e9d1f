import { useMemo } from 'react';
import type { CanvasEdge, CanvasNode } from '../designer/canvasTypes.ts';
import { useInspector } from '../inspector/inspectorState.ts';
import { nodeIdsOf } from './nodeIds.ts';
import { removedOnCanvas, type RemovedCanvasEdge, type RemovedCanvasNode } from './removedItems.ts';

export interface FlowChangesOnCanvas {
  nodes: (CanvasNode | RemovedCanvasNode)[];
  edges: (CanvasEdge | RemovedCanvasEdge)[];
  /** What the legend lists: every change, in words, and what could not be drawn. */
  legend: { added: string[]; changed: string[]; removed: string[]; notDrawn: string[] } | undefined;
}

/**
 * The flow's nodes and edges as the canvas draws them while the inspected process's flow
 * changed: added and changed ones marked (new objects for those only), removed ones as ghosts.
 * With nothing changed in this flow, the designer's own arrays pass through untouched.
 */
export function useFlowChanges(
  flowId: string,
  nodes: CanvasNode[],
  edges: CanvasEdge[],
): FlowChangesOnCanvas {
  const diff = useInspector((s) => s.inspection?.diffs.get(flowId));
  // Ghosts keep their objects while the flow's node ids stay the same: React Flow keeps what it
  // measured of a node only while its object is the same.
  const ids = nodeIdsOf(nodes);
  const removed = useMemo(() => (diff ? removedOnCanvas(diff, ids) : undefined), [diff, ids]);
  return useMemo(() => {
    if (!diff || !removed) return { nodes, edges, legend: undefined };
    const marked = nodes.map((n) => {
      const change = diff.nodes.get(n.id);
      return change ? ({ ...n, data: { ...n.data, change } } as CanvasNode) : n;
    });
    const markedEdges = edges.map((e) => {
      const change = diff.edges.get(e.id);
      if (!change || !e.data) return e;
      const ariaLabel = `${e.ariaLabel ?? `Edge from ${e.source} to ${e.target}`}, ${change} since the process slept`;
      return { ...e, ariaLabel, data: { ...e.data, change } };
    });
    const words = (item: string, ids: Iterable<string>) => [...ids].map((id) => `${item} ${id}`);
    const by = (m: ReadonlyMap<string, string>, c: string) =>
      [...m].filter(([, v]) => v === c).map(([k]) => k);
    return {
      nodes: [...marked, ...removed.nodes],
      edges: [...markedEdges, ...removed.edges],
      legend: {
        added: [
          ...words('node', by(diff.nodes, 'added')),
          ...words('edge', by(diff.edges, 'added')),
        ],
        changed: [
          ...words('node', by(diff.nodes, 'changed')),
          ...words('edge', by(diff.edges, 'changed')),
        ],
        removed: [
          ...words(
            'node',
            diff.removedNodes.map((n) => n.id),
          ),
          ...words(
            'edge',
            diff.removedEdges.map((e) => e.id),
          ),
          ...diff.notDrawn.map((x) => `${x.item} ${x.id}`),
        ],
        notDrawn: removed.notDrawn,
      },
    };
  }, [diff, removed, nodes, edges]);
}
