import { describe, expect, it } from 'vitest';
import { minimalFlow } from '../../shared/fixtures/flows.ts';
import { VirtualClock } from '../supervisor/clock.ts';
import type { ProcessRecord, ProcessStatus } from '../supervisor/records.ts';
import { Supervisor } from '../supervisor/supervisor.ts';
import { T0 } from './fixtures/storeScenarios.ts';
import { testStore } from './fixtures/testStore.ts';
import { IdbStore } from './idbStore.ts';
import { MemoryStore } from './memoryStore.ts';
import { ResilientStore } from './resilientStore.ts';
import { loadDump, readDump } from './fixtures/loadDatabaseFixture.ts';
import { storeCounts } from './fixtures/storeCounts.ts';

const MANY = 3000;
/** Every third process waits, every seventh asks what to do; of flow b every fifth, else a. */
const statusOf = (i: number): ProcessStatus =>
  i % 7 === 0 ? 'flow-changed' : i % 3 === 0 ? 'waiting' : 'done';
const flowOf = (i: number) => (i % 5 === 0 ? 'b' : 'a');

/** `MANY` processes (and the one they are copied from) like `like`, created in an order their ids do not sort in. */
function crowd(like: ProcessRecord): ProcessRecord[] {
  return Array.from({ length: MANY }, (_, i) => ({
    ...like,
    id: `p${(i * 7919) % MANY}-${i}`,
    flow: flowOf(i),
    status: statusOf(i),
    due: null,
    created: 10_000 + i,
  }));
}

async function crowded(): Promise<{ store: IdbStore; all: ProcessRecord[] }> {
  const store = await testStore('window');
  await store.putFlow(minimalFlow('a'));
  const like = await new Supervisor(store, new VirtualClock(T0)).start('a', { id: 'like' });
  const others = crowd(like);
  await store.saveBatch({
    flows: [],
    versions: [],
    contexts: [],
    changes: [],
    processes: others,
    journal: [],
  });
  // The one started first is the first in order of creation.
  return { store, all: [(await store.getProcess('like'))!, ...others] };
}

/** The store, with its process writes refused as a full disk refuses them. */
function refusingWrites(idb: IdbStore): IdbStore {
  return new Proxy(idb, {
    get(target, prop, receiver) {
      const value: unknown = Reflect.get(target, prop, receiver);
      if (prop === 'putProcess')
        return () => Promise.reject(new DOMException('full', 'QuotaExceededError'));
      return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
    },
  });
}

const ids = (ps: ProcessRecord[]) => ps.map((p) => p.id);

describe('the process table is read a window at a time (Store.processWindow, countProcesses)', () => {
  it('rule: a window of 40 rows among 3,000 reads 40 process records, in order of creation, from its offset', async () => {
    const { store, all } = await crowded();
    const before = storeCounts(store).processReads;
    const rows = await store.processWindow({ offset: 2000, limit: 40 });
    expect(storeCounts(store).processReads - before).toBe(40);
    expect(ids(rows)).toEqual(ids(all.slice(2000, 2040)));
    // Past the end: what is left, then nothing.
    expect(ids(await store.processWindow({ offset: all.length - 5, limit: 40 }))).toEqual(
      ids(all.slice(-5)),
    );
    expect(await store.processWindow({ offset: all.length + 10, limit: 40 })).toEqual([]);
    // No limit: the rest of the list (the start form's list of processes to share with).
    expect(ids(await store.processWindow({ offset: 10, limit: Infinity }))).toEqual(
      ids(all.slice(10)),
    );
  });

  it('rule: a window of one status reads only its rows, in order of creation', async () => {
    const { store, all } = await crowded();
    const waiting = all.filter((p) => p.status === 'waiting');
    const before = storeCounts(store).processReads;
    const rows = await store.processWindow({ offset: 100, limit: 30, status: 'waiting' });
    expect(storeCounts(store).processReads - before).toBe(30);
    expect(ids(rows)).toEqual(ids(waiting.slice(100, 130)));
    expect(await store.processWindow({ offset: 0, limit: 10, status: 'running' })).toEqual([]);
  });

  it('rule: counts in all, per status and per flow read no process record', async () => {
    const { store, all } = await crowded();
    const before = storeCounts(store).processReads;
    const counts = await store.countProcesses();
    const ofB = await store.countProcesses('b');
    expect(storeCounts(store).processReads - before).toBe(0);
    const count = (ps: ProcessRecord[], s: ProcessStatus) =>
      ps.filter((p) => p.status === s).length;
    expect(counts).toEqual({
      total: MANY + 1,
      byStatus: {
        waiting: count(all, 'waiting'),
        done: count(all, 'done'),
        'flow-changed': count(all, 'flow-changed'),
      },
    });
    const b = all.filter((p) => p.flow === 'b');
    expect(ofB.total).toBe(b.length);
    expect(ofB.byStatus['flow-changed']).toBe(count(b, 'flow-changed'));
    // A flow's processes of one status, read alone.
    const asking = await store.processWindow({
      offset: 0,
      limit: Infinity,
      flow: 'b',
      status: 'flow-changed',
    });
    expect(ids(asking)).toEqual(ids(b.filter((p) => p.status === 'flow-changed')));
  });

  it('the memory store and a resilient store holding unsaved writes answer as the database does', async () => {
    const { store, all } = await crowded();
    const memory = new MemoryStore();
    for (const p of all) await memory.putProcess(p);
    // A write held in memory (the disk refused it) is seen by the window and the counts.
    const resilient = new ResilientStore(refusingWrites(store));
    const held = { ...all[1]!, status: 'failed' as const, error: 'held' };
    await resilient.putProcess(held);
    expect(resilient.saveState.saved).toBe(false);
    const queries = [
      { offset: 0, limit: 5 },
      { offset: 10, limit: 5, status: 'done' as const },
      { offset: 0, limit: 50, status: 'failed' as const },
    ];
    await memory.putProcess(held);
    for (const q of queries)
      expect(ids(await resilient.processWindow(q))).toEqual(ids(await memory.processWindow(q)));
    expect(await resilient.countProcesses()).toEqual(await memory.countProcesses());
    expect((await resilient.countProcesses()).byStatus.failed).toBe(1);
  });

  it('rule: a database of schema 3 (frozen from commit cc53c95) gets the windows and counts when opened today', async () => {
    const dump = readDump('schema3-cc53c95.json');
    const store = await IdbStore.open(await loadDump(dump));
    const stored = (dump.stores.processes ?? []).map(([, p]) => p as ProcessRecord);
    const inOrder = [...stored].sort((a, b) => a.created - b.created);
    expect(ids(await store.processWindow({ offset: 1, limit: 3 }))).toEqual(
      ids(inOrder.slice(1, 4)),
    );
    const waiting = inOrder.filter((p) => p.status === 'waiting');
    expect(waiting.length).toBeGreaterThan(1);
    expect(ids(await store.processWindow({ offset: 0, limit: 10, status: 'waiting' }))).toEqual(
      ids(waiting),
    );
    const counts = await store.countProcesses();
    expect(counts.total).toBe(stored.length);
    expect(counts.byStatus.waiting).toBe(waiting.length);
    expect((await store.countProcesses('hourly')).total).toBe(
      stored.filter((p) => p.flow === 'hourly').length,
    );
    store.close();
  });
});
