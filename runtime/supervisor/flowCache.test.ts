import { describe, expect, it } from 'vitest';
import { chain, end, flow, start, wait, work } from '../../shared/fixtures/flows.ts';
import type { Flow } from '../../shared/schema.ts';
import { testStore } from '../store/fixtures/testStore.ts';
import { VirtualClock } from './clock.ts';
import { FlowCache } from './flowCache.ts';
import { Supervisor } from './supervisor.ts';

const T0 = Date.UTC(2026, 0, 1);
const HOUR = 3_600_000;

/** An hourly loop that adds `step` to count on every pass. */
const ticking = (step: number): Flow =>
  flow({
    id: 'tick',
    nodes: [
      start(),
      work('add', { count: `count + ${step}` }),
      wait('sleep', [{ id: 'hourly', timer: 'PT1H' }]),
      end(),
    ],
    edges: [...chain('start', 'add', 'sleep'), { id: 'back', from: 'sleep', to: 'add' }],
  });

async function setup(first: Flow) {
  const store = await testStore();
  await store.putFlow(first);
  const clock = new VirtualClock(T0);
  const supervisor = new Supervisor(store, clock);
  const count = async (pid: string) =>
    (
      (await store.getContext((await supervisor.mustGet(pid)).contextId))!.value as {
        count: number;
      }
    ).count;
  return { store, clock, supervisor, count };
}

describe('flow cache', () => {
  it('keeps one object per content, and a saved flow with other content is a new one', () => {
    const cache = new FlowCache();
    const a = ticking(1);
    expect(cache.canonical(structuredClone(a))).toEqual(a);
    const kept = cache.canonical(structuredClone(a));
    // The same content read again is the object kept: its caches (model, expressions) hold.
    expect(cache.canonical(structuredClone(a))).toBe(kept);
    const saved = ticking(2);
    const next = cache.canonical(structuredClone(saved));
    expect(next).not.toBe(kept);
    expect(next).toEqual(saved);
    expect(cache.signature(next!)).not.toBe(cache.signature(kept!));
  });

  it('a process that slept through a flow edit goes flow-changed, though its flow was cached', async () => {
    const { store, clock, supervisor, count } = await setup(ticking(1));
    await supervisor.start('tick', { id: 'p', context: { count: 0 } });
    // A few wakes on the same flow: the supervisor now holds it in its cache.
    await supervisor.advanceTo(T0 + 3 * HOUR);
    expect(await count('p')).toBe(4);
    // Saved behind the supervisor's back, as another tab would.
    await store.putFlow(ticking(5));
    await supervisor.advanceTo(clock.now() + HOUR);
    const p = await supervisor.mustGet('p');
    expect(p.status).toBe('flow-changed');
    expect(await count('p')).toBe(4);
    // Continued onto the saved flow, it runs the new expression, not the cached one.
    await supervisor.resolve('p', 'continue');
    expect(await count('p')).toBe(9);
  });

  it('a flow saved and saved back between wakes is what the next wake runs', async () => {
    const { store, clock, supervisor, count } = await setup(ticking(1));
    await supervisor.start('tick', { id: 'p', context: { count: 0 } });
    await supervisor.advanceTo(T0 + HOUR);
    await store.putFlow(ticking(5));
    await store.putFlow(ticking(1));
    await supervisor.advanceTo(clock.now() + HOUR);
    expect((await supervisor.mustGet('p')).status).toBe('waiting');
    expect(await count('p')).toBe(3);
  });

  it('a step whose guessed context another writer moved on runs again on the fresh one', async () => {
    const { supervisor, clock, count } = await setup(ticking(1));
    await supervisor.start('tick', { id: 'p', context: { count: 0 } });
    // Written outside any step: the supervisor's guess of the context is now stale.
    await supervisor.replaceContext('p', { count: 100 });
    await supervisor.advanceTo(clock.now() + HOUR);
    expect(await count('p')).toBe(101);
  });
});
