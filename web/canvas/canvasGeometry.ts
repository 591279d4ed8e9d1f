import type { ReactFlowState } from '@xyflow/react';
import type { CanvasEdge } from '../designer/canvasTypes.ts';
import { fanOffsets } from '../designer/edgeGeometry.ts';
import type { KeptRoutes } from './edgeRoutes.ts';
import { nodeBoxes, type NodeBoxes, type NodeRect } from './nodeBoxes.ts';

/*
 * What every edge of one canvas shares, read from React Flow's store: the nodes' boxes, the
 * routes kept, each edge's place in its bundle. Edges drawn by React Flow (FlowEdge) and those
 * drawn in one layer (PlainEdgeLayer) use the same, so an edge is drawn the same by either.
 */

/** Each edge's place in its bundle of parallel edges, computed once per edges array. */
const fans = new WeakMap<readonly CanvasEdge[], Map<string, number>>();
export function fanOf(edges: readonly CanvasEdge[], id: string): number {
  let map = fans.get(edges);
  if (!map) {
    map = fanOffsets(edges);
    fans.set(edges, map);
  }
  return map.get(id) ?? 0;
}

/** The boxes of the nodes drawn, for keeping edges and labels off them. */
function* nodeRects(lookup: ReactFlowState['nodeLookup']): Generator<NodeRect> {
  for (const n of lookup.values()) {
    const { x, y } = n.internals.positionAbsolute;
    yield { id: n.id, x, y, width: n.measured.width ?? 0, height: n.measured.height ?? 0 };
  }
}

/**
 * The nodes' boxes, built once per nodes array that React Flow holds (a pan keeps the array, a
 * drag or a measurement makes a new one), shared by every edge: each edge's selector runs on
 * every change of React Flow's store, on every frame of a pan. Each knows what changed since the
 * last of the same canvas (its `nodeLookup`, which React Flow keeps for the store's life), so
 * that a route far from a measured node is kept (edgeRoutes.ts).
 */
const boxesByNodes = new WeakMap<readonly unknown[], NodeBoxes>();
const latestBoxes = new WeakMap<object, NodeBoxes>();
export function boxesOf(s: ReactFlowState, dragging: boolean): NodeBoxes {
  let boxes = boxesByNodes.get(s.nodes);
  if (!boxes) {
    const last = latestBoxes.get(s.nodeLookup);
    // A drag makes a new nodes array on every frame: routes and labels keep the boxes of before
    // the drag, for a frame's work not to grow with the flow, and are checked again on the drop.
    if (last && dragging) return last;
    boxes = nodeBoxes(nodeRects(s.nodeLookup), last);
    boxesByNodes.set(s.nodes, boxes);
    latestBoxes.set(s.nodeLookup, boxes);
  }
  return boxes;
}

/** The routes kept for one canvas, by edge id (edgeRoutes.ts). */
const routesByCanvas = new WeakMap<object, KeptRoutes>();
export function routesOf(s: ReactFlowState): KeptRoutes {
  let kept = routesByCanvas.get(s.nodeLookup);
  if (!kept) routesByCanvas.set(s.nodeLookup, (kept = new Map()));
  return kept;
}

/** Closing edges' lowest spanned bottoms, kept per nodes array as the grid is. */
const bottoms = new WeakMap<readonly unknown[], Map<readonly string[], number>>();
export function lowestBottom(s: ReactFlowState, ids: readonly string[]): number {
  let known = bottoms.get(s.nodes);
  if (!known) bottoms.set(s.nodes, (known = new Map()));
  const kept = known.get(ids);
  if (kept !== undefined) return kept;
  let bottom = -Infinity;
  for (const nodeId of ids) {
    const n = s.nodeLookup.get(nodeId);
    if (n) bottom = Math.max(bottom, n.internals.positionAbsolute.y + (n.measured.height ?? 0));
  }
  known.set(ids, bottom);
  return bottom;
}
