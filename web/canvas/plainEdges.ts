import type { Edge } from '@xyflow/react';
import type { FlowEdgeData } from '../designer/canvasTypes.ts';

/**
 * Above this many plain edges near the view, a large flow's plain edges are drawn in one layer
 * (PlainEdgeLayer) rather than by React Flow. React Flow subscribes each edge it draws to its
 * store four times over, so every change of the store (each frame of a pan, each node
 * measured) costs every edge drawn: with a split into 10,000 branches in view, a change cost
 * tens of milliseconds and a frame held several. The flows of the canvas benches (and every
 * example) stay well under it.
 */
export const LAYER_ABOVE = 300;

/**
 * Whether an edge is drawn as its route and arrow and nothing else, as the layer draws it: no
 * label (trigger, `when`, problems, a change since the process slept, a loop's pass count), not
 * selected, not taken by the last step (whose token runs along it).
 */
export function isPlainEdge(
  e: Edge<Partial<FlowEdgeData>>,
  closing: ReadonlyMap<string, unknown>,
  taken: ReadonlySet<string>,
): boolean {
  const edge = e.data?.edge;
  return (
    e.selected !== true &&
    e.selectable !== false &&
    e.hidden !== true &&
    edge !== undefined &&
    edge.trigger === undefined &&
    (edge.when === undefined || edge.when.trim() === '') &&
    (e.data?.problems?.length ?? 0) === 0 &&
    e.data?.change === undefined &&
    !closing.has(e.id) &&
    !taken.has(e.id)
  );
}

/**
 * The edges near the view, parted between React Flow (`flow`) and the layer (`layer`): when
 * more than `above` of them are plain, every plain one goes to the layer; otherwise React Flow
 * draws them all, as for any flow. Each keeps its order.
 */
export function partPlainEdges<E>(
  near: readonly E[],
  plain: (e: E) => boolean,
  above: number,
): { flow: readonly E[]; layer: readonly E[] } {
  const layer = near.filter(plain);
  if (layer.length <= above) return { flow: near, layer: [] };
  return { flow: near.filter((e) => !plain(e)), layer };
}

/** How far from an edge a click still takes it: half of React Flow's interaction stroke (20). */
export const EDGE_REACH = 10;

/**
 * The edge a click at `at` (flow coordinates) lands on, of `ids` in drawing order: the last drawn
 * whose route (`pointsOf`, a polyline) passes within `reach`, as the topmost of React Flow's
 * interaction strokes would take it; undefined when none does.
 */
export function edgeAt(
  at: { x: number; y: number },
  ids: readonly string[],
  pointsOf: (id: string) => readonly { x: number; y: number }[] | undefined,
  reach = EDGE_REACH,
): string | undefined {
  for (let i = ids.length - 1; i >= 0; i--) {
    const points = pointsOf(ids[i]!);
    if (!points) continue;
    for (let j = 1; j < points.length; j++)
      if (distanceToSegment(at, points[j - 1]!, points[j]!) <= reach) return ids[i];
  }
  return undefined;
}

function distanceToSegment(
  p: { x: number; y: number },
  a: { x: number; y: number },
  b: { x: number; y: number },
): number {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const length = dx * dx + dy * dy;
  const t =
    length === 0 ? 0 : Math.max(0, Math.min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / length));
  return Math.hypot(p.x - (a.x + t * dx), p.y - (a.y + t * dy));
}
