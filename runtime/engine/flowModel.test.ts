import { describe, expect, it } from 'vitest';
import { edge, end, fanout, flow, join, start, wait, work } from '../../shared/fixtures/flows.ts';
import { flowModel } from './flowModel.ts';
import { generationAlong } from './generation.ts';

/** start → tick → split → a, b → both (join) → sleep → tick (closing) | end. */
const looping = flow({
  nodes: [
    start(),
    work('tick', { count: 'count + 1', seen: 'true' }),
    fanout('split'),
    work('a', {}),
    work('b', {}),
    join('both', ['a', 'b']),
    wait('sleep', [{ id: 'hourly', timer: 'PT1H' }]),
    end(),
  ],
  edges: [
    edge('start', 'tick'),
    edge('tick', 'split'),
    edge('split', 'a'),
    edge('split', 'b'),
    edge('a', 'both'),
    edge('b', 'both'),
    edge('both', 'sleep'),
    edge('sleep', 'tick', { id: 'again', when: 'count < 3' }),
    edge('sleep', 'end', { when: 'count >= 3' }),
  ],
});

describe('what a step knows of a node (FlowModel.info)', () => {
  it('rule: a node’s info is what the model answers one question at a time', () => {
    const model = flowModel(looping);
    expect(model.loops).toBe(true);
    for (const n of looping.nodes) {
      const info = model.info(n.id)!;
      expect(info.node).toBe(model.node(n.id));
      expect(info.heads).toEqual(model.heads(n.id));
      expect(info.joins).toEqual(model.joinsNaming(n.id));
      expect(info.barrier).toBe((n.depends?.length ?? 0) > 0);
      expect(info.edges.map((e) => e.edge)).toEqual(model.edgesFrom(n.id));
      for (const e of info.edges) {
        expect(e.to).toBe(model.info(e.edge.to));
        expect(e.closing).toBe(model.isClosing(e.edge.id));
      }
    }
    expect(model.info('tick')!.set).toEqual([
      ['count', 'count + 1'],
      ['seen', 'true'],
    ]);
    expect(model.info('nowhere')).toBeUndefined();
    expect(flowModel(flow({ nodes: [start(), end()], edges: [edge('start', 'end')] })).loops).toBe(
      false,
    );
  });

  it('rule: the closing edge moves its head one pass on; entering starts it at 0; a node after the head keeps its pass', () => {
    const model = flowModel(looping);
    const along = (from: string, to: string, gen: number[]) => {
      const info = model.info(from)!;
      return generationAlong(
        info.heads,
        info.edges.find((e) => e.edge.to === to)!,
        gen,
      );
    };
    expect(along('start', 'tick', [])).toEqual([0]);
    expect(along('sleep', 'tick', [4])).toEqual([5]);
    const kept = [2];
    expect(along('tick', 'split', kept)).toBe(kept);
  });
});
