import { describe, expect, it } from 'vitest';
import type { Flow, FlowNode } from './schema.ts';
import { signature } from './signature.ts';
import { noteOnEdge, noteOnNode } from './unmapped.ts';
import { validateFlow } from './validateFlow.ts';

const base: Flow = {
  format: 'flow/1',
  id: 'f',
  nodes: [
    { id: 's', kind: 'start' },
    { id: 'w', kind: 'work' },
  ],
  edges: [{ id: 'e', from: 's', to: 'w' }],
};

describe('problems an import noted on a node or edge ("unmapped")', () => {
  const noted: Flow = {
    ...base,
    nodes: [
      base.nodes[0]!,
      noteOnNode(base.nodes[1]!, ['boundary events have no meaning in flow/1']),
    ],
    edges: [noteOnEdge(base.edges[0]!, ['the condition is in JUEL'])],
  };

  it('are problems of the flow, on their node or edge, so that it cannot run', () => {
    expect(validateFlow(noted)).toEqual([
      { rule: 'unmapped', nodeId: 'w', message: 'boundary events have no meaning in flow/1' },
      { rule: 'unmapped', edgeId: 'e', message: 'the condition is in JUEL' },
    ]);
  });

  it('do not change the signature: they are unknown fields', () => {
    expect(signature(noted)).toBe(signature(base));
  });

  it('stand while the node or edge runs as it was imported, whatever is moved or renamed', () => {
    const moved = {
      ...noted,
      nodes: noted.nodes.map((n) => ({ ...n, label: 'Renamed', position: { x: 5, y: 5 } })),
    };
    expect(validateFlow(moved)).toHaveLength(2);
  });

  it('are dealt with once the designer changes what the node or edge runs', () => {
    const changed: Flow = {
      ...noted,
      nodes: noted.nodes.map((n) => (n.id === 'w' ? ({ ...n, set: { x: '1' } } as FlowNode) : n)),
      edges: noted.edges.map((e) => ({ ...e, when: 'x = 1' })),
    };
    expect(validateFlow(changed)).toEqual([]);
  });

  it('written by hand, without a fingerprint, stand until the field goes; a malformed one is ignored', () => {
    const byHand = {
      ...base,
      nodes: [base.nodes[0]!, { ...base.nodes[1]!, unmapped: { problems: ['check me'] } }],
      edges: [{ ...base.edges[0]!, unmapped: 42 }],
    } as Flow;
    expect(validateFlow(byHand)).toEqual([{ rule: 'unmapped', nodeId: 'w', message: 'check me' }]);
  });
});
