import { describe, expect, it } from 'vitest';
import { edge, end, flow, join, start, work } from '../../shared/fixtures/flows.ts';
import { toCanvas } from './flowCanvas.ts';
import { copyFragment, pasteFragment } from './fragment.ts';

const drawing = () => {
  const c = toCanvas(
    flow({
      nodes: [start(), work('work1', { a: '1' }), join('join1', ['work1']), end()],
      edges: [
        edge('start', 'work1', { id: 'e1' }),
        edge('work1', 'join1', { id: 'e2', when: 'a > 0' }),
        edge('join1', 'end', { id: 'e3' }),
      ],
    }),
  );
  for (const n of c.nodes) n.selected = n.id === 'work1' || n.id === 'join1';
  return c;
};

describe('copy and paste: new ids, never an overwrite', () => {
  it('copies the selected nodes and only the edges between them', () => {
    const { nodes, edges } = drawing();
    const fragment = copyFragment(nodes, edges)!;
    expect(fragment.nodes.map((n) => n.id)).toEqual(['work1', 'join1']);
    expect(fragment.edges.map((e) => e.id)).toEqual(['e2']);
  });

  it('pastes with fresh node and edge ids, renaming edges and depends to match', () => {
    const { nodes, edges } = drawing();
    const pasted = pasteFragment(nodes, edges, copyFragment(nodes, edges)!, { x: 40, y: 40 });
    const added = pasted.nodes.slice(nodes.length);
    expect(added.map((n) => n.id)).toEqual(['work2', 'join2']);
    expect(added[1]!.data.node.depends).toEqual(['work2']);
    const addedEdge = pasted.edges.at(-1)!;
    expect(addedEdge.data!.edge).toEqual({ id: 'e4', from: 'work2', to: 'join2', when: 'a > 0' });
    expect(added.every((n) => n.selected)).toBe(true);
    expect(pasted.nodes.slice(0, nodes.length).some((n) => n.selected)).toBe(false);
    expect(added[0]!.position).toEqual({
      x: nodes[1]!.position.x + 40,
      y: nodes[1]!.position.y + 40,
    });
  });

  it('copies nothing when nothing is selected', () => {
    const { nodes, edges } = drawing();
    for (const n of nodes) n.selected = false;
    expect(copyFragment(nodes, edges)).toBeUndefined();
  });
});
