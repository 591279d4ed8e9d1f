import { describe, expect, it } from 'vitest';
import { freeSpot, NEW_NODE_SIZE, spotBeside } from './placement.ts';

const box = (x: number, y: number) => ({ x, y, ...NEW_NODE_SIZE });
const overlap = (a: ReturnType<typeof box>, b: ReturnType<typeof box>) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

describe('freeSpot: where a new node goes', () => {
  it('goes right of the selection when that is free', () => {
    const nodes = [box(0, 0)];
    const spot = freeSpot(nodes, nodes[0]);
    expect(spot.x).toBeGreaterThan(NEW_NODE_SIZE.width);
    expect(spot.y).toBe(0);
  });

  it('never covers a node, however crowded the places beside the selection are', () => {
    const nodes = [
      box(0, 0),
      box(240, 0),
      box(240, 120),
      box(240, -120),
      box(0, 120),
      box(0, -120),
    ];
    const spot = box(freeSpot(nodes, nodes[0]).x, freeSpot(nodes, nodes[0]).y);
    for (const n of nodes) expect(overlap(spot, n)).toBe(false);
  });

  it('with nothing selected goes beside the last node; in an empty flow, at the fallback', () => {
    expect(freeSpot([box(0, 0), box(400, 200)], undefined).y).toBe(200);
    expect(freeSpot([], undefined, NEW_NODE_SIZE, { x: 41, y: 59 })).toEqual({ x: 40, y: 60 });
  });
});

describe('spotBeside: where a paste goes', () => {
  it('goes right of its source, and twenty pastes stay within three rings of it, covering none', () => {
    const source = box(0, 0);
    const nodes = [source];
    for (let n = 0; n < 20; n++) {
      const spot = box(spotBeside(nodes, source).x, spotBeside(nodes, source).y);
      if (n === 0) expect(spot).toMatchObject({ x: 240, y: 0 }); // 170 + 60, on the 20 px grid
      for (const other of nodes) expect(overlap(spot, other)).toBe(false);
      expect(Math.abs(spot.x)).toBeLessThanOrEqual(3 * (NEW_NODE_SIZE.width + 60));
      expect(Math.abs(spot.y)).toBeLessThanOrEqual(3 * (NEW_NODE_SIZE.height + 30) + 20);
      nodes.push(spot);
    }
  });
});
