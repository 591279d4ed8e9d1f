/**
 * BPMN DI places shapes by their top-left corner in BPMN's units (a task is 100 × 80); the
 * canvas draws wider nodes. Positions are read about each shape's centre, spread by SPREAD, so
 * that a diagram keeps its look without nodes overlapping; export applies the inverse.
 */
export const SPREAD = 1.5;
/** Half the canvas's usual node size, to place its top-left corner about a centre. */
const HALF_NODE = { x: 80, y: 30 };

export interface Bounds {
  x: number;
  y: number;
  width: number;
  height: number;
}

export function positionOf(b: Bounds, origin = { x: 0, y: 0 }): { x: number; y: number } {
  const cx = b.x + b.width / 2 - origin.x;
  const cy = b.y + b.height / 2 - origin.y;
  return { x: Math.round(cx * SPREAD - HALF_NODE.x), y: Math.round(cy * SPREAD - HALF_NODE.y) };
}

/** Bounds of a shape of this size whose node sits at `position` on the canvas. */
export function boundsAt(
  position: { x: number; y: number },
  size: { width: number; height: number },
): Bounds {
  const cx = (position.x + HALF_NODE.x) / SPREAD;
  const cy = (position.y + HALF_NODE.y) / SPREAD;
  const r = (n: number) => Math.round(n * 10) / 10;
  return { x: r(cx - size.width / 2), y: r(cy - size.height / 2), ...size };
}

export const SIZES = {
  event: { width: 36, height: 36 },
  task: { width: 100, height: 80 },
  gateway: { width: 50, height: 50 },
};
