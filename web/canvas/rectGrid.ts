import { overlaps, type Rect } from '../designer/edgeGeometry.ts';

/** Cells of this many canvas pixels: a few nodes each at the grid the examples are drawn on. */
const CELL = 320;

/**
 * The nodes' boxes bucketed by cell, so that a label asks only the nodes near it whether they
 * are in its way: with thousands of nodes, every edge scanning all of them on every frame costs
 * more than the frame has.
 */
export interface RectGrid<T extends Rect = Rect> {
  /** The boxes that may overlap `box` (each once): every one that does, and a few that do not. */
  near(box: Rect): T[];
  /**
   * The boxes that overlap `box` and pass `keep` (each once), or, once more than `limit` of them
   * are found, those found so far: a query over most of the canvas stops early.
   */
  overlapping(box: Rect, limit: number, keep: (r: T) => boolean): T[];
  /**
   * How many boxes surely overlap `box`, counted without looking at any: those whose top left
   * corner lies in a cell wholly inside it (each box is counted at its corner's cell, once). At
   * most the number that overlap it; a long edge over most of a large flow learns in one step
   * that more boxes than it routes round are in its way.
   */
  surelyOverlapping(box: Rect): number;
}

const key = (cx: number, cy: number) => `${cx},${cy}`;

export function rectGrid<T extends Rect>(rects: Iterable<T>, cell = CELL): RectGrid<T> {
  const cells = new Map<string, T[]>();
  /** Each box's corner cell, x then y. */
  const corners: number[] = [];
  for (const r of rects) {
    const x0 = Math.floor(r.x / cell);
    const x1 = Math.floor((r.x + r.width) / cell);
    const y0 = Math.floor(r.y / cell);
    const y1 = Math.floor((r.y + r.height) / cell);
    corners.push(x0, y0);
    for (let cx = x0; cx <= x1; cx++)
      for (let cy = y0; cy <= y1; cy++) {
        const k = key(cx, cy);
        const list = cells.get(k);
        if (list) list.push(r);
        else cells.set(k, [r]);
      }
  }
  // Boxes counted by the cell of their top left corner, summed from the top left of the cells
  // that hold a corner (`sums[(y + 1) * (w + 1) + x + 1]`: the boxes with a corner in a cell at
  // or left of x0 + x and at or above y0 + y), so that a rectangle of cells is counted in four
  // lookups.
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
  for (let i = 0; i < corners.length; i += 2) {
    x0 = Math.min(x0, corners[i]!);
    x1 = Math.max(x1, corners[i]!);
    y0 = Math.min(y0, corners[i + 1]!);
    y1 = Math.max(y1, corners[i + 1]!);
  }
  const w = corners.length > 0 ? x1 - x0 + 1 : 0;
  const h = corners.length > 0 ? y1 - y0 + 1 : 0;
  const sums = new Uint32Array((w + 1) * (h + 1));
  for (let i = 0; i < corners.length; i += 2)
    sums[(corners[i + 1]! - y0 + 1) * (w + 1) + (corners[i]! - x0 + 1)]!++;
  for (let y = 1; y <= h; y++)
    for (let x = 1; x <= w; x++)
      sums[y * (w + 1) + x]! +=
        sums[(y - 1) * (w + 1) + x]! +
        sums[y * (w + 1) + x - 1]! -
        sums[(y - 1) * (w + 1) + x - 1]!;
  /** The boxes with a corner in cells [cx0, cx1] × [cy0, cy1]. */
  const cornersIn = (cx0: number, cy0: number, cx1: number, cy1: number): number => {
    const a = Math.max(cx0, x0) - x0;
    const b = Math.max(cy0, y0) - y0;
    const c = Math.min(cx1, x1) - x0 + 1;
    const d = Math.min(cy1, y1) - y0 + 1;
    if (w === 0 || a >= c || b >= d) return 0;
    const at = (x: number, y: number) => sums[y * (w + 1) + x]!;
    return at(c, d) - at(a, d) - at(c, b) + at(a, b);
  };

  /** Calls `visit` with each box in the cells `box` spans, once each, until it returns true. */
  const eachNear = (box: Rect, visit: (r: T) => boolean | void): void => {
    const seen = new Set<T>();
    const x1 = Math.floor((box.x + box.width) / cell);
    const y1 = Math.floor((box.y + box.height) / cell);
    for (let cx = Math.floor(box.x / cell); cx <= x1; cx++)
      for (let cy = Math.floor(box.y / cell); cy <= y1; cy++)
        for (const r of cells.get(key(cx, cy)) ?? []) {
          if (seen.has(r)) continue;
          seen.add(r);
          if (visit(r) === true) return;
        }
  };
  return {
    near(box) {
      const out: T[] = [];
      eachNear(box, (r) => void out.push(r));
      return out;
    },
    overlapping(box, limit, keep) {
      const out: T[] = [];
      eachNear(box, (r) => {
        if (!overlaps(box, r) || !keep(r)) return false;
        out.push(r);
        return out.length > limit;
      });
      return out;
    },
    surelyOverlapping(box) {
      // Cells wholly inside `box`: a corner in one lies strictly inside it, so its box overlaps.
      return cornersIn(
        Math.floor(box.x / cell) + 1,
        Math.floor(box.y / cell) + 1,
        Math.floor((box.x + box.width) / cell) - 1,
        Math.floor((box.y + box.height) / cell) - 1,
      );
    },
  };
}

/** The box around points, grown by a margin on every side. */
export function boxAround(points: readonly { x: number; y: number }[], margin: number): Rect {
  const xs = points.map((p) => p.x);
  const ys = points.map((p) => p.y);
  const x = Math.min(...xs) - margin;
  const y = Math.min(...ys) - margin;
  return { x, y, width: Math.max(...xs) + margin - x, height: Math.max(...ys) + margin - y };
}
