import { describe, expect, it } from 'vitest';
import type { CanvasEdge } from '../designer/canvasTypes.ts';
import { edgeAt, isPlainEdge, partPlainEdges } from './plainEdges.ts';

const edge = (id: string, extra: Partial<CanvasEdge> = {}, flow: object = {}): CanvasEdge => ({
  id,
  source: 'a',
  target: 'b',
  type: 'flow',
  data: { edge: { id, from: 'a', to: 'b', ...flow }, problems: [] },
  ...extra,
});

describe('isPlainEdge: an edge drawn as its route and arrow alone', () => {
  const none = new Map<string, unknown>();
  const untaken = new Set<string>();

  it('rule: an edge with nothing on it is plain', () => {
    expect(isPlainEdge(edge('e'), none, untaken)).toBe(true);
    // A blank `when` draws no label.
    expect(isPlainEdge(edge('e', {}, { when: '  ' }), none, untaken)).toBe(true);
  });

  it("rule: a label, a selection, a loop, a change or a token makes it React Flow's", () => {
    expect(isPlainEdge(edge('e', {}, { trigger: 't' }), none, untaken)).toBe(false);
    expect(isPlainEdge(edge('e', {}, { when: 'x > 1' }), none, untaken)).toBe(false);
    expect(isPlainEdge(edge('e', { selected: true }), none, untaken)).toBe(false);
    expect(isPlainEdge(edge('e'), new Map([['e', {}]]), untaken)).toBe(false);
    expect(isPlainEdge(edge('e'), none, new Set(['e']))).toBe(false);
    const changed = edge('e');
    changed.data = { ...changed.data!, change: 'added' };
    expect(isPlainEdge(changed, none, untaken)).toBe(false);
    const problems = edge('e');
    problems.data = { ...problems.data!, problems: ['bad'] };
    expect(isPlainEdge(problems, none, untaken)).toBe(false);
  });
});

describe('partPlainEdges: many plain edges near the view go to one layer', () => {
  const plain = (e: { plain: boolean }) => e.plain;
  const near = [
    { id: 1, plain: true },
    { id: 2, plain: false },
    { id: 3, plain: true },
    { id: 4, plain: true },
  ];

  it('rule: up to the bound, React Flow draws them all', () => {
    expect(partPlainEdges(near, plain, 3)).toEqual({ flow: near, layer: [] });
  });

  it('rule: past the bound, every plain one goes to the layer, each list in order', () => {
    const { flow, layer } = partPlainEdges(near, plain, 2);
    expect(flow.map((e) => e.id)).toEqual([2]);
    expect(layer.map((e) => e.id)).toEqual([1, 3, 4]);
  });
});

describe('edgeAt: the edge a click on the layer lands on', () => {
  const routes: Record<string, { x: number; y: number }[]> = {
    low: [
      { x: 0, y: 0 },
      { x: 100, y: 0 },
    ],
    high: [
      { x: 0, y: 5 },
      { x: 100, y: 5 },
    ],
  };
  const pointsOf = (id: string) => routes[id];

  it('rule: within reach of its route; the one drawn last when two are', () => {
    expect(edgeAt({ x: 50, y: 2 }, ['low', 'high'], pointsOf)).toBe('high');
    expect(edgeAt({ x: 50, y: -8 }, ['low', 'high'], pointsOf)).toBe('low');
    expect(edgeAt({ x: 50, y: 40 }, ['low', 'high'], pointsOf)).toBeUndefined();
    expect(edgeAt({ x: 111, y: 0 }, ['low'], pointsOf)).toBeUndefined();
  });
});
