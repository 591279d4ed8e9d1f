import { describe, expect, it } from 'vitest';
import { routeEdge, type EdgeEnds } from '../designer/edgeRouting.ts';
import { keptRoute, routeHolds, type KeptRoutes } from './edgeRoutes.ts';
import { nodeBoxes, type NodeBoxes, type NodeRect } from './nodeBoxes.ts';

/** A seeded generator, so the scenario is the same on every run. */
function random(seed: number) {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

/** Nodes on a grid, as a large flow's import places them. */
const grid = (n: number, columns = 12): NodeRect[] =>
  Array.from({ length: n }, (_, i) => ({
    id: `n${i}`,
    x: (i % columns) * 240,
    y: Math.floor(i / columns) * 140,
    width: 170,
    height: 90,
  }));

const endsOf = (rects: readonly NodeRect[], from: number, to: number): EdgeEnds => ({
  source: { x: rects[from]!.x + 170, y: rects[from]!.y + 45 },
  target: { x: rects[to]!.x, y: rects[to]!.y + 45 },
});

/** Routing afresh, as the canvas did before it kept routes. */
const fresh = (ends: EdgeEnds, boxes: NodeBoxes, source: string, target: string) =>
  routeEdge(ends, (box, limit) =>
    boxes.grid.overlapping(box, limit, (r) => r.id !== source && r.id !== target),
  );

describe('keptRoute: a route is kept only while routing again would find it', () => {
  it('gives what routing afresh gives, after every measurement of a random few nodes', () => {
    const next = random(29);
    let rects = grid(120);
    let boxes = nodeBoxes(rects);
    const kept: KeptRoutes = new Map();
    // Short edges (routed round what is near) and long ones (more in their way than the bound).
    const edges = Array.from({ length: 30 }, (_, i) => {
      const from = Math.floor(next() * 120);
      const to = i % 3 === 0 ? Math.floor(next() * 120) : Math.min(119, from + 1 + (i % 13));
      return { id: `e${i}`, from, to };
    });
    for (let round = 0; round < 20; round++) {
      rects = rects.map((r) =>
        next() < 0.05
          ? { ...r, height: 60 + Math.floor(next() * 120), width: 120 + Math.floor(next() * 90) }
          : r,
      );
      boxes = nodeBoxes(rects, boxes);
      for (const e of edges) {
        const ends = endsOf(rects, e.from, e.to);
        const source = `n${e.from}`;
        const target = `n${e.to}`;
        expect(keptRoute(kept, e.id, source, target, ends, boxes)).toEqual(
          fresh(ends, boxes, source, target),
        );
      }
    }
  });

  it('keeps the same object when a node far from the edge is measured again', () => {
    const rects = grid(48);
    const first = nodeBoxes(rects);
    const kept: KeptRoutes = new Map();
    const ends = endsOf(rects, 0, 2);
    const route = keptRoute(kept, 'e', 'n0', 'n2', ends, first);
    const far = nodeBoxes(
      rects.map((r) => (r.id === 'n47' ? { ...r, height: 130 } : r)),
      first,
    );
    expect(keptRoute(kept, 'e', 'n0', 'n2', ends, far)).toBe(route);
  });

  it('routes again when a node in its way grows, and when its ends move', () => {
    const rects = grid(48);
    const first = nodeBoxes(rects);
    const kept: KeptRoutes = new Map();
    const ends = endsOf(rects, 0, 2);
    const route = keptRoute(kept, 'e', 'n0', 'n2', ends, first);
    // n1 stands between n0 and n2; taller, it is in the way of the curve.
    const grown = rects.map((r) => (r.id === 'n1' ? { ...r, y: -60, height: 300 } : r));
    const next = nodeBoxes(grown, first);
    const again = keptRoute(kept, 'e', 'n0', 'n2', ends, next);
    expect(again).not.toBe(route);
    expect(again).toEqual(fresh(ends, next, 'n0', 'n2'));
    const moved = { ...ends, target: { x: ends.target.x, y: ends.target.y + 40 } };
    expect(keptRoute(kept, 'e', 'n0', 'n2', moved, next)).toEqual(fresh(moved, next, 'n0', 'n2'));
  });

  it('routeHolds: the kept route holds for its same ends among boxes changed far from it, not near', () => {
    const rects = grid(48);
    const first = nodeBoxes(rects);
    const kept: KeptRoutes = new Map();
    keptRoute(kept, 'e', 'n0', 'n2', endsOf(rects, 0, 2), first);
    expect(routeHolds(kept, 'unknown', first)).toBe(false);
    const far = nodeBoxes(
      rects.map((r) => (r.id === 'n47' ? { ...r, height: 130 } : r)),
      first,
    );
    expect(routeHolds(kept, 'e', far)).toBe(true);
    const near = nodeBoxes(
      rects.map((r) => (r.id === 'n1' ? { ...r, y: -60, height: 300 } : r)),
      far,
    );
    expect(routeHolds(kept, 'e', near)).toBe(false);
  });
});
