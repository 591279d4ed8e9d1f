import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../supervisor/clock.ts';
import { Supervisor } from '../supervisor/supervisor.ts';
import { testStore } from './fixtures/testStore.ts';
import { HOUR, T0, hourly, withoutSeq } from './fixtures/storeScenarios.ts';
import type { IdbStore } from './idbStore.ts';
import { ResilientStore } from './resilientStore.ts';

/** A store whose writes fail from now on, as a full disk refuses them. */
function full(idb: IdbStore): IdbStore {
  return new Proxy(idb, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target);
      if (typeof value !== 'function') return value;
      const writes = ['putProcess', 'commitStep', 'putContext', 'saveBatch', 'putFlowVersion'];
      return (...args: unknown[]) =>
        writes.includes(String(prop))
          ? Promise.reject(new DOMException('full', 'QuotaExceededError'))
          : value.apply(target, args);
    },
  });
}

async function tenPasses() {
  const idb = await testStore('journal-page');
  await idb.putFlow(hourly());
  const clock = new VirtualClock(T0);
  const supervisor = new Supervisor(idb, clock);
  await supervisor.start('hourly', { id: 'p', context: { count: 0 } });
  await supervisor.start('hourly', { id: 'q', context: { count: 0 } });
  await supervisor.advanceTo(T0 + 10 * HOUR);
  return { idb, clock };
}

describe('the journal read a page at a time (journalPage)', () => {
  it('rule: gives the newest entries of one process, newest first, and says whether older ones are left', async () => {
    const { idb } = await tenPasses();
    const whole = await idb.journal('p');
    expect(whole.length).toBeGreaterThan(20);
    const page = await idb.journalPage('p', 7);
    expect(page.entries).toEqual(whole.slice(-7).reverse());
    expect(page.more).toBe(true);
    const all = await idb.journalPage('p', whole.length);
    expect(all).toEqual({ entries: [...whole].reverse(), more: false });
    expect(page.entries.every((e) => e.process === 'p')).toBe(true);
  });

  it('with saving failing, the entries held in memory come first, newer than any saved', async () => {
    const { idb, clock } = await tenPasses();
    const saved = await idb.journal('p');
    const store = new ResilientStore(full(idb));
    await new Supervisor(store, clock).advanceTo(T0 + 12 * HOUR);
    expect(store.saveState.saved).toBe(false);
    const held = (await store.journal('p')).slice(saved.length);
    expect(held.length).toBeGreaterThan(0);
    const page = await store.journalPage('p', held.length + 3);
    expect(page.entries.map(withoutSeq)).toEqual(
      [...saved.slice(-3), ...held].reverse().map(withoutSeq),
    );
    expect(page.more).toBe(true);
  });
});
