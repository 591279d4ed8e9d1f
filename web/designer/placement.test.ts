import { describe, expect, it } from 'vitest';
import { freeSpot, NEW_NODE_SIZE } from './placement.ts';

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
