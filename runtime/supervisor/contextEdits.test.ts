import { describe, expect, it } from 'vitest';
import { VirtualClock } from './clock.ts';
import { hourly } from '../store/fixtures/storeScenarios.ts';
import { testStore } from '../store/fixtures/testStore.ts';
import { Supervisor, SupervisorError } from './supervisor.ts';

const T0 = Date.UTC(2026, 0, 1);

async function setup() {
  const store = await testStore();
  const clock = new VirtualClock(T0);
  await store.putFlow(hourly());
  const supervisor = new Supervisor(store, clock);
  const p = await supervisor.start('hourly', { id: 'p', context: { count: 0 } });
  return { store, clock, supervisor, p };
}

describe('a context written from outside any process is journalled (docs/format.md: "context written")', () => {
  it('a path written (a scenario, the flow command line) is an entry of the process, with what was written and when, and the snapshot it leaves', async () => {
    const { store, clock, supervisor } = await setup();
    clock.set(T0 + 1000);
    await supervisor.setContext('p', 'count', 10);
    const last = (await store.journal('p')).at(-1)!;
    expect(last).toMatchObject({
      type: 'context-edited',
      process: 'p',
      at: T0 + 1000,
      writes: [{ path: 'count', value: 10 }],
    });
    // The entry keeps the snapshot, so that the inspector can show the process as of it.
    expect(last.snapshot).toEqual((await supervisor.mustGet('p')).snapshot);
    const context = await store.getContext((await supervisor.mustGet('p')).contextId);
    expect(context?.value).toEqual({ count: 10 });
  });

  it('the whole document replaced (the inspector) is an entry too, committed with the context: one more version, one more entry', async () => {
    const { store, supervisor, p } = await setup();
    const before = (await store.journal('p')).length;
    const version = (await store.getContext(p.contextId))!.version;
    await supervisor.replaceContext('p', { count: 7, note: 'by hand' });
    const journal = await store.journal('p');
    expect(journal.length).toBe(before + 1);
    expect(journal.at(-1)).toMatchObject({
      type: 'context-edited',
      writes: [{ path: '', value: { count: 7, note: 'by hand' } }],
    });
    expect((await store.getContext(p.contextId))!.version).toBe(version + 1);
  });

  it('a write refused (not a JSON object, a bad path) journals nothing and stores nothing', async () => {
    const { store, supervisor, p } = await setup();
    const before = await store.journal('p');
    const context = await store.getContext(p.contextId);
    await expect(supervisor.replaceContext('p', [1, 2])).rejects.toThrow(SupervisorError);
    await expect(supervisor.setContext('p', 'a..b', 1)).rejects.toThrow(SupervisorError);
    expect(await store.journal('p')).toEqual(before);
    expect(await store.getContext(p.contextId)).toEqual(context);
  });
});
