import { describe, expect, it } from 'vitest';
import { edge, end, flow, start, wait, work, splitJoin } from '../../shared/fixtures/flows.ts';
import type { Flow } from '../../shared/schema.ts';
import type { Scenario } from '../report/scenario.ts';
import { MemoryStore } from '../store/memoryStore.ts';
import { MAX_STEPS_PER_COMMIT } from '../supervisor/limits.ts';
import { simulate } from './simulate.ts';

/**
 * `flow simulate` on a store of its own commits each drive once, at its stop
 * (`maxStepsPerCommit: Infinity`, docs/decisions.md), where the app commits every
 * MAX_STEPS_PER_COMMIT steps. Where a run's commits fall changes nothing a report says.
 */

const T0 = Date.parse('2026-01-01T00:00:00Z');
const LONG = 2 * MAX_STEPS_PER_COMMIT + 500;

/** start → LONG work nodes in a row → end. */
const chain: Flow = (() => {
  const ids = Array.from({ length: LONG }, (_, i) => `w${i}`);
  const path = ['start', ...ids, 'end'];
  return flow({
    id: 'chain',
    nodes: [start(), ...ids.map((id) => work(id, { count: 'count + 1' })), end()],
    edges: path.slice(1).map((to, i) => edge(path[i]!, to)),
  });
})();

/** A split into LONG branches, each setting its flag, joined. */
const wide = splitJoin('wide', LONG, [end()]);

/** A one-minute loop: an advance of two days runs thousands of acts in one wake. */
const minute: Flow = flow({
  id: 'minute',
  nodes: [
    start(),
    work('tick', { count: 'count + 1' }),
    wait('sleep', [{ id: 'm', timer: 'PT1M' }]),
  ],
  edges: [edge('start', 'tick'), edge('tick', 'sleep'), edge('sleep', 'tick')],
});

describe('flow simulate: a drive commits once', () => {
  it('rule: the report is the same whether the drives commit once or every MAX_STEPS_PER_COMMIT steps', async () => {
    const scenario: Scenario = {
      flows: [chain, wide, minute],
      clock: T0,
      steps: [
        { start: 'chain', as: 'c', context: { count: 0 } },
        { start: 'wide', as: 'w', context: {} },
        { start: 'minute', as: 'm', context: { count: 0 } },
        { advance: 'P2D' },
      ],
    };
    const once = await simulate(scenario);
    // A store given keeps the app's commits; one by one, as the command's own advance.
    const every = await simulate(scenario, new MemoryStore({ journal: false }), undefined, true);
    expect(once).toStrictEqual(every);
    expect(once.processes.c?.status).toBe('done');
    expect(once.processes.w?.status).toBe('done');
    expect(once.processes.m?.visits.tick).toBe(2 * 24 * 60 + 1);
  });
});
