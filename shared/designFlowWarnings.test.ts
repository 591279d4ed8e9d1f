import { describe, expect, it } from 'vitest';
import { chain, end, flow, start, work } from './fixtures/flows.ts';
import { designFlowWarnings, validateFlow } from './validateFlow.ts';

describe('designFlowWarnings', () => {
  it('warns of a node that nothing leads to: it never runs, but the flow can still run', () => {
    const f = flow({
      nodes: [start(), work('w', { a: '1' }), work('orphan', { b: '2' }), end()],
      edges: [...chain('start', 'w', 'end'), { id: 'x', from: 'orphan', to: 'end' }],
    });
    expect(designFlowWarnings(f)).toEqual([
      {
        rule: 'never-runs',
        severity: 'warning',
        nodeId: 'orphan',
        message: 'never runs: nothing leads here',
      },
    ]);
    expect(validateFlow(f)).toEqual([]);
  });

  it('counts an edge from a node that is not in the flow as leading nowhere', () => {
    const f = flow({
      nodes: [start(), work('w', { a: '1' }), end()],
      edges: [{ id: 'x', from: 'ghost', to: 'w' }, ...chain('start', 'end')],
    });
    expect(designFlowWarnings(f).map((p) => p.nodeId)).toEqual(['w']);
  });

  it('never warns of start, nor of a flow where every node is reached', () => {
    expect(
      designFlowWarnings(flow({ nodes: [start(), end()], edges: [...chain('start', 'end')] })),
    ).toEqual([]);
  });
});
