import { describe, expect, it } from 'vitest';
import { flow, flowsFile, minimalFlow, start, subflow, text } from '../../shared/fixtures/flows.ts';
import { importFlows } from './importFlows.ts';

describe('import: a refused file changes nothing, an imported flow never overwrites', () => {
  it('refuses a broken file, naming its first problems', () => {
    const result = importFlows(
      '{"format":"flow/1","id":"x","nodes":[{"id":"a","kind":"wrok"}],"edges":[]}',
      new Set(),
    );
    expect(result).toEqual({
      ok: false,
      message: expect.stringContaining('nodes[0].kind: unknown kind "wrok"'),
    });
  });

  it('brings a flow whose id exists in under a new id', () => {
    const result = importFlows(text(minimalFlow('orders')), new Set(['orders', 'orders-2']));
    expect(result.ok && result.flows.map((f) => f.id)).toEqual(['orders-3']);
    expect(result.ok && result.renamed).toEqual([['orders', 'orders-3']]);
  });

  it('renames the sub-flow references of imported flows that were renamed', () => {
    const main = flow({ id: 'main', nodes: [start(), subflow('s', 'child')] });
    const result = importFlows(text(flowsFile([main, minimalFlow('child')])), new Set(['child']));
    if (!result.ok) throw new Error(result.message);
    expect(result.flows.map((f) => f.id)).toEqual(['main', 'child-2']);
    expect(result.flows[0]!.nodes[1]).toMatchObject({ kind: 'subflow', flow: 'child-2' });
  });
});
