import { describe, expect, it } from 'vitest';
import { nodeIdsOf } from './nodeIds.ts';

const nodes = (...ids: string[]) => ids.map((id) => ({ id, position: { x: 0, y: 0 } }));

describe('nodeIdsOf', () => {
  it('rule: a new nodes array with the same ids (a drag frame) gives the same set, not a new one', () => {
    const before = nodeIdsOf(nodes('a', 'b', 'c'));
    const moved = nodes('a', 'b', 'c').map((n) => ({ ...n, position: { x: 5, y: 5 } }));
    expect(nodeIdsOf(moved)).toBe(before);
    expect([...before]).toEqual(['a', 'b', 'c']);
  });

  it('rule: a node added, removed or replaced gives a set of the new ids', () => {
    const before = nodeIdsOf(nodes('a', 'b'));
    const added = nodeIdsOf(nodes('a', 'b', 'c'));
    expect(added).not.toBe(before);
    expect([...added]).toEqual(['a', 'b', 'c']);
    expect([...nodeIdsOf(nodes('a', 'x', 'c'))]).toEqual(['a', 'x', 'c']);
    expect([...nodeIdsOf(nodes('a'))]).toEqual(['a']);
  });

  it('rule: asked again for an array it has seen, it gives that array its set, whatever came between', () => {
    const first = nodes('p', 'q');
    const ids = nodeIdsOf(first);
    nodeIdsOf(nodes('z'));
    expect(nodeIdsOf(first)).toBe(ids);
  });
});
