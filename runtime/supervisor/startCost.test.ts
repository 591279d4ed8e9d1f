import { describe, expect, it } from 'vitest';
import { minimalFlow } from '../../shared/fixtures/flows.ts';
import { testStore } from '../store/fixtures/testStore.ts';
import { VirtualClock } from './clock.ts';
import { Supervisor } from './supervisor.ts';

describe('starting a process costs the same however many exist', () => {
  it('rule: the order of creation is read from the store once, not at every start', async () => {
    const store = await testStore('start-cost');
    await store.putFlow(minimalFlow('once'));
    let lists = 0;
    const listProcesses = store.listProcesses.bind(store);
    store.listProcesses = () => {
      lists++;
      return listProcesses();
    };
    const supervisor = new Supervisor(store, new VirtualClock(Date.UTC(2026, 0, 1)));
    for (let i = 0; i < 30; i++) await supervisor.start('once', { id: `p${i}` });
    expect(lists).toBe(1);
    // Still in order of creation.
    const created = (await listProcesses()).map((p) => [p.id, p.created]);
    expect(created).toEqual(Array.from({ length: 30 }, (_, i) => [`p${i}`, i]));
    // A supervisor opened later (a reload) goes on after them.
    const later = new Supervisor(store, new VirtualClock(Date.UTC(2026, 0, 1)));
    expect((await later.start('once', { id: 'q' })).created).toBe(30);
  });
});
