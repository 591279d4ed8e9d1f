import { describe, expect, it } from 'vitest';
import { forwardRoute, type Rect } from './edgeGeometry.ts';
import {
  CLEARANCE,
  curvePoints,
  MAX_OBSTACLES,
  orthogonalPath,
  pathPoints,
  polylineCrossesRect,
  routeEdge,
  segmentCrossesRect,
} from './edgeRouting.ts';

const box: Rect = { x: 100, y: 100, width: 100, height: 50 };
const p = (x: number, y: number) => ({ x, y });

describe('a segment crosses a box only through its inside', () => {
  it('crosses when it passes through, straight or slanting', () => {
    expect(segmentCrossesRect(p(0, 125), p(300, 125), box)).toBe(true);
    expect(segmentCrossesRect(p(150, 0), p(150, 300), box)).toBe(true);
    expect(segmentCrossesRect(p(90, 90), p(210, 160), box)).toBe(true);
  });

  it('crosses when one end, or all of it, is inside', () => {
    expect(segmentCrossesRect(p(150, 125), p(400, 400), box)).toBe(true);
    expect(segmentCrossesRect(p(120, 110), p(180, 140), box)).toBe(true);
    // A segment of no length, inside.
    expect(segmentCrossesRect(p(150, 125), p(150, 125), box)).toBe(true);
  });

  it('does not cross when it runs along a side, touches a corner, or stops at a side', () => {
    expect(segmentCrossesRect(p(0, 100), p(300, 100), box)).toBe(false);
    expect(segmentCrossesRect(p(200, 0), p(200, 300), box)).toBe(false);
    expect(segmentCrossesRect(p(50, 50), p(100, 100), box)).toBe(false);
    expect(segmentCrossesRect(p(150, 200), p(250, 100), box)).toBe(false);
    expect(segmentCrossesRect(p(0, 125), p(100, 125), box)).toBe(false);
    expect(segmentCrossesRect(p(150, 125), p(150, 125), { ...box, width: 0 })).toBe(false);
  });

  it('does not cross when it passes beside, above or short of it', () => {
    expect(segmentCrossesRect(p(0, 99), p(300, 99), box)).toBe(false);
    expect(segmentCrossesRect(p(0, 125), p(99, 125), box)).toBe(false);
    expect(segmentCrossesRect(p(201, 125), p(300, 125), box)).toBe(false);
    // Its line would cross, the segment stops before.
    expect(segmentCrossesRect(p(0, 0), p(50, 50), box)).toBe(false);
  });

  it('checks every segment of a polyline', () => {
    expect(polylineCrossesRect([p(0, 0), p(300, 0), p(300, 125), p(150, 125)], box)).toBe(true);
    expect(polylineCrossesRect([p(0, 0), p(300, 0), p(300, 300)], box)).toBe(false);
  });
});

describe('an edge goes round the boxes of nodes it does not join', () => {
  it('reads the points of the paths it draws, curves sampled', () => {
    const pts = pathPoints('M0,0 L10,0 Q20,0 20,10 C20,20 30,30 40,30');
    expect(pts[0]).toEqual(p(0, 0));
    expect(pts[1]).toEqual(p(10, 0));
    expect(pts.at(-1)).toEqual(p(40, 30));
    expect(pts.length).toBe(2 + 24 + 24);
  });

  it('keeps its curve when the curve passes no box', () => {
    const route = routeEdge({ source: p(0, 0), target: p(300, 0) }, () => [
      { x: 100, y: 60, width: 100, height: 50 },
    ]);
    expect(route.path).toBe(forwardRoute(p(0, 0), p(300, 0)).path);
  });

  it('goes round a box in its way, keeping its clearance, and labels a horizontal run', () => {
    const inWay = { x: 100, y: -25, width: 100, height: 50 };
    const route = routeEdge({ source: p(0, 0), target: p(300, 0) }, () => [inWay]);
    expect(route.path).not.toBe(forwardRoute(p(0, 0), p(300, 0)).path);
    expect(route.points[0]).toEqual(p(0, 0));
    expect(route.points.at(-1)).toEqual(p(300, 0));
    const grown = {
      x: inWay.x - CLEARANCE + 1,
      y: inWay.y - CLEARANCE + 1,
      width: inWay.width + 2 * CLEARANCE - 2,
      height: inWay.height + 2 * CLEARANCE - 2,
    };
    expect(polylineCrossesRect(route.points, grown)).toBe(false);
    expect(polylineCrossesRect(pathPoints(route.path), inWay)).toBe(false);
    // Every segment is horizontal or vertical; the label sits on a horizontal one, clear of the box.
    for (let i = 1; i < route.points.length; i++) {
      const [a, b] = [route.points[i - 1]!, route.points[i]!];
      expect(a.x === b.x || a.y === b.y).toBe(true);
    }
    const label = route.labelAt[0]!;
    expect(Math.abs(label.y - inWay.y) >= 25 + CLEARANCE || label.y <= inWay.y - CLEARANCE).toBe(
      true,
    );
  });

  it('puts the label on the longest horizontal run, ends at fractions of a pixel included', () => {
    const credit = { x: 440, y: 80, width: 168, height: 94 };
    const route = routeEdge(
      { source: p(387.3333, 136.1234), target: p(674.4321, 206.0987) },
      () => [credit],
    );
    const label = route.labelAt[0]!;
    expect(label.y).toBeCloseTo(206.1, 0);
    expect(label.x).toBeGreaterThan(credit.x);
    expect(label.x).toBeLessThan(credit.x + credit.width);
  });

  it('goes through the gap between two boxes in a column rather than round both', () => {
    const above = { x: 100, y: -120, width: 100, height: 100 };
    const below = { x: 100, y: 30, width: 100, height: 100 };
    const path = orthogonalPath(p(0, 0), p(300, 40), [above, below])!;
    expect(path).toBeDefined();
    for (const b of [above, below]) expect(polylineCrossesRect(path, b)).toBe(false);
    const lowest = Math.max(...path.map((q) => q.y));
    const highest = Math.min(...path.map((q) => q.y));
    expect(highest).toBeGreaterThan(above.y + above.height);
    expect(lowest).toBeLessThan(below.y + below.height);
  });

  it('finds no path when a box sits on its source, and then keeps its curve', () => {
    const onSource = { x: 5, y: -20, width: 40, height: 40 };
    expect(orthogonalPath(p(0, 0), p(300, 0), [onSource])).toBeUndefined();
    const route = routeEdge({ source: p(0, 0), target: p(300, 0) }, () => [onSource]);
    expect(route.path).toBe(forwardRoute(p(0, 0), p(300, 0)).path);
  });

  it('routes a target behind its source (to its left) round both sides', () => {
    const inWay = { x: -150, y: -25, width: 100, height: 50 };
    const path = orthogonalPath(p(0, 0), p(-300, 0), [inWay])!;
    expect(polylineCrossesRect(path, inWay)).toBe(false);
    expect(path.at(-2)!.x).toBeLessThan(-300);
  });

  it('keeps its curve, unrouted, among more boxes than the bound', () => {
    const many = Array.from({ length: MAX_OBSTACLES + 1 }, (_, i) => ({
      x: 40 + i * 2,
      y: -10,
      width: 1,
      height: 20,
    }));
    const route = routeEdge({ source: p(0, 0), target: p(300, 0) }, () => many);
    expect(route.path).toBe(forwardRoute(p(0, 0), p(300, 0)).path);
  });

  it('asks once, bounded, when more boxes than the bound lie in its way: a long edge looks no further', () => {
    const many = Array.from({ length: MAX_OBSTACLES + 1 }, (_, i) => ({
      x: 40 + i * 2,
      y: -10,
      width: 1,
      height: 20,
    }));
    const asked: number[] = [];
    const route = routeEdge({ source: p(0, 0), target: p(300, 0) }, (_box, limit) => {
      asked.push(limit);
      return many;
    });
    expect(route.path).toBe(forwardRoute(p(0, 0), p(300, 0)).path);
    expect(asked).toEqual([MAX_OBSTACLES]);
  });
});

describe('curvePoints: a forward curve sampled without its path written and read back', () => {
  it('rule: gives exactly what pathPoints reads from forwardRoute, fans and fractions included', () => {
    let seed = 7;
    const next = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 4000 - 2000;
    for (let i = 0; i < 500; i++) {
      const source = { x: next(), y: next() };
      const target =
        i % 5 === 0 ? { x: source.x + 0.04, y: source.y - 0.03 } : { x: next(), y: next() };
      const fan = [0, 12, -12, 24.5][i % 4]!;
      expect(curvePoints(source, target, fan)).toEqual(
        pathPoints(forwardRoute(source, target, fan).path),
      );
    }
  });
});
