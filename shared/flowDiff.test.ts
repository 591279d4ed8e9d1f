import { describe, expect, it } from 'vitest';
import { chain, edge, end, flow, start, work } from './fixtures/flows.ts';
import { diffFlows } from './flowDiff.ts';

const base = flow({
  nodes: [start(), work('a', { x: '1' }), work('b'), end()],
  edges: [...chain('start', 'a', 'b'), edge('b', 'end'), edge('a', 'end', { when: 'x > 1' })],
});

describe('diffFlows: the nodes and edges added, removed or changed in what runs', () => {
  it('finds nothing between a flow and itself moved and relabelled', () => {
    const moved = structuredClone(base);
    for (const n of moved.nodes) Object.assign(n, { label: 'renamed', position: { x: 5, y: 5 } });
    expect(diffFlows(base, moved)).toEqual([]);
  });

  it('names an added node, a removed edge and a changed expression', () => {
    const next = structuredClone(base);
    next.nodes.push(work('c'));
    next.edges = next.edges.filter((e) => e.id !== 'a>end');
    const a = next.nodes.find((n) => n.id === 'a');
    if (a?.kind === 'work') a.set = { x: '2' };
    expect(diffFlows(base, next)).toEqual([
      { flow: 'f', item: 'node', id: 'a', change: 'changed' },
      { flow: 'f', item: 'node', id: 'c', change: 'added' },
      { flow: 'f', item: 'edge', id: 'a>end', change: 'removed' },
    ]);
  });

  it('does not mark the edges after a removed one as changed', () => {
    const next = structuredClone(base);
    next.edges.splice(0, 1);
    expect(diffFlows(base, next)).toEqual([
      { flow: 'f', item: 'edge', id: 'start>a', change: 'removed' },
    ]);
  });

  it('marks edges that moved among the others, since edges are taken in the order listed', () => {
    const next = structuredClone(base);
    next.edges.reverse();
    const moved = diffFlows(base, next).map((c) => c.id);
    expect(moved.length).toBeGreaterThan(0);
    expect(moved.every((id) => base.edges.some((e) => e.id === id))).toBe(true);
  });
});
