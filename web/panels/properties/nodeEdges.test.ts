import { describe, expect, it } from 'vitest';
import type { CanvasEdge } from '../../designer/canvasTypes.ts';
import { describeListedEdge, nodeEdges } from './nodeEdges.ts';

const edge = (from: string, to: string, extra: { when?: string; trigger?: string } = {}) =>
  ({
    id: `${from}->${to}`,
    source: from,
    target: to,
    type: 'flow',
    data: { edge: { id: `${from}->${to}`, from, to, ...extra } },
  }) as CanvasEdge;

describe("a node's edges in its property panel (the keyboard's way to every edge)", () => {
  const edges = [
    edge('start', 'split'),
    edge('split', 'a', { when: 'order.total > 100' }),
    edge('wait', 'split', { trigger: 'daily' }),
    edge('split', 'b'),
    edge('x', 'y'),
  ];

  it('rule: the edges out of the node come first, then those into it, each in the flow order; no other edge', () => {
    const { shown, total } = nodeEdges(edges, 'split', '', 10);
    expect(shown.map((e) => `${e.direction} ${e.other}`)).toEqual([
      'out a',
      'out b',
      'in start',
      'in wait',
    ]);
    expect(total).toBe(4);
  });

  it('rule: a search keeps the edges whose other end, trigger or condition contains it, in any case', () => {
    expect(nodeEdges(edges, 'split', 'DAILY', 10).shown.map((e) => e.other)).toEqual(['wait']);
    expect(nodeEdges(edges, 'split', 'total', 10).shown.map((e) => e.other)).toEqual(['a']);
    expect(nodeEdges(edges, 'split', ' star ', 10).shown.map((e) => e.other)).toEqual(['start']);
    expect(nodeEdges(edges, 'split', 'nothing like it', 10).matched).toBe(0);
  });

  it('rule: a split of 10,000 branches lists at most the limit, and says how many matched', () => {
    const wide = Array.from({ length: 10_000 }, (_, i) => edge('split', `b${i}`));
    const all = nodeEdges(wide, 'split', '', 25);
    expect(all.shown).toHaveLength(25);
    expect(all.matched).toBe(10_000);
    const found = nodeEdges(wide, 'split', 'b9999', 25);
    expect(found.shown.map((e) => e.other)).toEqual(['b9999']);
  });

  it('rule: an edge from a node to itself is listed once, as leaving it', () => {
    const { shown } = nodeEdges([edge('loop', 'loop')], 'loop', '', 10);
    expect(shown).toEqual([{ id: 'loop->loop', direction: 'out', other: 'loop' }]);
  });

  it('says where an edge goes, and by what trigger and condition', () => {
    expect(describeListedEdge({ id: 'e', direction: 'out', other: 'a', when: 'x > 1' })).toBe(
      'to a, when x > 1',
    );
    expect(describeListedEdge({ id: 'e', direction: 'in', other: 'w', trigger: 'daily' })).toBe(
      'from w, on daily',
    );
  });
});
