import { describe, expect, it } from 'vitest';
import { chain, edge, flow, start, wait, work } from '../../shared/fixtures/flows.ts';
import type { Flow } from '../../shared/schema.ts';
import { testStore } from '../store/fixtures/testStore.ts';
import { VirtualClock } from './clock.ts';
import { Supervisor, type SupervisorOptions } from './supervisor.ts';

const T0 = Date.UTC(2026, 0, 1);

async function setup(flows: Flow[], options: SupervisorOptions = {}) {
  const store = await testStore();
  const clock = new VirtualClock(T0);
  for (const f of flows) await store.putFlow(f);
  const supervisor = new Supervisor(store, clock, options);
  const context = async (pid: string) =>
    (await store.getContext((await supervisor.mustGet(pid)).contextId))!.value;
  return { store, clock, supervisor, context };
}

/** tick, then sleep PT0S, for ever: a loop that never waits for time to pass. */
const spinning = flow({
  id: 'spin',
  nodes: [
    start(),
    work('tick', { count: 'count + 1' }),
    wait('sleep', [{ id: 'now', timer: 'PT0S' }]),
  ],
  edges: [...chain('start', 'tick', 'sleep'), edge('sleep', 'tick')],
});

describe('rule 3: a PT0S loop is a durable stop each pass, and the step budget still applies', () => {
  it('a PT0S loop that never ends is stopped at the budget, saying why, each pass committed', async () => {
    const { supervisor, store, context } = await setup([spinning], { maxStepsPerRun: 30 });
    const p = await supervisor.start('spin', { id: 'p', context: { count: 0 } });
    expect(p.status).toBe('stopped');
    expect(p.error).toMatch(/ran 30 steps without waiting for time to pass/);
    // start, then tick, sleep and a wake per pass: 30 steps are 10 passes, each one stored.
    expect(await context('p')).toEqual({ count: 10 });
    const waited = (await store.journal('p')).filter((e) => e.type === 'waited');
    expect(waited).toHaveLength(10);
    expect(waited.every((e) => e.snapshot !== undefined)).toBe(true);
  });

  it('the timer of a PT0S wait is due at the clock, not after it', async () => {
    const once = flow({
      id: 'once',
      nodes: [
        start(),
        wait('sleep', [{ id: 'now', timer: 'PT0S' }]),
        work('after', { done: 'true' }),
      ],
      edges: chain('start', 'sleep', 'after'),
    });
    const { supervisor, context } = await setup([once]);
    const p = await supervisor.start('once', { id: 'p' });
    expect(p.status).toBe('done');
    expect(await context('p')).toEqual({ done: true });
  });
});
