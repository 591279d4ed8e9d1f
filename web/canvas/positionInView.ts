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
