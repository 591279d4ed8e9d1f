import { describe, expect, it } from 'vitest';
import { minimalFlow } from '../../shared/fixtures/flows.ts';
import { VirtualClock } from '../supervisor/clock.ts';
import { Supervisor } from '../supervisor/supervisor.ts';
import { HOUR, T0, hourly } from './fixtures/storeScenarios.ts';
import { testStore } from './fixtures/testStore.ts';
import { IdbStore } from './idbStore.ts';
import { ResilientStore } from './resilientStore.ts';

/** The store with every write refused while `failing.now`, as a full disk refuses them. */
function sometimesFull(idb: IdbStore, failing: { now: boolean }): IdbStore {
  return new Proxy(idb, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) =>
        failing.now && /^(put|delete|commit|save)/.test(String(prop))
          ? Promise.reject(new DOMException('full', 'QuotaExceededError'))
          : value.apply(target, args);
    },
  });
}

describe('one write path: deletes and settings through the ResilientStore', () => {
  it('rule: a flow saved during a fault and then deleted stays deleted after the flush, and the listing agrees throughout', async () => {
    const idb = await testStore('one-path');
    const failing = { now: true };
    const store = new ResilientStore(sometimesFull(idb, failing));
    await store.putFlow(minimalFlow('kept'));
    await store.putFlow(minimalFlow('gone'));
    await store.deleteFlow('gone');
    expect(store.saveState.saved).toBe(false);
    expect((await store.listFlows()).map((f) => f.id)).toEqual(['kept']);
    expect(await store.getFlow('gone')).toBeUndefined();

    failing.now = false;
    expect(await store.flush()).toBe(true);
    const reopened = await IdbStore.open(idb.db.name);
    expect((await reopened.listFlows()).map((f) => f.id)).toEqual(['kept']);
    reopened.close();
  });

  it('a stored flow deleted during a fault is deleted on disk once writes work, and a later save brings it back', async () => {
    const idb = await testStore('one-path');
    await idb.putFlow(minimalFlow('f'));
    const failing = { now: true };
    const store = new ResilientStore(sometimesFull(idb, failing));
    await store.deleteFlow('f');
    expect(await idb.getFlow('f')).toBeDefined();
    expect(await store.getFlow('f')).toBeUndefined();
    failing.now = false;
    await store.putMeta('openFlow', 'f');
    expect(await idb.getFlow('f')).toBeUndefined();
    expect(await idb.getMeta('openFlow')).toBe('f');
    await store.putFlow(minimalFlow('f'));
    expect((await idb.listFlows()).map((f) => f.id)).toEqual(['f']);
  });

  it('a setting written during a fault is read back from memory, then saved with the rest', async () => {
    const idb = await testStore('one-path');
    const failing = { now: true };
    const store = new ResilientStore(sometimesFull(idb, failing));
    await store.putMeta('openFlow', 'x');
    expect(await store.getMeta('openFlow')).toBe('x');
    expect(await idb.getMeta('openFlow')).toBeUndefined();
    failing.now = false;
    expect(await store.flush()).toBe(true);
    expect(await idb.getMeta('openFlow')).toBe('x');
  });

  it('rule: what a tab held while it could not save yields to the steps another tab took meanwhile: no step is saved twice', async () => {
    const idb = await testStore('one-path');
    await idb.putFlow(hourly());
    const clock = new VirtualClock(T0);
    await new Supervisor(idb, clock).start('hourly', { id: 'p', context: { count: 0 } });
    // Tab one cannot save and wakes p in memory; tab two can, and wakes it as well.
    const failing = { now: true };
    const one = new ResilientStore(sometimesFull(idb, failing));
    const two = await IdbStore.open(idb.db.name);
    await new Supervisor(one, clock).advanceTo(T0 + HOUR);
    expect(one.saveState.saved).toBe(false);
    await new Supervisor(two, clock).advanceTo(T0 + HOUR);
    failing.now = false;
    expect(await one.flush()).toBe(true);
    const journal = await idb.journal('p');
    expect(journal.filter((e) => e.type === 'woke')).toHaveLength(1);
    const p = (await idb.getProcess('p'))!;
    expect(p.wakes).toBe(1);
    expect(await idb.getContext(p.contextId)).toMatchObject({ version: 2, value: { count: 2 } });
    expect((await idb.contextChanges(p.contextId)).map((c) => c.version)).toEqual([1, 2]);
    two.close();
  });
});
