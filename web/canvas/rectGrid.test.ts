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
