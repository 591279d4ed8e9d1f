import { describe, expect, it } from 'vitest';
import { edge, flow, start, work } from '../../shared/fixtures/flows.ts';
import { testStore } from '../store/fixtures/testStore.ts';
import { VirtualClock } from './clock.ts';
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
