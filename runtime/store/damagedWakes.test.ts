import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../supervisor/clock.ts';
import { Supervisor } from '../supervisor/supervisor.ts';
import { HOUR, T0, hourly } from './fixtures/storeScenarios.ts';
import { testStore } from './fixtures/testStore.ts';
import { DamagedRecordError } from './restore.ts';

/** Three hourly loops, each on its own context, asleep until T0 + 1 h. */
async function threeLoops() {
  const store = await testStore('damaged-wakes');
  await store.putFlow(hourly());
  const clock = new VirtualClock(T0);
  const supervisor = new Supervisor(store, clock);
  for (const id of ['a', 'b', 'c']) await supervisor.start('hourly', { id, context: { count: 0 } });
  return { store, clock, supervisor };
}

describe('a damaged record fails only what reads it', () => {
  it('rule: loads asked for together answer each on its own: a damaged process record fails its own load, the others load', async () => {
    const { store } = await threeLoops();
    const good = (await store.db.get('processes', 'b'))!;
    await store.db.put('processes', { ...good, status: 7 } as never);
    const loads = await Promise.allSettled(['a', 'b', 'c'].map((id) => store.loadProcess(id)));
    const ids = loads.map((l) => (l.status === 'fulfilled' ? l.value?.record.id : 'rejected'));
    expect(ids).toEqual(['a', 'rejected', 'c']);
    const reason = (loads[1] as PromiseRejectedResult).reason as Error;
    expect(reason).toBeInstanceOf(DamagedRecordError);
    expect(reason.message).toMatch(/^process "b" cannot be restored: its status is 7/);
  });

  it('rule: a load whose context is damaged says what is damaged, and the others of its batch load', async () => {
    const { store } = await threeLoops();
    const b = (await store.getProcess('b'))!;
    await store.db.put('contexts', { id: b.contextId, version: -1, value: {} } as never);
    const loads = await Promise.all(['a', 'b', 'c'].map((id) => store.loadProcess(id)));
    expect(loads.map((l) => l?.record.id)).toEqual(['a', 'b', 'c']);
    expect(loads.map((l) => l?.damaged?.message)).toEqual([
      undefined,
      `context "${b.contextId}" cannot be restored: its "version" is -1, not a whole number; it is left as stored`,
      undefined,
    ]);
  });

  it('rule: a due process whose context is damaged fails once, naming the context, and is not woken again; the others wake', async () => {
    const { store, clock, supervisor } = await threeLoops();
    const b = (await store.getProcess('b'))!;
    await store.db.put('contexts', { id: b.contextId, version: -1, value: {} } as never);
    clock.set(T0 + HOUR);
    expect(await supervisor.wakeDue()).toBe(2);
    const failed = (await store.getProcess('b'))!;
    expect(failed.status).toBe('failed');
    expect(failed.due).toBeNull();
    expect(failed.error).toBe(
      `its context cannot be read: context "${b.contextId}" cannot be restored: its "version" is -1, not a whole number; it is left as stored`,
    );
    // Nothing of it is due any more: later rounds wake the others alone, and leave it as it is.
    expect((await supervisor.advanceTo(T0 + 3 * HOUR)).wakes).toBe(4);
    expect(await store.getProcess('b')).toEqual(failed);
    expect(await store.db.get('contexts', b.contextId)).toEqual({
      id: b.contextId,
      version: -1,
      value: {},
    });
    expect((await store.getProcess('a'))!.wakes).toBe(3);
  });

  it('rule: a due process whose flow is damaged fails once, naming the flow', async () => {
    const { store, clock, supervisor } = await threeLoops();
    const flow = (await store.db.get('flows', 'hourly'))!;
    await store.db.put('flows', { ...flow, format: 'flow/9' } as never);
    clock.set(T0 + HOUR);
    await supervisor.wakeDue();
    const records = await Promise.all(['a', 'b', 'c'].map((id) => store.getProcess(id)));
    expect(records.map((r) => [r!.status, r!.error])).toEqual(
      Array(3).fill([
        'failed',
        'its flow cannot be read: flow "hourly" cannot be restored: its format is "flow/9", not "flow/1"; it is left as stored',
      ]),
    );
    expect(await store.nextDueAt()).toBeNull();
  });
});
