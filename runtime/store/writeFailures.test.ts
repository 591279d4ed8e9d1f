import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../supervisor/clock.ts';
import { Supervisor } from '../supervisor/supervisor.ts';
import { testStore } from './fixtures/testStore.ts';
import { HOUR, T0, hourly } from './fixtures/storeScenarios.ts';
import type { IdbStore } from './idbStore.ts';
import { ResilientStore } from './resilientStore.ts';

/** The store, with the writes `failing` names refused as a full disk refuses them. */
function refusing(idb: IdbStore, failing: (method: string) => boolean): IdbStore {
  return new Proxy(idb, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) =>
        failing(String(prop))
          ? Promise.reject(new DOMException('full', 'QuotaExceededError'))
          : value.apply(target, args);
    },
  });
}

describe('failed writes', () => {
  it('a step whose transaction fails partway writes nothing, and leaves no unhandled rejection', async () => {
    const s = await testStore();
    const first = { contextId: 'c', version: 0, process: 'p', node: 'x', writes: [], at: 1 };
    await s.putContext({ id: 'c', version: 0, value: { n: 0 } }, null, first);
    await s.putProcess({ id: 'p' } as never, [{ type: 'done', process: 'p', at: 1 } as never]);
    const journal = await s.journal('p');
    const step = s.commitStep({
      process: { id: 'p', x: 1 } as never,
      context: {
        id: 'c',
        expectedVersion: 0,
        write: {
          value: { n: 1 },
          // The store refuses this change (its key exists): the request fails, the transaction
          // aborts, and the process record and journal record asked for after it go too.
          changes: [{ ...first, version: 1, seq: 1 } as never],
        },
      },
      journal: [{ type: 'done', process: 'p', at: 2 } as never],
    });
    await expect(step).rejects.toThrow();
    expect(await s.getContext('c')).toEqual({ id: 'c', version: 0, value: { n: 0 } });
    // As the first write stored it (a record too bare to be restored, so read raw).
    expect(await s.db.get('processes', 'p')).toEqual({ id: 'p', recordVersion: 2 });
    expect(await s.contextChanges('c')).toEqual([{ ...first, seq: 1 }]);
    expect(await s.journal('p')).toEqual(journal);
  });

  it("rule: a call's progress written while the disk is full is read from memory, and saved once it has room", async () => {
    const idb = await testStore();
    await idb.putCallProgress('p', { seq: 3, attempts: 2, due: T0 });
    let failing = true;
    const store = new ResilientStore(refusing(idb, (m) => failing && /^(put|delete|save)/.test(m)));
    await store.putCallProgress('p', { seq: 1, attempts: 1, due: null });
    await store.putCallProgress('p', { seq: 2, attempts: 0, due: T0 });
    await store.deleteCallProgress('p', 2);
    await store.deleteCallProgress('p', 3);
    expect(store.saveState.saved).toBe(false);
    expect(await store.listCallProgress('p')).toEqual([{ seq: 1, attempts: 1, due: null }]);
    expect(await idb.listCallProgress('p')).toEqual([{ seq: 3, attempts: 2, due: T0 }]);
    failing = false;
    expect(await store.flush()).toBe(true);
    expect(await idb.listCallProgress('p')).toEqual([{ seq: 1, attempts: 1, due: null }]);
  });

  it('a process started while the disk is full wakes once the disk has room again', async () => {
    const idb = await testStore();
    await idb.putFlow(hourly());
    let failing = true;
    const clock = new VirtualClock(T0);
    const store = new ResilientStore(
      refusing(idb, (m) => failing && /^(put|commit|save)/.test(m)),
      () => clock.now(),
    );
    const supervisor = new Supervisor(store, clock);
    await supervisor.start('hourly', { id: 'p', context: { count: 0 } });
    failing = false;
    expect(await store.flush()).toBe(true);
    await supervisor.advanceTo(T0 + HOUR);
    const p = await supervisor.mustGet('p');
    expect((await store.getContext(p.contextId))?.value).toEqual({ count: 2 });
  });

  it('the warning goes once a failed flow-version write is saved after all', async () => {
    const idb = await testStore();
    await idb.putFlow(hourly());
    let failOnce = true;
    const clock = new VirtualClock(T0);
    const store = new ResilientStore(
      refusing(idb, (m) => {
        const fail = m === 'putFlowVersion' && failOnce;
        if (fail) failOnce = false;
        return fail;
      }),
      () => clock.now(),
    );
    const states: boolean[] = [];
    store.onSaveState((state) => states.push(state.saved));
    const supervisor = new Supervisor(store, clock);
    await supervisor.start('hourly', { id: 'p', context: { count: 0 } });
    await supervisor.advanceTo(T0 + 2 * HOUR);
    await store.flush();
    expect(states).toEqual([false, true]);
    expect(store.saveState).toEqual({ saved: true });
    expect(
      await idb.getFlowVersion('hourly', (await supervisor.mustGet('p')).versions.hourly!),
    ).toBeDefined();
  });
});
