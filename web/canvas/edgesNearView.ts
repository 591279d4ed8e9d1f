import type { ReactFlowState } from '@xyflow/react';
import { NEW_NODE_SIZE } from '../designer/placement.ts';

/** A rectangle of the flow's plane: left, top, right, bottom. */
export type Region = readonly [number, number, number, number];

/**
 * The part of the flow's plane a large flow's edges are handed to React Flow for: the view, in
 * flow coordinates, with half a view more on every side, snapped to a grid of half-views so that
 * it stays the same (one string) while a pan moves within a cell. `''` when the pane has no size
 * yet: then every edge is handed over.
 */
export function regionKey(s: Pick<ReactFlowState, 'transform' | 'width' | 'height'>): string {
  const [tx, ty, zoom] = s.transform;
  if (s.width <= 0 || s.height <= 0 || zoom <= 0) return '';
  const w = s.width / zoom;
  const h = s.height / zoom;
  const cw = w / 2;
  const ch = h / 2;
  const cellX = Math.floor(-tx / zoom / cw);
  const cellY = Math.floor(-ty / zoom / ch);
  // The view's left edge lies in [cellX·cw, (cellX+1)·cw): the region holds it with cw to spare.
  const left = (cellX - 1) * cw;
  const top = (cellY - 1) * ch;
  return `${left} ${top} ${left + 4 * cw + w} ${top + 4 * ch + h}`;
}

export function regionOf(key: string): Region | undefined {
  if (key === '') return undefined;
  const [l, t, r, b] = key.split(' ').map(Number) as [number, number, number, number];
  return [l, t, r, b];
}

interface Placed {
  id: string;
  position: { x: number; y: number };
  measured?: { width?: number; height?: number };
  width?: number;
  height?: number;
  initialWidth?: number;
  initialHeight?: number;
}

/** Room around each node's box, for handles that stand out of it. */
const PAD = 40;

/**
 * The edges React Flow could find in view anywhere in `region`: those whose ends' boxes, taken
 * together, reach into it (React Flow's own test, `isEdgeVisible`, on a larger rectangle, so that
 * every edge it would draw is among them), every edge with an end it has no box for, and every
 * selected edge. With
 * `onlyRenderVisibleElements`, React Flow looks through every edge it holds on every change of
 * its store, each frame of a pan among them: for 6,000 edges that was the largest part of a pan
 * frame's script. Handed only these, it looks through a few dozen.
 */
export function edgesNear<E extends { source: string; target: string; selected?: boolean }>(
  edges: readonly E[],
  nodes: readonly Placed[],
  region: Region,
): E[] {
  return edgesNearView(edges, nodes, region).near;
}

/**
 * The edges near the view (edgesNear), and which of them reach into the middle of the region,
 * where the view is (`inView`: those React Flow may draw now rather than after a pan). The region
 * is the view with half a view more on every side, snapped to cells of half a view, so its middle
 * (half a view in from every side) holds the view wherever it lies in its cell.
 */
export function edgesNearView<E extends { source: string; target: string; selected?: boolean }>(
  edges: readonly E[],
  nodes: readonly Placed[],
  region: Region,
): { near: E[]; inView: Set<E> } {
  const boxes = boxesById(nodes);
  const [left, top, right, bottom] = region;
  // The region is three views wide and high (regionKey): its middle view and a half on each side.
  const dx = (right - left) / 6;
  const dy = (bottom - top) / 6;
  const inView = new Set<E>();
  const near = edges.filter((e) => {
    const a = boxes.get(e.source);
    const b = boxes.get(e.target);
    if (!a || !b) {
      inView.add(e);
      return true;
    }
    const x0 = Math.min(a.position.x, b.position.x) - PAD;
    const y0 = Math.min(a.position.y, b.position.y) - PAD;
    const x1 = Math.max(a.position.x + widthOf(a), b.position.x + widthOf(b)) + PAD;
    const y1 = Math.max(a.position.y + heightOf(a), b.position.y + heightOf(b)) + PAD;
    if (x0 < right - dx && x1 > left + dx && y0 < bottom - dy && y1 > top + dy) inView.add(e);
    // A selected edge stays wherever it is: Delete removes the selected edges React Flow holds.
    return e.selected === true || (x0 < right && x1 > left && y0 < bottom && y1 > top);
  });
  return { near, inView };
}

/** The nodes by id, once per nodes array: a pan to a new cell asks again with the same nodes. */
const byNodes = new WeakMap<readonly Placed[], Map<string, Placed>>();
function boxesById(nodes: readonly Placed[]): Map<string, Placed> {
  let boxes = byNodes.get(nodes);
  if (!boxes) {
    boxes = new Map();
    for (const n of nodes) boxes.set(n.id, n);
    byNodes.set(nodes, boxes);
  }
  return boxes;
}

/**
 * How many edges React Flow is handed at most per frame beyond those it already holds: each it
 * finds in view is mounted, measured against the nodes near it and drawn, and a split into
 * 10,000 branches brings 10,000 into view at once, which drawn in one task held the page for
 * seconds. The rest follow a frame after another.
 */
export const EDGES_PER_FRAME = 400;

/**
 * The edges to hand React Flow now, of those near the view (`near`, in its order): every one it
 * holds already (`handed`, by id), every selected one, and of the others at most `budget`, those
 * in the view (`inView`) first. Every edge new to React Flow counts, in view or not: one handed
 * beside the view is drawn, without waiting, as soon as a pan brings it in. `deferred` counts
 * those left for a later frame; once it is 0 the edges are `near` itself.
 */
export function edgesToHand<E extends { id: string; selected?: boolean }>(
  near: readonly E[],
  inView: ReadonlySet<E>,
  handed: ReadonlySet<string>,
  budget: number,
): { edges: readonly E[]; deferred: number } {
  const waiting = (e: E) => !handed.has(e.id) && !e.selected;
  let fresh = 0;
  let freshInView = 0;
  for (const e of near)
    if (waiting(e)) {
      fresh++;
      if (inView.has(e)) freshInView++;
    }
  if (fresh <= budget) return { edges: near, deferred: 0 };
  // In view first: as many of those as the budget takes, then the rest of it beside the view.
  let inViewLeft = Math.min(budget, freshInView);
  let besideLeft = budget - inViewLeft;
  const edges = near.filter((e) => {
    if (!waiting(e)) return true;
    if (inView.has(e) ? inViewLeft-- > 0 : besideLeft-- > 0) return true;
    return false;
  });
  return { edges, deferred: fresh - budget };
}

const widthOf = (n: Placed) =>
  n.measured?.width ?? n.width ?? n.initialWidth ?? NEW_NODE_SIZE.width;
const heightOf = (n: Placed) =>
  n.measured?.height ?? n.height ?? n.initialHeight ?? NEW_NODE_SIZE.height;
