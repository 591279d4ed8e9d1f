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
}

const key = (cx: number, cy: number) => `${cx},${cy}`;

export function rectGrid<T extends Rect>(rects: Iterable<T>, cell = CELL): RectGrid<T> {
  const cells = new Map<string, T[]>();
  for (const r of rects) {
    const x0 = Math.floor(r.x / cell);
    const x1 = Math.floor((r.x + r.width) / cell);
    const y0 = Math.floor(r.y / cell);
    const y1 = Math.floor((r.y + r.height) / cell);
    for (let cx = x0; cx <= x1; cx++)
      for (let cy = y0; cy <= y1; cy++) {
        const k = key(cx, cy);
        const list = cells.get(k);
        if (list) list.push(r);
        else cells.set(k, [r]);
      }
  }
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
