import { describe, expect, it } from 'vitest';
import { edge, flow, start, wait, end } from '../../shared/fixtures/flows.ts';
import { toCanvas } from './flowCanvas.ts';
import { withProblems } from './validation.ts';

const sleeper = flow({
  id: 'f',
  nodes: [
    start(),
    wait('sleep', [
      { id: 'daily', timer: 'PT24H' },
      { id: 'kick', event: 'prices.changed', into: 'lastChange' },
    ]),
    end(),
  ],
  edges: [
    edge('start', 'sleep', { id: 'e1' }),
    edge('sleep', 'end', { id: 'e2', trigger: 'kick' }),
  ],
});

describe('an edge from a trigger has its accessible name from the start', () => {
  it('names the kind of its trigger as soon as the flow opens, before validation runs', () => {
    const { edges } = toCanvas(sleeper);
    expect(edges.find((e) => e.id === 'e2')!.ariaLabel).toBe(
      'Edge from sleep to end, on event kick',
    );
  });

  it('follows a change of the trigger’s kind, though its problems stay the same', () => {
    const { edges } = toCanvas(sleeper);
    const asHuman = {
      ...sleeper.nodes[1]!,
      on: [{ id: 'kick', human: { prompt: 'Kick?', fields: [] } }],
    } as (typeof sleeper.nodes)[number];
    const named = withProblems(edges, [], 'edgeId', (id) => (id === 'sleep' ? asHuman : undefined));
    expect(named.find((e) => e.id === 'e2')!.ariaLabel).toBe(
      'Edge from sleep to end, on human kick',
    );
    // Unchanged edges keep their objects: nothing else re-renders.
    expect(named.find((e) => e.id === 'e1')).toBe(edges.find((e) => e.id === 'e1'));
  });
});
