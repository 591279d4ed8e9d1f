import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../supervisor/clock.ts';
import { InProcessLocks, type Locks } from '../supervisor/locks.ts';
import { Supervisor } from '../supervisor/supervisor.ts';
import { HOUR, T0, hourly, sleepThenNote } from './fixtures/storeScenarios.ts';
import { IdbStore } from './idbStore.ts';

let databases = 0;

/** Two tabs: two connections to one database, each with its own supervisor, one clock. */
async function twoTabs(locks: [Locks, Locks]) {
  const name = `tabs-${++databases}`;
  const clock = new VirtualClock(T0);
  const first = await IdbStore.open(name);
  const second = await IdbStore.open(name);
  await first.putFlow(hourly());
  const a = new Supervisor(first, clock, { locks: locks[0] });
  const b = new Supervisor(second, clock, { locks: locks[1] });
  return { clock, first, second, a, b };
}

describe('two tabs on one workspace', () => {
  it('a sleeping process woken by both tabs at once wakes exactly once', async () => {
    // One lock manager for both, as Web Locks are one per origin.
    const locks = new InProcessLocks();
    const { clock, first, second, a, b } = await twoTabs([locks, locks]);
    const p = await a.start('hourly', { id: 'p', context: { count: 0 } });
    clock.set(T0 + HOUR);

    const woken = await Promise.all([a.wakeDue(), b.wakeDue()]);
    expect(woken[0] + woken[1]).toBe(1);

    const journal = await second.journal('p');
    expect(journal.filter((e) => e.type === 'woke')).toHaveLength(1);
    expect(journal.filter((e) => e.type === 'ran' && e.node === 'tick')).toHaveLength(2);
    expect(await first.getContext(p.contextId)).toMatchObject({ version: 2, value: { count: 2 } });
    expect((await second.getProcess('p'))?.due).toBe(T0 + 2 * HOUR);
    first.close();
    second.close();
  });

  it('without a lock the tabs share, the compare-and-set of a wake that writes the context still keeps it to once', async () => {
    const { clock, first, second, a, b } = await twoTabs([
      new InProcessLocks(),
      new InProcessLocks(),
    ]);
    const p = await a.start('hourly', { id: 'p', context: { count: 0 } });
    clock.set(T0 + HOUR);

    // Both read it due; the second commit finds the context moved on, reads the process again
    // (a batch reruns a conflicted wake from the store) and finds it woken already.
    const woken = await Promise.all([a.wakeDue(), b.wakeDue()]);
    expect(woken[0] + woken[1]).toBe(1);
    const journal = await second.journal('p');
    expect(journal.filter((e) => e.type === 'woke')).toHaveLength(1);
    expect((await first.getContext(p.contextId))?.value).toEqual({ count: 2 });
    first.close();
    second.close();
  });

  it('timers that fell due while every tab was closed fire when a tab opens, in order of due time across processes', async () => {
    const name = `tabs-${++databases}`;
    const clock = new VirtualClock(T0);
    const before = await IdbStore.open(name);
    for (const [id, timer] of [
      ['slow', 'PT3H'],
      ['fast', 'PT1H'],
      ['middle', 'PT2H'],
    ] as const)
      await before.putFlow(sleepThenNote(id, timer));
    const tab = new Supervisor(before, clock);
    // Started slowest first, so that the order of creation is not the order of due times.
    await tab.start('slow', { id: 'slow', context: { order: [] } });
    await tab.start('fast', { id: 'fast', shareContextWith: 'slow' });
    await tab.start('middle', { id: 'middle', shareContextWith: 'slow' });
    before.close();

    // Every tab closed; five hours go by; then the app opens again.
    clock.set(T0 + 5 * HOUR);
    const store = await IdbStore.open(name);
    const supervisor = new Supervisor(store, clock);
    expect(await supervisor.wakeDue()).toBe(3);

    const woke = (await Promise.all(['slow', 'fast', 'middle'].map((id) => store.journal(id))))
      .flat()
      .filter((e) => e.type === 'woke')
      .sort((x, y) => x.seq! - y.seq!);
    expect(woke.map((e) => e.process)).toEqual(['fast', 'middle', 'slow']);
    // Each is stamped when it woke: when the app opened, not when it fell due.
    expect(woke.map((e) => e.at)).toEqual([T0 + 5 * HOUR, T0 + 5 * HOUR, T0 + 5 * HOUR]);
    const slow = await supervisor.mustGet('slow');
    expect((await store.getContext(slow.contextId))?.value).toEqual({
      order: ['fast', 'middle', 'slow'],
    });
    for (const id of ['slow', 'fast', 'middle'])
      expect((await supervisor.mustGet(id)).status).toBe('done');
    expect(await supervisor.wakeDue()).toBe(0);
    store.close();
  });
});
