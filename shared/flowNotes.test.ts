import { describe, expect, it } from 'vitest';
import { chain, edge, flow, minimalFlow, start, work } from './fixtures/flows.ts';
import { flowNotes, validateFlow } from './validateFlow.ts';

describe('rule 5: validation says which functions are bound to the step', () => {
  const f = flow({
    id: 'f',
    nodes: [
      start(),
      work('w', { at: '$now()', pick: '$shuffle(items)[0] & $string($random())', plain: 'n + 1' }),
      work('x'),
    ],
    edges: [...chain('start', 'w'), edge('w', 'x', { when: '$millis() > 0' })],
  });

  it('notes each bound function an expression calls, on its node or edge, without a problem', () => {
    expect(validateFlow(f)).toEqual([]);
    const notes = flowNotes(f);
    expect(notes.map((n) => [n.nodeId ?? n.edgeId, n.message.split(',')[0]])).toEqual([
      ['w', 'set "at" calls $now()'],
      ['w', 'set "pick" calls $random()'],
      ['w', 'set "pick" calls $shuffle()'],
      ['w>x', 'condition calls $millis()'],
    ]);
    expect(notes[0]!.message).toMatch(/time of the step/);
    expect(notes[1]!.message).toMatch(/seeded sequence/);
    expect(notes.every((n) => n.rule === 'bound-function')).toBe(true);
  });

  it('has nothing to say of a flow with no such call, nor of an expression that does not parse', () => {
    expect(flowNotes(minimalFlow())).toEqual([]);
    const broken = flow({
      nodes: [start(), work('w', { a: '$now(' })],
      edges: chain('start', 'w'),
    });
    expect(flowNotes(broken)).toEqual([]);
  });
});
