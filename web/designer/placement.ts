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

/** Columns searched right of a source, and rows above and below its own in each, before giving up. */
const COLUMNS = 12;
const ROWS = 4;

/**
 * Where a node connected from `source` goes: after it in the flow's direction (auto-layout lays
 * flows out left to right, docs/decisions.md), so that the new edge points forward. `wanted` (where
 * a connection was dropped) is taken when it is right of the source and free; otherwise the first
 * free place in the columns right of the source, its own row first, then the rows nearest it.
 */
export function spotAfter(
  nodes: readonly Rect[],
  source: Rect,
  wanted?: { x: number; y: number },
  size: { width: number; height: number } = NEW_NODE_SIZE,
): { x: number; y: number } {
  const right = source.x + source.width + GAP;
  const free = (spot: { x: number; y: number }) =>
    !nodes.some((n) => overlaps({ ...spot, ...size }, n, 8));
  if (wanted) {
    const spot = { x: snap(wanted.x), y: snap(wanted.y) };
    if (spot.x >= source.x + source.width + GAP / 2 && free(spot)) return spot;
  }
  const dy = size.height + GAP / 2;
  for (let column = 0; column < COLUMNS; column++) {
    const x = snap(right + column * (size.width + GAP));
    for (let row = 0; row <= ROWS; row++)
      for (const sign of row === 0 ? [1] : [1, -1]) {
        const spot = { x, y: snap(source.y + sign * row * dy) };
        if (free(spot)) return spot;
      }
  }
  return { x: snap(right + COLUMNS * (size.width + GAP)), y: snap(source.y) };
}

/** Rings searched round a source before giving up (a ring more per ring of copies already there). */
const RINGS = 12;

/**
 * Where a copy of `source` goes: the free place nearest it on a grid of its own size (right of
 * it first, then below, above, left, then the next ring out). Repeated pastes fill the rings
 * round the source instead of marching away from it: twenty copies stay within three rings.
 */
export function spotBeside(nodes: readonly Rect[], source: Rect): { x: number; y: number } {
  const stepX = source.width + GAP;
  const stepY = source.height + GAP / 2;
  for (let ring = 1; ring <= RINGS; ring++) {
    const cells: { i: number; j: number }[] = [];
    for (let i = -ring; i <= ring; i++)
      for (let j = -ring; j <= ring; j++)
        if (Math.max(Math.abs(i), Math.abs(j)) === ring) cells.push({ i, j });
    // Nearest first; at one distance, right before below before above before left.
    const rank = ({ i, j }: { i: number; j: number }) =>
      Math.hypot(i, j) * 10 + (i > 0 ? 0 : j > 0 ? 1 : j < 0 ? 2 : 3);
    cells.sort((a, b) => rank(a) - rank(b));
    for (const { i, j } of cells) {
      const spot = { x: snap(source.x + i * stepX), y: snap(source.y + j * stepY) };
      const box = { ...spot, width: source.width, height: source.height };
      if (!nodes.some((n) => overlaps(box, n, 8))) return spot;
    }
  }
  return { x: snap(source.x + stepX), y: snap(source.y) };
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
