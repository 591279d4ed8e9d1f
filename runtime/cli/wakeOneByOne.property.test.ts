import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Flow } from '../../shared/schema.ts';
import { contextArb, workspaceArb, type Workspace } from '../engine/fixtures/randomFlow.ts';
import { MemoryStore } from '../store/memoryStore.ts';
import { testStore } from '../store/fixtures/testStore.ts';
import type { Store } from '../supervisor/store.ts';
import type { Scenario, ScenarioStep } from '../report/scenario.ts';
import { simulate } from './simulate.ts';

/**
 * `flow simulate`'s own path (a MemoryStore that keeps no journal, an advance that wakes one
 * process at a time and runs it on across its own timers: `wakeOneByOne`) against the app's
 * (the same supervisor batching due wakes into shared commits, on a store that keeps the
 * journal), on random scenarios: several processes of random valid workspaces
 * (engine/fixtures/randomFlow.ts: loops, joins, sub-flows, timers, `PT0S` among them) and of
 * counted loops, some sharing a context, started at different times, advanced by random
 * durations, with events, setContext, stop and resume between. The report, every process record
 * and every context must come out the same.
 */

const T0 = '2026-01-01T00:00:00Z';

/** start → tick (n + 1) → sleep (every `period`) → tick while n < passes, else end. */
function countedLoop(id: string, period: string, passes: number): Flow {
  return {
    format: 'flow/1',
    id,
    nodes: [
      { id: 'start', kind: 'start' },
      { id: 'tick', kind: 'work', set: { n: '$exists(n) ? n + 1 : 1' } },
      {
        id: 'sleep',
        kind: 'continue-after',
        on: [
          { id: 'every', timer: period },
          { id: 'kick', event: 'kick' },
        ],
      },
      { id: 'end', kind: 'end' },
    ],
    edges: [
      { id: 'e1', from: 'start', to: 'tick' },
      { id: 'e2', from: 'tick', to: 'sleep' },
      { id: 'e3', from: 'sleep', to: 'tick', when: `n < ${passes}` },
      { id: 'e4', from: 'sleep', to: 'end', when: `n >= ${passes}` },
    ],
  };
}

const loopArb = fc.record({
  period: fc.constantFrom('PT0S', 'PT1M', 'PT15M', 'PT1H', 'PT7H'),
  passes: fc.integer({ min: 1, max: 60 }),
});

type StepSpec =
  | { kind: 'start'; flow: number; share: number | null; context: Record<string, unknown> }
  | { kind: 'advance'; by: string }
  | { kind: 'event'; to: number | null }
  | { kind: 'set'; process: number; value: number }
  | { kind: 'stop'; process: number }
  | { kind: 'resume'; process: number };

const stepArb: fc.Arbitrary<StepSpec> = fc.oneof(
  {
    arbitrary: fc.record({
      kind: fc.constant('start' as const),
      flow: fc.nat(3),
      share: fc.option(fc.nat(5)),
      context: contextArb,
    }),
    weight: 3,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('advance' as const),
      by: fc.constantFrom('PT1M', 'PT10M', 'PT1H', 'PT90M', 'PT12H', 'P1D', 'P3D'),
    }),
    weight: 4,
  },
  fc.record({ kind: fc.constant('event' as const), to: fc.option(fc.nat(5)) }),
  fc.record({ kind: fc.constant('set' as const), process: fc.nat(5), value: fc.nat(50) }),
  fc.record({ kind: fc.constant('stop' as const), process: fc.nat(5) }),
  fc.record({ kind: fc.constant('resume' as const), process: fc.nat(5) }),
);

const scenarioArb = fc
  .record({
    workspace: workspaceArb,
    loops: fc.array(loopArb, { minLength: 1, maxLength: 2 }),
    steps: fc.array(stepArb, { minLength: 1, maxLength: 14 }),
  })
  .map(({ workspace, loops, steps }) => buildScenario(workspace, loops, steps));

function buildScenario(
  workspace: Workspace,
  loops: { period: string; passes: number }[],
  specs: StepSpec[],
): Scenario {
  const flows = [...workspace, ...loops.map((l, i) => countedLoop(`loop${i}`, l.period, l.passes))];
  const startable = ['main', ...loops.map((_, i) => `loop${i}`)];
  const names: string[] = [];
  // A name no start gave is still a step: one the supervisor refuses, on both paths alike.
  const nameOf = (n: number) => names[n % Math.max(1, names.length)] ?? 'nobody';
  const steps: ScenarioStep[] = [];
  for (const s of specs) {
    if (s.kind === 'start') {
      const as = `p${names.length}`;
      const flow = startable[s.flow % startable.length]!;
      steps.push(
        s.share !== null && names.length > 0
          ? { start: flow, as, shareContextWith: nameOf(s.share) }
          : { start: flow, as, context: s.context },
      );
      names.push(as);
    } else if (s.kind === 'advance') steps.push({ advance: s.by });
    else if (s.kind === 'event')
      steps.push(s.to === null ? { event: 'kick' } : { event: 'kick', to: nameOf(s.to) });
    else if (s.kind === 'set')
      steps.push({ setContext: nameOf(s.process), path: 'a', value: s.value });
    else if (s.kind === 'stop') steps.push({ stop: nameOf(s.process) });
    else steps.push({ resume: nameOf(s.process) });
  }
  // Every scenario ends with a long advance, across which the loops run many passes.
  steps.push({ advance: 'P2D' });
  return { flows: flows as Scenario['flows'], clock: Date.parse(T0), steps };
}

/** What a run leaves in its store: every process record and the context each stands on. */
async function leftIn(store: Store) {
  const processes = await store.listProcesses();
  const contexts = await Promise.all(processes.map((p) => store.getContext(p.contextId)));
  return { processes, contexts };
}

async function both(scenario: Scenario, slowStore: () => Promise<Store>) {
  const fastStore = new MemoryStore({ journal: false });
  const fast = await simulate(scenario, fastStore, undefined, true);
  const slow = await simulate(scenario, await slowStore(), undefined, false);
  return { fast, slow, fastStore };
}

describe('flow simulate: waking one process at a time gives what the batches give', () => {
  it('rule: the same report, process records and contexts on random scenarios (MemoryStore with its journal)', async () => {
    await fc.assert(
      fc.asyncProperty(scenarioArb, async (scenario) => {
        const fastStore = new MemoryStore({ journal: false });
        const slowStore = new MemoryStore();
        const fast = await simulate(scenario, fastStore, undefined, true);
        const slow = await simulate(scenario, slowStore, undefined, false);
        expect(fast).toEqual(slow);
        expect(await leftIn(fastStore)).toEqual(await leftIn(slowStore));
      }),
      { numRuns: 60 },
    );
  });

  it('rule: the same report as the batches on IndexedDB (fake-indexeddb), the app’s store', async () => {
    await fc.assert(
      fc.asyncProperty(scenarioArb, async (scenario) => {
        const { fast, slow } = await both(scenario, () => testStore('one-by-one'));
        expect(fast).toEqual(slow);
      }),
      { numRuns: 15 },
    );
  });
});
