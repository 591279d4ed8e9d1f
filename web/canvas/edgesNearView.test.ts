import { describe, expect, it } from 'vitest';
import { edgesNear, edgesNearView, edgesToHand, regionKey, regionOf } from './edgesNearView.ts';

const node = (id: string, x: number, y: number) => ({
  id,
  position: { x, y },
  measured: { width: 100, height: 50 },
});
const edge = (source: string, target: string) => ({ id: `${source}-${target}`, source, target });

describe('edgesNear', () => {
  const nodes = [
    node('a', 0, 0),
    node('b', 300, 0),
    node('far', 5000, 5000),
    node('far2', 6000, 5000),
  ];

  it('rule: an edge whose ends reach into the region is kept, one far from it is not', () => {
    const near = edgesNear([edge('a', 'b'), edge('far', 'far2')], nodes, [-50, -50, 500, 200]);
    expect(near.map((e) => e.id)).toEqual(['a-b']);
  });

  it('rule: an edge that only passes through the region (both ends outside) is kept', () => {
    const across = edgesNear([edge('a', 'far')], nodes, [1000, 1000, 1200, 1200]);
    expect(across).toHaveLength(1);
  });

  it('rule: a selected edge is kept wherever it is (Delete removes what React Flow holds)', () => {
    const far = { ...edge('far', 'far2'), selected: true };
    expect(edgesNear([far], nodes, [-50, -50, 500, 200])).toEqual([far]);
  });

  it('rule: an edge with an end that has no box is kept, for React Flow to judge', () => {
    expect(edgesNear([edge('far', 'nowhere')], nodes, [-50, -50, 500, 200])).toHaveLength(1);
  });
});

describe('regionKey', () => {
  const at = (x: number, y: number, zoom = 1) => ({
    transform: [-x * zoom, -y * zoom, zoom] as [number, number, number],
    width: 800,
    height: 600,
  });

  it('rule: the region holds the view with room on every side, and stays the same for a small pan', () => {
    const key = regionKey(at(1000, 500));
    const [left, top, right, bottom] = regionOf(key)!;
    expect(left).toBeLessThan(1000);
    expect(top).toBeLessThan(500);
    expect(right).toBeGreaterThan(1000 + 800);
    expect(bottom).toBeGreaterThan(500 + 600);
    expect(regionKey(at(1010, 520))).toBe(key);
  });

  it('rule: a pan that leaves its cell gives a new region that still holds the view', () => {
    const moved = regionKey(at(1500, 900));
    expect(moved).not.toBe(regionKey(at(1000, 500)));
    const [left, top, right, bottom] = regionOf(moved)!;
    expect(left).toBeLessThan(1500);
    expect(right).toBeGreaterThan(1500 + 800);
    expect(top).toBeLessThan(900);
    expect(bottom).toBeGreaterThan(900 + 600);
  });

  it('rule: a view at any pan and zoom lies inside its region', () => {
    for (const zoom of [0.5, 0.9, 1.7])
      for (const x of [-3000, -1, 0, 77, 1234.5, 9000])
        for (const y of [-800, 0, 333, 7000]) {
          const [left, top, right, bottom] = regionOf(regionKey(at(x, y, zoom)))!;
          expect(left).toBeLessThanOrEqual(x);
          expect(top).toBeLessThanOrEqual(y);
          expect(right).toBeGreaterThanOrEqual(x + 800 / zoom);
          expect(bottom).toBeGreaterThanOrEqual(y + 600 / zoom);
        }
  });

  it('rule: before the pane has a size there is no region: every edge is handed over', () => {
    expect(regionOf(regionKey({ transform: [0, 0, 1], width: 0, height: 0 }))).toBeUndefined();
  });
});

describe('edgesNearView: which edges near the view reach into the view itself', () => {
  it('rule: the region less half a view on every side holds the view, the margin does not', () => {
    const nodes = [node('a', -300, 0), node('b', 0, 0), node('c', 1000, 0), node('d', 1200, 0)];
    // A region three views (300 × 300) wide and high: the view lies in [150, 750) × [-150, 450).
    const { near, inView } = edgesNearView(
      [edge('a', 'b'), edge('a', 'c'), edge('c', 'd')],
      nodes,
      [0, -300, 900, 600],
    );
    expect(near.map((e) => e.id)).toEqual(['a-b', 'a-c']);
    expect([...inView].map((e) => e.id)).toEqual(['a-c']);
  });
});

describe('edgesToHand: edges new in the view are handed a budget at a time', () => {
  const many = Array.from({ length: 10 }, (_, i) => ({ id: `e${i}` }));
  const all = new Set(many);

  it('rule: at most the budget of edges not handed yet, the rest deferred, in the given order', () => {
    const first = edgesToHand(many, all, new Set(), 4);
    expect(first.edges.map((e) => e.id)).toEqual(['e0', 'e1', 'e2', 'e3']);
    expect(first.deferred).toBe(6);
    const second = edgesToHand(many, all, new Set(first.edges.map((e) => e.id)), 4);
    expect(second.edges.map((e) => e.id)).toEqual(['e0', 'e1', 'e2', 'e3', 'e4', 'e5', 'e6', 'e7']);
    const last = edgesToHand(many, all, new Set(second.edges.map((e) => e.id)), 4);
    // Once none waits, React Flow is handed the edges near the view themselves.
    expect(last).toEqual({ edges: many, deferred: 0 });
  });

  it('rule: edges in the view come first, beside it after; selected edges never wait', () => {
    const selected = { id: 's', selected: true };
    const beside = [{ id: 'b0' }, { id: 'b1' }];
    const near = [beside[0]!, ...many, selected, beside[1]!];
    const first = edgesToHand(near, all, new Set(), 3);
    expect(first.edges.map((e) => e.id)).toEqual(['e0', 'e1', 'e2', 's']);
    expect(first.deferred).toBe(9);
    const handed = new Set(many.map((e) => e.id));
    const next = edgesToHand(near, all, handed, 1);
    expect(next.edges.map((e) => e.id)).toEqual(['b0', ...handed, 's']);
    expect(next.deferred).toBe(1);
  });
});
