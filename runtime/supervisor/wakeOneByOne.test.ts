import { describe, expect, it, vi } from 'vitest';
import { chain, edge, end, flow, start, wait, work } from '../../shared/fixtures/flows.ts';
import type { Flow } from '../../shared/schema.ts';
import { MemoryStore } from '../store/memoryStore.ts';
import { VirtualClock } from './clock.ts';
import type { InMemoryRunner } from './inMemoryRun.ts';
import { Supervisor, type SupervisorOptions } from './supervisor.ts';

const T0 = Date.UTC(2026, 0, 1);
const MINUTE = 60_000;

/** start → tick (n + 1) → sleep (`period`) → tick while n < passes, else end. */
function loop(period: string, passes: number): Flow {
  return flow({
    id: 'loop',
    nodes: [
      start(),
      work('tick', { n: '$exists(n) ? n + 1 : 1' }),
      wait('sleep', [{ id: 'every', timer: period }]),
      end(),
    ],
    edges: [
      ...chain('start', 'tick', 'sleep'),
      edge('sleep', 'tick', { when: `n < ${passes}` }),
      edge('sleep', 'end', { when: `n >= ${passes}` }),
    ],
  });
}

async function setup(f: Flow, options: SupervisorOptions = {}) {
  const store = new MemoryStore();
  await store.putFlow(f);
  const clock = new VirtualClock(T0);
  const supervisor = new Supervisor(store, clock, options);
  // The runs the supervisor takes in memory, one per wake on the batch path.
  const { inMemory } = supervisor as unknown as { inMemory: InMemoryRunner };
  const runs = vi.spyOn(inMemory, 'run');
  return { store, clock, supervisor, runs };
}

describe('wakeOneByOne: an advance runs a process on across its own timers', () => {
  it('rule: 100 passes of a PT1M loop are one run, not one run per pass as in the batches', async () => {
    const one = await setup(loop('PT1M', 100), { wakeOneByOne: true });
    const batched = await setup(loop('PT1M', 100));
    for (const s of [one, batched]) {
      await s.supervisor.start('loop', { id: 'p' });
      s.runs.mockClear();
      await s.supervisor.advanceTo(T0 + 200 * MINUTE);
    }
    expect(one.runs).toHaveBeenCalledTimes(1);
    expect(batched.runs.mock.calls.length).toBeGreaterThanOrEqual(99);
    const [a, b] = [await one.supervisor.mustGet('p'), await batched.supervisor.mustGet('p')];
    expect(a.status).toBe('done');
    expect(a).toEqual(b);
    expect(await one.store.journal('p')).toEqual(
      (await batched.store.journal('p')).map((e, i) => ({ ...e, seq: i + 1 })),
    );
  });

  it('rule: the bound on steps without time passing counts from the time the run last moved to', async () => {
    // 60 passes of 3 acts each in one advance, far over the bound of 20, but a minute apart.
    const { supervisor } = await setup(loop('PT1M', 60), {
      wakeOneByOne: true,
      maxStepsPerRun: 20,
    });
    await supervisor.start('loop', { id: 'p' });
    await supervisor.advanceTo(T0 + 2 * 60 * MINUTE);
    const p = await supervisor.mustGet('p');
    expect(p.error).toBeNull();
    expect(p.status).toBe('done');
    expect(p.snapshot.visits.tick).toBe(60);
  });

  it('rule: a PT0S loop the advance wakes into is still stopped at the bound, as on the batch path', async () => {
    // Asleep a minute first, then 60 passes that no time separates.
    const f = loop('PT0S', 60);
    f.nodes.push(wait('first', [{ id: 'minute', timer: 'PT1M' }]));
    f.edges = [
      ...chain('start', 'first', 'tick', 'sleep'),
      ...f.edges.filter((e) => e.from === 'sleep'),
    ];
    const one = await setup(f, { wakeOneByOne: true, maxStepsPerRun: 20 });
    const batched = await setup(f, { maxStepsPerRun: 20 });
    for (const s of [one, batched]) {
      await s.supervisor.start('loop', { id: 'p' });
      await s.supervisor.advanceTo(T0 + 10 * MINUTE);
    }
    const p = await one.supervisor.mustGet('p');
    expect(p.status).toBe('stopped');
    expect(p.error).toMatch(/ran 20 steps without waiting for time to pass/);
    expect(p).toEqual(await batched.supervisor.mustGet('p'));
  });
});

describe('MemoryStore { journal: false }', () => {
  it('rule: keeps no journal and no context changes, while the context version counts every write', async () => {
    const store = new MemoryStore({ journal: false });
    await store.putFlow(loop('PT1M', 5));
    const supervisor = new Supervisor(store, new VirtualClock(T0), { wakeOneByOne: true });
    const p = await supervisor.start('loop', { id: 'p' });
    await supervisor.advanceTo(T0 + 10 * MINUTE);
    await supervisor.setContext('p', 'x', 1);
    expect(store.keepsJournal).toBe(false);
    expect(await store.journal('p')).toEqual([]);
    expect(await store.contextChanges(p.contextId)).toEqual([]);
    // Five ticks and the edit: version 6.
    expect(await store.getContext(p.contextId)).toEqual({
      id: p.contextId,
      version: 6,
      value: { n: 5, x: 1 },
    });
  });
});
