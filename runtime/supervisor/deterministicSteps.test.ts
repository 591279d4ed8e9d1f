import { describe, expect, it } from 'vitest';
import { edge, flow, start, work } from '../../shared/fixtures/flows.ts';
import { testStore } from '../store/fixtures/testStore.ts';
import { VirtualClock, type Clock } from './clock.ts';
import type { StepCommit } from './store.ts';
import { Supervisor } from './supervisor.ts';

const T0 = Date.UTC(2026, 0, 1);
const HOUR = 3_600_000;

/** Draws a number, notes the time, and takes one of two branches on the draw. */
const coin = flow({
  id: 'coin',
  nodes: [
    start(),
    work('toss', { r: '$random()', at: '$millis()' }),
    work('heads', { side: '"heads"' }),
    work('tails', { side: '"tails"' }),
  ],
  edges: [
    edge('start', 'toss'),
    edge('toss', 'heads', { when: 'r >= 0.5' }),
    edge('toss', 'tails', { when: 'r < 0.5' }),
  ],
});

async function tossed(interfere: boolean) {
  const store = await testStore();
  const clock = new VirtualClock(T0);
  await store.putFlow(coin);
  const commit = store.commitStep.bind(store);
  let interfered = false;
  // Before toss commits, another writer moves the context on and an hour goes by: the step runs
  // again on the fresh context, and must be the same step.
  store.commitStep = async (c: StepCommit) => {
    if (interfere && !interfered && c.context.write) {
      interfered = true;
      const current = (await store.getContext(c.context.id))!;
      await store.putContext(
        { ...current, version: current.version + 1, value: { other: 1 } },
        current.version,
      );
      clock.set(T0 + HOUR);
    }
    return commit(c);
  };
  const supervisor = new Supervisor(store, clock);
  const p = await supervisor.start('coin', { id: 'p' });
  return { value: (await store.getContext(p.contextId))!.value, interfered };
}

describe('rule 5: a step run again after a compare-and-set conflict is the same step', () => {
  it('draws the same $random() and sees the same $millis(), so it takes the same branch', async () => {
    const clean = await tossed(false);
    const conflicted = await tossed(true);
    expect(conflicted.interfered).toBe(true);
    expect(conflicted.value).toEqual({ ...(clean.value as object), other: 1 });
    expect(clean.value).toMatchObject({ at: T0 });
  });
});

/** Two steps that note the time, run to the flow's end in one commit (group commit). */
const twoTimes = flow({
  id: 'two',
  nodes: [start(), work('first', { a: '$millis()' }), work('second', { b: '$millis()' })],
  edges: [edge('start', 'first'), edge('first', 'second')],
});

/** A clock that moves a minute on from each reading, so that every reading is told apart. */
function tickingClock(): Clock {
  let t = T0;
  return { now: () => (t += 60_000) };
}

async function timed(interfere: boolean) {
  const store = await testStore();
  await store.putFlow(twoTimes);
  const commit = store.commitStep.bind(store);
  let conflicts = 0;
  // The one commit of the run loses its compare-and-set once: the run is taken again.
  store.commitStep = async (c: StepCommit) => {
    if (interfere && conflicts === 0 && c.context.write) {
      conflicts++;
      const current = (await store.getContext(c.context.id))!;
      await store.putContext(
        { ...current, version: current.version + 1, value: { other: 1 } },
        current.version,
      );
    }
    return commit(c);
  };
  const p = await new Supervisor(store, tickingClock()).start('two', { id: 'p' });
  const value = (await store.getContext(p.contextId))!.value as { a: number; b: number };
  return { value, conflicts, status: p.status };
}

describe('rule 5 under group commit: each step of a run keeps its own time', () => {
  it('reads the clock once per step, and a run taken again after a conflict sees the same times', async () => {
    const clean = await timed(false);
    const conflicted = await timed(true);
    expect(clean.status).toBe('done');
    expect(conflicted.conflicts).toBe(1);
    // Each step read the clock for itself, not one time for the whole commit.
    expect(clean.value.b).toBeGreaterThan(clean.value.a);
    expect(conflicted.value).toEqual({ ...clean.value, other: 1 });
  });
});
