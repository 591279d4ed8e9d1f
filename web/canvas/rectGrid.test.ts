import { describe, expect, it } from 'vitest';
import { overlaps } from '../designer/edgeGeometry.ts';
import { boxAround, rectGrid } from './rectGrid.ts';

describe('rectGrid: labels look only at the nodes near them', () => {
  // A seeded spread of boxes, some across cell borders, some at negative coordinates.
  const rects = Array.from({ length: 400 }, (_, i) => ({
    x: ((i * 7919) % 6000) - 1000,
    y: ((i * 104729) % 4000) - 800,
    width: 120 + (i % 5) * 30,
    height: 60 + (i % 3) * 25,
  }));
  const grid = rectGrid(rects, 200);

  it('finds every box that overlaps a query, each once', () => {
    for (const box of [
      { x: 0, y: 0, width: 300, height: 100 },
      { x: -900, y: -700, width: 50, height: 50 },
      { x: 2500, y: 1000, width: 900, height: 700 },
    ]) {
      const near = grid.near(box);
      expect(new Set(near).size).toBe(near.length);
      const hit = rects.filter((r) => overlaps(r, box));
      for (const r of hit) expect(near).toContain(r);
      // And far fewer than all of them.
      expect(near.length).toBeLessThan(rects.length / 2);
    }
  });

  it('overlapping: exactly the boxes that overlap and pass the test, each once', () => {
    const box = { x: 2500, y: 1000, width: 900, height: 700 };
    const keep = (r: (typeof rects)[number]) => r.width !== 120;
    const found = grid.overlapping(box, Infinity, keep);
    expect(new Set(found)).toEqual(new Set(rects.filter((r) => overlaps(r, box) && keep(r))));
    expect(new Set(found).size).toBe(found.length);
  });

  it('overlapping: stops once more than the limit are found (a query over the whole canvas)', () => {
    const everywhere = { x: -2000, y: -2000, width: 10_000, height: 8000 };
    expect(rects.filter((r) => overlaps(r, everywhere))).toHaveLength(rects.length);
    expect(grid.overlapping(everywhere, 5, () => true)).toHaveLength(6);
  });

  it('finds nothing where there is nothing', () => {
    expect(grid.near({ x: 100_000, y: 100_000, width: 10, height: 10 })).toEqual([]);
  });

  it('boxes points with a margin', () => {
    expect(
      boxAround(
        [
          { x: 10, y: 20 },
          { x: 50, y: -5 },
        ],
        4,
      ),
    ).toEqual({ x: 6, y: -9, width: 48, height: 33 });
  });
});

describe('rectGrid: surelyOverlapping counts without looking', () => {
  // A grid of nodes as a large flow's import places them, and some larger boxes across cells.
  const rects = [
    ...Array.from({ length: 600 }, (_, i) => ({
      x: (i % 30) * 240 - 800,
      y: Math.floor(i / 30) * 140 - 300,
      width: 170,
      height: 90,
    })),
    { x: 500, y: 500, width: 900, height: 3000 },
    { x: -2000, y: 100, width: 0, height: 0 },
  ];
  const grid = rectGrid(rects);
  const queries = Array.from({ length: 200 }, (_, i) => ({
    x: ((i * 7919) % 7000) - 1500,
    y: ((i * 104729) % 3000) - 700,
    width: (i * 37) % 5000,
    height: (i * 53) % 2500,
  }));

  it('rule: never more than overlap, and exactly the boxes with a corner in a cell wholly inside', () => {
    const CELL = 320;
    for (const q of queries) {
      const overlapping = rects.filter((r) => overlaps(r, q)).length;
      const counted = grid.surelyOverlapping(q);
      expect(counted).toBeLessThanOrEqual(overlapping);
      const inside = (v: number, from: number, size: number) =>
        Math.floor(v / CELL) > Math.floor(from / CELL) &&
        Math.floor(v / CELL) < Math.floor((from + size) / CELL);
      expect(counted).toBe(
        rects.filter((r) => inside(r.x, q.x, q.width) && inside(r.y, q.y, q.height)).length,
      );
    }
  });

  it('rule: a rectangle over most of the grid counts most of it', () => {
    expect(
      grid.surelyOverlapping({ x: -1000, y: -500, width: 8000, height: 3500 }),
    ).toBeGreaterThan(500);
  });
});
