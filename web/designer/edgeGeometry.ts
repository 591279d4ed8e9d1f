/**
 * The shapes of a flow's edges, as pure geometry: the canvas draws them and the picture export
 * draws the same paths, so what a designer sees is what the picture shows.
 */

export interface Point {
  x: number;
  y: number;
}

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Route {
  /** An SVG path's `d`. */
  path: string;
  /** Where the label may go, best first: the first that covers no node is used. */
  labelAt: Point[];
}

/** How far apart the middles of parallel edges between one pair of nodes are drawn. */
export const FAN_SPACING = 26;
/** How far below the lowest node it spans a loop's closing edge runs; nested loops go further. */
export const LOOP_CLEARANCE = 36;
export const LOOP_STEP = 22;
const LOOP_REACH = 24;
const CORNER = 12;

const cubicAt = (p: [Point, Point, Point, Point], t: number): Point => {
  const u = 1 - t;
  const a = u * u * u;
  const b = 3 * u * u * t;
  const c = 3 * u * t * t;
  const d = t * t * t;
  return {
    x: a * p[0].x + b * p[1].x + c * p[2].x + d * p[3].x,
    y: a * p[0].y + b * p[1].y + c * p[2].y + d * p[3].y,
  };
};

const LABEL_TS = [0.5, 0.4, 0.6, 0.3, 0.7, 0.2, 0.8];

/**
 * A forward edge: a curve leaving the source to the right and entering the target from the left.
 * `fan` moves its middle that many pixels down (or up, negative), so parallel edges part.
 */
export function forwardRoute(source: Point, target: Point, fan = 0): Route {
  const reach = Math.max(40, Math.abs(target.x - source.x) / 2);
  // The middle of a cubic moves by 3/4 of what both control points move.
  const lift = fan / 0.75;
  const p: [Point, Point, Point, Point] = [
    source,
    { x: source.x + reach, y: source.y + lift },
    { x: target.x - reach, y: target.y + lift },
    target,
  ];
  const f = (n: number) => Math.round(n * 10) / 10;
  return {
    path: `M${f(p[0].x)},${f(p[0].y)} C${f(p[1].x)},${f(p[1].y)} ${f(p[2].x)},${f(p[2].y)} ${f(p[3].x)},${f(p[3].y)}`,
    labelAt: LABEL_TS.map((t) => cubicAt(p, t)),
  };
}

/** A polyline with its corners rounded, as a path. */
export function roundedPolyline(points: readonly Point[], radius = CORNER): string {
  const f = (n: number) => Math.round(n * 10) / 10;
  let d = `M${f(points[0]!.x)},${f(points[0]!.y)}`;
  for (let i = 1; i < points.length - 1; i++) {
    const [a, b, c] = [points[i - 1]!, points[i]!, points[i + 1]!];
    const inLen = Math.hypot(b.x - a.x, b.y - a.y);
    const outLen = Math.hypot(c.x - b.x, c.y - b.y);
    const r = Math.min(radius, inLen / 2, outLen / 2);
    if (r <= 0) {
      d += ` L${f(b.x)},${f(b.y)}`;
      continue;
    }
    const p1 = { x: b.x + ((a.x - b.x) / inLen) * r, y: b.y + ((a.y - b.y) / inLen) * r };
    const p2 = { x: b.x + ((c.x - b.x) / outLen) * r, y: b.y + ((c.y - b.y) / outLen) * r };
    d += ` L${f(p1.x)},${f(p1.y)} Q${f(b.x)},${f(b.y)} ${f(p2.x)},${f(p2.y)}`;
  }
  const last = points[points.length - 1]!;
  return `${d} L${f(last.x)},${f(last.y)}`;
}

/**
 * A loop's closing edge, routed around the nodes it spans: out of the source to the right, down
 * below `bottom` (the lowest edge of those nodes), back under them, and up into the head from
 * its left. `depth` (nesting, or the index among closing edges into one head) takes it lower.
 */
export function loopRoute(source: Point, target: Point, bottom: number, depth = 0): Route {
  const below = Math.max(bottom, source.y, target.y) + LOOP_CLEARANCE + depth * LOOP_STEP;
  const out = source.x + LOOP_REACH + depth * 6;
  const back = target.x - LOOP_REACH - depth * 6;
  const points = [
    source,
    { x: out, y: source.y },
    { x: out, y: below },
    { x: back, y: below },
    { x: back, y: target.y },
    target,
  ];
  const mid = (out + back) / 2;
  return {
    path: roundedPolyline(points),
    labelAt: [
      { x: mid, y: below },
      { x: (mid + out) / 2, y: below },
      { x: (mid + back) / 2, y: below },
    ],
  };
}

/** Whether two boxes share some area (touching edges do not). */
export const overlaps = (a: Rect, b: Rect) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** The box of a label of a size centred on a point. */
export const labelBox = (at: Point, size: { width: number; height: number }): Rect => ({
  x: at.x - size.width / 2,
  y: at.y - size.height / 2,
  width: size.width,
  height: size.height,
});

/**
 * The index of the first place for a label whose box covers none of `nodes` (with a margin);
 * failing that, the one that covers the fewest.
 */
export function pickLabelPlace(
  places: readonly Point[],
  size: { width: number; height: number },
  nodes: Iterable<Rect>,
  margin = 4,
): number {
  const rects = [...nodes];
  let best = 0;
  let bestHits = Infinity;
  places.forEach((at, i) => {
    if (bestHits === 0) return;
    const box = labelBox(at, { width: size.width + 2 * margin, height: size.height + 2 * margin });
    const hits = rects.filter((r) => overlaps(box, r)).length;
    if (hits < bestHits) {
      best = i;
      bestHits = hits;
    }
  });
  return best;
}

/**
 * A label's size on the canvas, estimated from its text (the canvas's labels and the picture's
 * use the same font size), so a place can be chosen before it is drawn.
 */
export function labelSize(text: string): { width: number; height: number } {
  return { width: Math.ceil(text.length * 7.4 + 18), height: 24 };
}

/**
 * Each edge's offset among the edges between the same pair of nodes (in either direction, from
 * the same handle or not): 0 for a lone edge, then ±FAN_SPACING/2… so the bundle is centred.
 */
export function fanOffsets(
  edges: readonly { id: string; source: string; target: string }[],
): Map<string, number> {
  const groups = new Map<string, string[]>();
  for (const e of edges) {
    const key = e.source < e.target ? `${e.source}\n${e.target}` : `${e.target}\n${e.source}`;
    groups.set(key, [...(groups.get(key) ?? []), e.id]);
  }
  const out = new Map<string, number>();
  for (const ids of groups.values()) {
    ids.forEach((id, i) => out.set(id, (i - (ids.length - 1) / 2) * FAN_SPACING));
  }
  return out;
}
