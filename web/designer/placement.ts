import type { Rect } from './edgeGeometry.ts';

/** The size a node is taken to have before the canvas has measured it. */
export const NEW_NODE_SIZE = { width: 170, height: 90 };
const GAP = 60;
const SNAP = 20;

const overlaps = (a: Rect, b: Rect, margin: number) =>
  a.x < b.x + b.width + margin &&
  b.x < a.x + a.width + margin &&
  a.y < b.y + b.height + margin &&
  b.y < a.y + a.height + margin;

const snap = (v: number) => Math.round(v / SNAP) * SNAP;

/**
 * Where something of `size` goes so that it covers no node: beside `near` (the selection), to its
 * right first, then below, above, and further right; with nothing near, right of the last node;
 * with no node at all, at `fallback`. Returns its top left corner, on the canvas's grid.
 */
export function freeSpot(
  nodes: readonly Rect[],
  near: Rect | undefined,
  size: { width: number; height: number } = NEW_NODE_SIZE,
  fallback: { x: number; y: number } = { x: 0, y: 0 },
): { x: number; y: number } {
  const anchor = near ?? nodes.at(-1);
  if (!anchor) return { x: snap(fallback.x), y: snap(fallback.y) };
  const right = anchor.x + anchor.width + GAP;
  const candidates: { x: number; y: number }[] = [];
  for (let step = 0; step < 12; step++) {
    const x = right + step * (size.width + GAP);
    const dy = size.height + GAP / 2;
    candidates.push({ x, y: anchor.y });
    if (step === 0) {
      candidates.push({ x: anchor.x, y: anchor.y + anchor.height + GAP / 2 });
      candidates.push({ x: anchor.x, y: anchor.y - size.height - GAP / 2 });
    }
    candidates.push({ x, y: anchor.y + dy }, { x, y: anchor.y - dy });
  }
  for (const c of candidates) {
    const spot = { x: snap(c.x), y: snap(c.y) };
    if (!nodes.some((n) => overlaps({ ...spot, ...size }, n, 8))) return spot;
  }
  const last = candidates.at(-1)!;
  return { x: snap(last.x), y: snap(last.y) };
}

/** The box round some boxes; undefined for none. */
export function boundsOf(rects: readonly Rect[]): Rect | undefined {
  if (rects.length === 0) return undefined;
  const x = Math.min(...rects.map((r) => r.x));
  const y = Math.min(...rects.map((r) => r.y));
  return {
    x,
    y,
    width: Math.max(...rects.map((r) => r.x + r.width)) - x,
    height: Math.max(...rects.map((r) => r.y + r.height)) - y,
  };
}
