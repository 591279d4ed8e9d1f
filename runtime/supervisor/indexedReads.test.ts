import { describe, expect, it } from 'vitest';
import { chain, end, flow, start, wait, work } from '../../shared/fixtures/flows.ts';
import { HOUR, T0, hourly } from '../store/fixtures/storeScenarios.ts';
import { testStore } from '../store/fixtures/testStore.ts';
import type { IdbStore } from '../store/idbStore.ts';
import { VirtualClock } from './clock.ts';
import type { ProcessRecord } from './records.ts';
import { Supervisor } from './supervisor.ts';
import { storeCounts } from '../store/fixtures/storeCounts.ts';

const MANY = 5000;
const DAY = 24 * HOUR;

/** Waits for the event `paid`, then notes it. */
const onPaid = flow({
  id: 'on-paid',
  nodes: [start(), wait('w', [{ id: 'e', event: 'paid' }]), work('note', { paid: 'true' }), end()],
  edges: chain('start', 'w', 'note', 'end'),
});

/** `MANY` copies of a waiting process of the hourly loop, each due a day from now. */
async function crowd(store: IdbStore, like: ProcessRecord) {
  const processes = Array.from({ length: MANY }, (_, i) => ({
    ...like,
    id: `crowd${i}`,
    due: T0 + DAY,
    created: 1000 + i,
  }));
  await store.saveBatch({
    flows: [],
    versions: [],
    contexts: [],
    changes: [],
    processes,
    journal: [],
  });
}

describe('cost independent of how many processes exist (counted in process records read)', () => {
  it('rule: an event reaches its one waiter among 5,001 processes by reading O(1) process records', async () => {
    const store = await testStore('event-reads');
    for (const f of [hourly(), onPaid]) await store.putFlow(f);
    const supervisor = new Supervisor(store, new VirtualClock(T0));
    await supervisor.start('hourly', { id: 'loop', context: { count: 0 } });
    await supervisor.start('on-paid', { id: 'buyer', context: {} });
    expect((await store.getProcess('buyer'))!.waitsFor).toEqual(['paid']);
    expect((await store.getProcess('loop'))!.waitsFor).toEqual([]);
    await crowd(store, (await store.getProcess('loop'))!);

    const before = storeCounts(store).processReads;
    expect(await supervisor.deliverEvent('paid', { amount: 3 })).toBe(1);
    const reads = storeCounts(store).processReads - before;
    // The waiter's index entry, its record under the lock, the reads of its own run: a handful.
    expect(reads).toBeLessThan(10);
    expect((await store.getProcess('buyer'))!.status).toBe('done');
    expect((await store.getProcess('buyer'))!.waitsFor).toBeUndefined();

    // An event nobody waits for reads no process record at all.
    const again = storeCounts(store).processReads;
    expect(await supervisor.deliverEvent('nobody', {})).toBe(0);
    expect(storeCounts(store).processReads - again).toBe(0);
  });

  it('rule: finding the due wakes reads only the due processes, and the next due time reads none', async () => {
    const store = await testStore('due-reads');
    await store.putFlow(hourly());
    const supervisor = new Supervisor(store, new VirtualClock(T0));
    for (const id of ['a', 'b', 'c'])
      await supervisor.start('hourly', { id, context: { count: 0 } });
    await crowd(store, (await store.getProcess('a'))!);

    let before = storeCounts(store).processReads;
    expect(await supervisor.nextDue()).toBe(T0 + HOUR);
    expect(storeCounts(store).processReads - before).toBe(0);

    before = storeCounts(store).processReads;
    const { wakes } = await supervisor.advanceTo(T0 + HOUR);
    expect(wakes).toBe(3);
    // Each of the 3 is read from the due index and once more under its lock; the crowd is not.
    const reads = storeCounts(store).processReads - before;
    expect(reads).toBeLessThan(3 * 5);
    expect(await store.nextDueAt()).toBe(T0 + 2 * HOUR);
  });
});
