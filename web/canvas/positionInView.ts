import type { Rect } from '../designer/edgeGeometry.ts';
import type { Viewport } from './openingView.ts';

const MARGIN = 24;

/**
 * The viewport, at the zoom it has, that shows every rect (flow coordinates) of a process's
 * position, panned as little as it takes; undefined when they are all in view already. The band
 * at the bottom that the minimap and the zoom controls sit in is kept free when the rects fit
 * above it; when they are too tall for that, they reach down into it, and then keep left of the
 * minimap in the bottom-right corner (`reserveRight` wide), where they fit beside it. Rects larger
 * than the pane show from their top left corner.
 */
export function panToShow(
  rects: readonly Rect[],
  view: Viewport,
  pane: { width: number; height: number },
  reserveBottom: number,
  reserveRight = 0,
): Viewport | undefined {
  if (rects.length === 0) return undefined;
  const { zoom } = view;
  const left = Math.min(...rects.map((r) => r.x)) * zoom + view.x;
  const top = Math.min(...rects.map((r) => r.y)) * zoom + view.y;
  const right = Math.max(...rects.map((r) => r.x + r.width)) * zoom + view.x;
  const bottom = Math.max(...rects.map((r) => r.y + r.height)) * zoom + view.y;
  const fitsAbove = bottom - top <= pane.height - reserveBottom - MARGIN;
  const bottomEdge = fitsAbove ? pane.height - reserveBottom : pane.height - MARGIN;
  const besideMinimap = !fitsAbove && right - left <= pane.width - reserveRight - 2 * MARGIN;
  const rightEdge = besideMinimap ? pane.width - reserveRight - MARGIN : pane.width - MARGIN;
  const dx = shift(left, right, MARGIN, rightEdge);
  const dy = shift(top, bottom, MARGIN, bottomEdge);
  if (dx === 0 && dy === 0) return undefined;
  return { x: view.x + dx, y: view.y + dy, zoom };
}

/** How far to move [from, to] to bring it inside [min, max], its start first if it is larger. */
function shift(from: number, to: number, min: number, max: number): number {
  if (to - from > max - min) return min - from;
  if (from < min) return min - from;
  if (to > max) return max - to;
  return 0;
}

/** How long a pan to keep a position in view glides (ms). */
export const PAN_MS = 200;

/**
 * How long the pan from `from` to `to` glides: PAN_MS when it moves the view by less than the
 * pane's size, otherwise 0. A glide across a large flow shows nothing readable on the way, and
 * each of its frames drew the nodes and edges it passed over (a split into 10,000 branches
 * passing from its split to its join drew thousands of edges a frame).
 */
export function panDuration(
  from: Viewport,
  to: Viewport,
  pane: { width: number; height: number },
): number {
  const far = Math.abs(to.x - from.x) > pane.width || Math.abs(to.y - from.y) > pane.height;
  return far ? 0 : PAN_MS;
}
