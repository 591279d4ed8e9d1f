import { describe, expect, it } from 'vitest';
import { layerPaths } from './layerPaths.ts';

const path = (id: string, d = 'M0,0') => ({ id, d });
const ids = (ps: readonly { id: string }[]) => ps.map((p) => p.id);
const always = () => true;

describe('layerPaths: the plain layer changes a bounded number of paths a frame', () => {
  it('rule: at most `add` new paths a frame; the rest follow', () => {
    const wanted = ['a', 'b', 'c', 'd', 'e'].map((id) => path(id));
    const first = layerPaths([], wanted, always, 2, 10);
    expect(ids(first.paths)).toEqual(['a', 'b']);
    expect(first.pending).toBe(3);
    const second = layerPaths(first.paths, wanted, always, 2, 10);
    expect(ids(second.paths)).toEqual(['a', 'b', 'c', 'd']);
    const last = layerPaths(second.paths, wanted, always, 2, 10);
    expect(last).toEqual({ paths: wanted, pending: 0 });
  });

  it('rule: at most `remove` paths taken away a frame, those that may stay drawn meanwhile', () => {
    const drawn = ['a', 'b', 'c', 'd'].map((id) => path(id));
    const step = layerPaths(drawn, [], always, 10, 3);
    expect(ids(step.paths)).toEqual(['d']);
    expect(step.pending).toBe(1);
    expect(layerPaths(step.paths, [], always, 10, 3)).toEqual({ paths: [], pending: 0 });
  });

  it('rule: a path that may not stay (its edge gone, or drawn by React Flow) goes at once', () => {
    const drawn = ['a', 'b', 'c'].map((id) => path(id));
    const step = layerPaths(drawn, [], (id) => id !== 'b', 10, 0);
    expect(ids(step.paths)).toEqual(['a', 'c']);
  });

  it('rule: a path kept takes its new route, in its place', () => {
    const drawn = [path('a', 'M0,0'), path('b')];
    const moved = path('a', 'M5,5');
    const { paths } = layerPaths(drawn, [path('c'), moved, drawn[1]!], always, 10, 10);
    expect(paths).toEqual([moved, drawn[1], path('c')]);
  });
});
