import { describe, expect, it } from 'vitest';
import { freeSpot, NEW_NODE_SIZE, spotAfter, spotBeside } from './placement.ts';

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

describe('spotAfter: a node added from the connect list lands after its source (issue 26, point 7)', () => {
  const source = box(0, 0);

  it('goes right of its source, in its row, when that is free', () => {
    const spot = spotAfter([source], source);
    expect(spot.x).toBeGreaterThanOrEqual(source.x + source.width);
    expect(spot.y).toBe(0);
  });

  it('takes the place a connection was dropped at when it is right of the source and free', () => {
    expect(spotAfter([source], source, { x: 400, y: 200 })).toEqual({ x: 400, y: 200 });
  });

  it('refuses a drop left of, or on, the source, and goes right of it instead', () => {
    for (const dropped of [
      { x: -400, y: 0 },
      { x: 20, y: 20 },
      { x: 0, y: 300 },
    ]) {
      const spot = spotAfter([source], source, dropped);
      expect(spot.x, JSON.stringify(dropped)).toBeGreaterThanOrEqual(source.x + source.width);
    }
  });

  it('goes to a row above or below, still right of the source, when its row is taken', () => {
    const taken = [source, box(240, 0)];
    const spot = spotAfter(taken, source);
    expect(spot.x).toBeGreaterThanOrEqual(source.x + source.width);
    for (const n of taken) expect(overlap(box(spot.x, spot.y), n)).toBe(false);
    expect(spot.y).not.toBe(0);
  });

  it('goes to a further column when every row of the first is taken, never left of the source', () => {
    const column = [-4, -3, -2, -1, 0, 1, 2, 3, 4].map((i) => box(240, i * 120));
    const spot = spotAfter([source, ...column], source);
    expect(spot.x).toBeGreaterThan(240 + NEW_NODE_SIZE.width);
    for (const n of column) expect(overlap(box(spot.x, spot.y), n)).toBe(false);
  });
});
