/**
 * Edges that go round node boxes (issue 26, point 7): the canvas's curve where it passes no node,
 * and otherwise an orthogonal path through the gaps between the boxes near it. Pure geometry: the
 * canvas, the picture export and the tests route with the same functions.
 */
import {
  forwardRoute,
  loopRoute,
  overlaps,
  roundedPolyline,
  type Point,
  type Rect,
  type Route,
} from './edgeGeometry.ts';

/** A route, with the polyline it follows (a curve's samples, or a path's corners). */
export interface RoutedPath extends Route {
  points: Point[];
}

/** How far a routed path keeps from a box it passes: room for a label (24 px high) beside it. */
export const CLEARANCE = 20;
/** A path counts as crossing a box when it comes this close to it or closer. */
const TOUCH = 4;
/** How far a path runs straight out of its source and into its target before turning. */
const STUB = 20;
/** What a turn costs, in pixels of length: fewer bends beat slightly shorter paths. */
const BEND = 60;
/**
 * At most this many boxes are routed round, so that a frame's work stays bounded: an edge with
 * more near it keeps its curve (auto-layout leaves none of the examples so).
 */
export const MAX_OBSTACLES = 32;
/** How far beyond the box of its ends a path may go looking for a way round, then twice that. */
const REACH = 120;

/**
 * Whether the segment from `a` to `b` has a part of positive length inside `r`, or a point in its
 * open inside: touching a side or a corner is not crossing (Liang–Barsky clipping).
 */
export function segmentCrossesRect(a: Point, b: Point, r: Rect): boolean {
  if (r.width <= 0 || r.height <= 0) return false;
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  let t0 = 0;
  let t1 = 1;
  const sides: [number, number][] = [
    [-dx, a.x - r.x],
    [dx, r.x + r.width - a.x],
    [-dy, a.y - r.y],
    [dy, r.y + r.height - a.y],
  ];
  for (const [p, q] of sides) {
    if (p === 0) {
      // Parallel to this side: inside only strictly within it (running along a side is outside).
      if (q <= 0) return false;
      continue;
    }
    const t = q / p;
    if (p < 0) {
      if (t > t1) return false;
      if (t > t0) t0 = t;
    } else {
      if (t < t0) return false;
      if (t < t1) t1 = t;
    }
  }
  // A single point of contact (a corner grazed) has t0 === t1; a point segment inside has 0..1.
  return t0 < t1 || (dx === 0 && dy === 0);
}

/** Whether a polyline crosses a box (segmentCrossesRect for each of its segments). */
export function polylineCrossesRect(points: readonly Point[], r: Rect): boolean {
  for (let i = 1; i < points.length; i++)
    if (segmentCrossesRect(points[i - 1]!, points[i]!, r)) return true;
  return false;
}

const grow = (r: Rect, by: number): Rect => ({
  x: r.x - by,
  y: r.y - by,
  width: r.width + 2 * by,
  height: r.height + 2 * by,
});

const boundsOf = (points: readonly Point[], margin: number): Rect => {
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const p of points) {
    x0 = Math.min(x0, p.x);
    y0 = Math.min(y0, p.y);
    x1 = Math.max(x1, p.x);
    y1 = Math.max(y1, p.y);
  }
  return {
    x: x0 - margin,
    y: y0 - margin,
    width: x1 - x0 + 2 * margin,
    height: y1 - y0 + 2 * margin,
  };
};

/** The boxes a polyline crosses, grown by TOUCH (so grazing one counts). */
function crossed(points: readonly Point[], boxes: readonly Rect[]): boolean {
  return boxes.some((b) => polylineCrossesRect(points, grow(b, TOUCH)));
}

/** A small binary heap of [cost, state] pairs, cheapest first. */
class Heap {
  private items: [number, number][] = [];
  get size() {
    return this.items.length;
  }
  push(item: [number, number]) {
    const a = this.items;
    a.push(item);
    let i = a.length - 1;
    while (i > 0) {
      const up = (i - 1) >> 1;
      if (a[up]![0] <= a[i]![0]) break;
      [a[up], a[i]] = [a[i]!, a[up]!];
      i = up;
    }
  }
  pop(): [number, number] {
    const a = this.items;
    const top = a[0]!;
    const last = a.pop()!;
    if (a.length > 0) {
      a[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && a[l]![0] < a[m]![0]) m = l;
        if (r < a.length && a[r]![0] < a[m]![0]) m = r;
        if (m === i) break;
        [a[m], a[i]] = [a[i]!, a[m]!];
        i = m;
      }
    }
    return top;
  }
}

const sortedUnique = (values: number[]) =>
  [...new Set(values.map((v) => Math.round(v * 10) / 10))].sort((a, b) => a - b);

/**
 * The shortest path with the fewest bends from `source` (leaving right) to `target` (entering
 * from the left) that keeps CLEARANCE from every box, along lines CLEARANCE off the boxes' sides
 * (so it runs down the middle of the usual gaps); undefined when there is none within reach.
 */
export function orthogonalPath(
  source: Point,
  target: Point,
  boxes: readonly Rect[],
): Point[] | undefined {
  const from = { x: source.x + STUB, y: source.y };
  const to = { x: target.x - STUB, y: target.y };
  // Hard walls a little inside the lines the path runs on, so a path on a line is clear.
  const walls = boxes.map((b) => grow(b, CLEARANCE - TOUCH));
  if (crossed([source, from], boxes) || crossed([to, target], boxes)) return undefined;
  const xs = sortedUnique([
    from.x,
    to.x,
    ...boxes.flatMap((b) => [b.x - CLEARANCE, b.x + b.width + CLEARANCE]),
  ]);
  const ys = sortedUnique([
    from.y,
    to.y,
    ...boxes.flatMap((b) => [b.y - CLEARANCE, b.y + b.height + CLEARANCE]),
  ]);
  const nx = xs.length;
  const ny = ys.length;
  const inWall = (x: number, y: number) =>
    walls.some((w) => x > w.x && x < w.x + w.width && y > w.y && y < w.y + w.height);
  const open = new Uint8Array(nx * ny);
  for (let j = 0; j < ny; j++)
    for (let i = 0; i < nx; i++) open[j * nx + i] = inWall(xs[i]!, ys[j]!) ? 0 : 1;
  // Whether the step from a point to its right (or lower) neighbour is clear, checked once.
  const rightClear = new Uint8Array(nx * ny);
  const downClear = new Uint8Array(nx * ny);
  for (let j = 0; j < ny; j++)
    for (let i = 0; i < nx; i++) {
      const k = j * nx + i;
      if (!open[k]) continue;
      const p = { x: xs[i]!, y: ys[j]! };
      if (i + 1 < nx && open[k + 1])
        rightClear[k] = walls.some((w) => segmentCrossesRect(p, { x: xs[i + 1]!, y: p.y }, w))
          ? 0
          : 1;
      if (j + 1 < ny && open[k + nx])
        downClear[k] = walls.some((w) => segmentCrossesRect(p, { x: p.x, y: ys[j + 1]! }, w))
          ? 0
          : 1;
    }
  const at = (p: Point) =>
    ys.indexOf(Math.round(p.y * 10) / 10) * nx + xs.indexOf(Math.round(p.x * 10) / 10);
  const start = at(from);
  const goal = at(to);
  if (!open[start] || !open[goal]) return undefined;
  // A state is a point and the direction it was reached in: 0 right, 1 left, 2 down, 3 up.
  const cost = new Float64Array(nx * ny * 4).fill(Infinity);
  const back = new Int32Array(nx * ny * 4).fill(-1);
  const heap = new Heap();
  cost[start * 4] = 0;
  heap.push([0, start * 4]);
  let reached = -1;
  let best = Infinity;
  while (heap.size > 0) {
    const [c, state] = heap.pop();
    if (c >= best) break;
    if (c > cost[state]!) continue;
    const k = state >> 2;
    const dir = state & 3;
    if (k === goal) {
      // The path enters its target going right: arriving otherwise costs one more bend.
      const total = c + (dir === 0 ? 0 : BEND);
      if (total < best) [best, reached] = [total, state];
      continue;
    }
    const i = k % nx;
    const j = (k - i) / nx;
    const steps: [number, number, boolean][] = [
      [k + 1, 0, i + 1 < nx && rightClear[k] === 1],
      [k - 1, 1, i > 0 && rightClear[k - 1] === 1],
      [k + nx, 2, j + 1 < ny && downClear[k] === 1],
      [k - nx, 3, j > 0 && downClear[k - nx] === 1],
    ];
    for (const [next, d, ok] of steps) {
      if (!ok) continue;
      // Never straight back the way it came.
      if ((dir ^ 1) === d) continue;
      const length =
        d < 2
          ? Math.abs(xs[next % nx]! - xs[i]!)
          : Math.abs(ys[(next - (next % nx)) / nx]! - ys[j]!);
      const nc = c + length + (d === dir ? 0 : BEND);
      const ns = next * 4 + d;
      if (nc < cost[ns]!) {
        cost[ns] = nc;
        back[ns] = state;
        heap.push([nc, ns]);
      }
    }
  }
  if (reached < 0) return undefined;
  const corners: Point[] = [target];
  let state = reached;
  let lastDir = 0;
  while (state >= 0) {
    const k = state >> 2;
    const dir = state & 3;
    const p = { x: xs[k % nx]!, y: ys[Math.floor(k / nx)]! };
    // Keep only the points where the direction changes (and the ends).
    if (dir !== lastDir || back[state]! < 0) corners.push(p);
    lastDir = dir;
    state = back[state]!;
  }
  corners.push(source);
  return corners.reverse().filter((p, n, all) => {
    const prev = all[n - 1];
    return !prev || prev.x !== p.x || prev.y !== p.y;
  });
}

/** Where a label may go on a path: the middles of its horizontal runs, longest first. */
function labelPlaces(points: readonly Point[]): Point[] {
  const runs: { at: Point; length: number }[] = [];
  for (let i = 1; i < points.length; i++) {
    const [a, b] = [points[i - 1]!, points[i]!];
    // Ends are the handles' points, the corners grid lines rounded to a tenth of a pixel.
    if (Math.abs(a.y - b.y) > 0.5) continue;
    const length = Math.abs(b.x - a.x);
    runs.push({ at: { x: (a.x + b.x) / 2, y: a.y }, length });
    runs.push({ at: { x: a.x + (b.x - a.x) / 4, y: a.y }, length: length / 2 });
    runs.push({ at: { x: a.x + ((b.x - a.x) * 3) / 4, y: a.y }, length: length / 2 });
  }
  runs.sort((a, b) => b.length - a.length);
  return runs.length > 0 ? runs.map((r) => r.at) : [points[Math.floor(points.length / 2)]!];
}

const CURVE_SAMPLES = 24;

/** The points of an SVG path made of M, L, Q and C commands, curves sampled. */
export function pathPoints(d: string): Point[] {
  const out: Point[] = [];
  const tokens = d.match(/[MLQC]|-?[\d.]+(?:e-?\d+)?/g) ?? [];
  let i = 0;
  let cmd = '';
  let cur: Point = { x: 0, y: 0 };
  const num = () => Number(tokens[i++]);
  while (i < tokens.length) {
    if (/[MLQC]/.test(tokens[i]!)) cmd = tokens[i++]!;
    if (cmd === 'M' || cmd === 'L') {
      cur = { x: num(), y: num() };
      out.push(cur);
    } else if (cmd === 'Q' || cmd === 'C') {
      const ctrl: Point[] = [cur];
      const count = cmd === 'Q' ? 2 : 3;
      for (let n = 0; n < count; n++) ctrl.push({ x: num(), y: num() });
      for (let s = 1; s <= CURVE_SAMPLES; s++) out.push(bezierAt(ctrl, s / CURVE_SAMPLES));
      cur = ctrl.at(-1)!;
    } else break;
  }
  return out;
}

/**
 * The points pathPoints reads from forwardRoute's path, found without writing the path and
 * parsing it back: its control points as the path writes them (to a tenth of a pixel), and the
 * cubic sampled as bezierAt samples it, operation for operation, so the numbers are the same.
 * Every edge of a large flow is sampled so when its route is found.
 */
export function curvePoints(source: Point, target: Point, fan = 0): Point[] {
  const out: Point[] = [];
  eachCurvePoint(source, target, fan, (x, y) => out.push({ x, y }));
  return out;
}

/** curvePoints' points one by one, made into no objects. */
function eachCurvePoint(
  source: Point,
  target: Point,
  fan: number,
  visit: (x: number, y: number) => void,
): void {
  // As forwardRoute places them, rounded as it prints them (`+ 0`: "-0" reads back as 0).
  const f = (n: number) => Math.round(n * 10) / 10 + 0;
  const reach = Math.max(40, Math.abs(target.x - source.x) / 2);
  const lift = fan / 0.75;
  const [x0, y0] = [f(source.x), f(source.y)];
  const [x1, y1] = [f(source.x + reach), f(source.y + lift)];
  const [x2, y2] = [f(target.x - reach), f(target.y + lift)];
  const [x3, y3] = [f(target.x), f(target.y)];
  visit(x0, y0);
  for (let s = 1; s <= CURVE_SAMPLES; s++) {
    const t = s / CURVE_SAMPLES;
    const ax = x0 + (x1 - x0) * t;
    const ay = y0 + (y1 - y0) * t;
    const bx = x1 + (x2 - x1) * t;
    const by = y1 + (y2 - y1) * t;
    const cx = x2 + (x3 - x2) * t;
    const cy = y2 + (y3 - y2) * t;
    const dx = ax + (bx - ax) * t;
    const dy = ay + (by - ay) * t;
    const ex = bx + (cx - bx) * t;
    const ey = by + (cy - by) * t;
    visit(dx + (ex - dx) * t, dy + (ey - dy) * t);
  }
}

/** The area a forward curve asks about: its samples' box (curvePoints) with CLEARANCE round it. */
function curveArea(source: Point, target: Point, fan: number): Rect {
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const p of curvePoints(source, target, fan)) {
    x0 = Math.min(x0, p.x);
    y0 = Math.min(y0, p.y);
    x1 = Math.max(x1, p.x);
    y1 = Math.max(y1, p.y);
  }
  return boundsOf(
    [
      { x: x0, y: y0 },
      { x: x1, y: y1 },
    ],
    CLEARANCE,
  );
}

/** A forward curve as the route, its points sampled when first read. */
function plainCurve(source: Point, target: Point, fan: number): RoutedPath {
  const usual = forwardRoute(source, target, fan);
  let points: Point[] | undefined;
  return {
    ...usual,
    get points() {
      return (points ??= curvePoints(source, target, fan));
    },
  };
}

function bezierAt(ctrl: readonly Point[], t: number): Point {
  let pts = [...ctrl];
  while (pts.length > 1)
    pts = pts.slice(1).map((p, n) => ({
      x: pts[n]!.x + (p.x - pts[n]!.x) * t,
      y: pts[n]!.y + (p.y - pts[n]!.y) * t,
    }));
  return pts[0]!;
}

/** What an edge is routed from: its ends, its fan offset, and for a loop's closing edge its loop. */
export interface EdgeEnds {
  source: Point;
  target: Point;
  fan?: number;
  loop?: { bottom: number; depth: number } | undefined;
}

/**
 * What an edge is routed among: the boxes that may overlap a rectangle, without the edge's own
 * two nodes. It may stop looking once more than `limit` of them overlap it: the edge then keeps
 * its curve whatever the rest are, and only their number is read, so the answer may then be any
 * `limit + 1` rectangles that overlap it (the canvas counts them without finding them).
 */
export type NearBoxes = (box: Rect, limit: number) => readonly Rect[];

/**
 * An edge's route among boxes: its usual shape (a curve forward, round its loop for a closing
 * edge) when that crosses none of them, otherwise the orthogonal path round them, when one is
 * found.
 */
export function routeEdge(ends: EdgeEnds, near: NearBoxes): RoutedPath {
  const { source, target, fan = 0, loop } = ends;
  const loopPath = loop && loopRoute(source, target, loop.bottom, loop.depth);
  const loopPoints = loopPath && pathPoints(loopPath.path);
  const area = loopPoints ? boundsOf(loopPoints, CLEARANCE) : curveArea(source, target, fan);
  const found = near(area, MAX_OBSTACLES);
  let count = 0;
  for (const b of found) if (overlaps(area, b)) count++;
  // The windows below hold this area (REACH > CLEARANCE), so they would hold more boxes than
  // are routed round too: the curve is the answer, found without looking at every box under a
  // long edge (a split into 10,000 branches drew 10,000 edges, each over most of the flow), and
  // its points are sampled only if asked for.
  if (count > MAX_OBSTACLES)
    return loopPath ? { ...loopPath, points: loopPoints! } : plainCurve(source, target, fan);
  const usual = loopPath ?? forwardRoute(source, target, fan);
  const points = loopPoints ?? curvePoints(source, target, fan);
  const plain: RoutedPath = { ...usual, points };
  const inWay = found.filter((b) => overlaps(area, b));
  if (!crossed(points, inWay)) return plain;
  for (const reach of [REACH, 2 * REACH]) {
    const window = boundsOf([source, target, ...points], reach);
    const boxes = near(window, MAX_OBSTACLES).filter((b) => overlaps(window, b));
    if (boxes.length > MAX_OBSTACLES) return plain;
    const path = orthogonalPath(source, target, boxes);
    if (path) return { path: roundedPolyline(path), labelAt: labelPlaces(path), points: path };
  }
  return plain;
}
