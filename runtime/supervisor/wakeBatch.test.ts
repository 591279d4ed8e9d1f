import { describe, expect, it } from 'vitest';
import { HOUR, T0, hourly } from '../store/fixtures/storeScenarios.ts';
import { testStore } from '../store/fixtures/testStore.ts';
import type { IdbStore } from '../store/idbStore.ts';
import { VirtualClock } from './clock.ts';
import { DueHeap } from './dueHeap.ts';
import type { StepCommit } from './store.ts';
import { InProcessLocks } from './locks.ts';
import { Supervisor } from './supervisor.ts';
import { storeCounts } from '../store/fixtures/storeCounts.ts';

/** Counts the write transactions a store opens and the commits asked of it, from now on. */
function spy(store: IdbStore) {
  const from = storeCounts(store).writeTransactions;
  const counts = {
    get transactions() {
      return storeCounts(store).writeTransactions - from;
    },
    commits: [] as StepCommit[],
  };
  const commitStep = store.commitStep.bind(store);
  store.commitStep = (c) => {
    counts.commits.push(c);
    return commitStep(c);
  };
  return counts;
}

async function dueLoops(ids: string[], options: { maxStepsPerBatch?: number } = {}) {
  const store = await testStore('batch');
  await store.putFlow(hourly());
  const clock = new VirtualClock(T0);
  const supervisor = new Supervisor(store, clock, options);
  for (const id of ids) await supervisor.start('hourly', { id, context: { count: 0 } });
  clock.set(T0 + HOUR);
  return { store, clock, supervisor };
}

const ids = (n: number) => Array.from({ length: n }, (_, i) => `p${String(i).padStart(2, '0')}`);

describe('several due wakes share a transaction', () => {
  it('rule: 50 due wakes of three acts each, in batches of 30 acts, commit in 5 transactions, one commit each', async () => {
    const { store, supervisor } = await dueLoops(ids(50), { maxStepsPerBatch: 30 });
    const counts = spy(store);
    expect(await supervisor.wakeDue()).toBe(50);
    expect(counts.commits).toHaveLength(50);
    expect(counts.transactions).toBe(5);
    for (const p of await store.listProcesses()) {
      expect(p.wakes).toBe(1);
      expect(p.due).toBe(T0 + 2 * HOUR);
      expect((await store.getContext(p.contextId))!.value).toEqual({ count: 2 });
    }
  });

  it('rule: with the default batch, the 50 wakes commit in one transaction', async () => {
    const { store, supervisor } = await dueLoops(ids(50));
    const counts = spy(store);
    expect(await supervisor.wakeDue()).toBe(50);
    expect(counts.transactions).toBe(1);
  });

  it('rule: an advance holds every pass of a process that fits in one batch in one commit', async () => {
    const { store, supervisor } = await dueLoops(['p']);
    const counts = spy(store);
    await supervisor.advanceTo(T0 + 100 * HOUR);
    expect(counts.commits).toHaveLength(1);
    const [commit] = counts.commits;
    // One change per pass, numbered on from the version the batch read.
    expect(commit!.context.expectedVersion).toBe(1);
    expect(commit!.context.write!.changes.map((c) => c.version)).toEqual(
      Array.from({ length: 100 }, (_, i) => i + 2),
    );
    // Each pass stamped at its own due time, and each stop keeps its snapshot.
    const woke = commit!.journal.filter((e) => e.type === 'woke');
    expect(woke.map((e) => e.at)).toEqual(
      Array.from({ length: 100 }, (_, i) => T0 + (i + 1) * HOUR),
    );
    expect(commit!.journal.filter((e) => e.snapshot)).toHaveLength(100);
  });

  it('rule: a commit that finds its context moved on reruns only that process, on the fresh context, and no step twice', async () => {
    const { store, supervisor } = await dueLoops(['p', 'q', 'r']);
    const counts = spy(store);
    // Another writer moves q's context on just before q's first commit reaches the database.
    const commitStep = store.commitStep.bind(store);
    let interfered = false;
    store.commitStep = async (c) => {
      if (c.process.id === 'q' && !interfered) {
        interfered = true;
        const now = (await store.getContext(c.context.id))!;
        await store.putContext(
          { ...now, version: now.version + 1, value: { ...(now.value as object), extra: 1 } },
          now.version,
          {
            contextId: now.id,
            version: now.version + 1,
            process: null,
            node: null,
            writes: [{ path: 'extra', value: 1 }],
            at: T0 + HOUR,
          },
        );
      }
      return commitStep(c);
    };
    expect(await supervisor.wakeDue()).toBe(3);
    // q's first commit reaches the spy after the outside write, then fails; p and r commit once.
    expect(counts.commits.map((c) => c.process.id)).toEqual(['p', 'r', 'q', 'q']);
    for (const id of ['p', 'q', 'r']) {
      const journal = await store.journal(id);
      expect(journal.filter((e) => e.type === 'woke')).toHaveLength(1);
      expect(journal.filter((e) => e.type === 'ran' && e.node === 'tick')).toHaveLength(2);
    }
    const q = await supervisor.mustGet('q');
    expect(await store.getContext(q.contextId)).toMatchObject({
      version: 3,
      value: { count: 2, extra: 1 },
    });
    expect((await store.contextChanges(q.contextId)).map((c) => [c.version, c.process])).toEqual([
      [1, 'q'],
      [2, null],
      [3, 'q'],
    ]);
    // Its rerun is stamped at the time the wake first ran.
    expect((await store.journal('q')).find((e) => e.type === 'woke')!.at).toBe(T0 + HOUR);
  });

  it('rule: processes sharing a context are never in one batch: each commit sees the one before', async () => {
    const store = await testStore('shared');
    await store.putFlow(hourly());
    const clock = new VirtualClock(T0);
    const supervisor = new Supervisor(store, clock);
    await supervisor.start('hourly', { id: 'a', context: { count: 0 } });
    await supervisor.start('hourly', { id: 'b', shareContextWith: 'a' });
    const counts = spy(store);
    await supervisor.advanceTo(T0 + 3 * HOUR);
    // a and b fall due together each hour and take turns: a batch each, as the context moves.
    expect(counts.commits.map((c) => c.process.id)).toEqual(['a', 'b', 'a', 'b', 'a', 'b']);
    const a = await supervisor.mustGet('a');
    expect((await store.getContext(a.contextId))!.value).toEqual({ count: 2 + 6 });
  });
});

describe('DueHeap', () => {
  it('gives the earliest due first, and among equal due times the oldest', () => {
    const heap = new DueHeap();
    const items = [5, 1, 4, 1, 3, 9, 2, 6].map((due, i) => ({
      id: `p${i}`,
      due,
      created: 10 - i,
      contextId: `c${i}`,
    }));
    for (const item of items) heap.push(item);
    const out: string[] = [];
    while (heap.size > 0) out.push(heap.pop()!.id);
    expect(out).toEqual(['p3', 'p1', 'p6', 'p4', 'p2', 'p0', 'p7', 'p5']);
    expect(heap.pop()).toBeUndefined();
  });
});

describe('a batch whose read fails gives back every lock it took', () => {
  it('rule: when one due process cannot be read, the batch fails and the others it locked are free again', async () => {
    const { store } = await dueLoops(['p', 'q', 'r']);
    const locks = new InProcessLocks();
    const failing = new Supervisor(store, new VirtualClock(T0 + HOUR), { locks });
    const load = store.loadProcess.bind(store);
    store.loadProcess = async (id) => {
      if (id === 'q') throw new Error('the disk went away');
      // The others are read after q's failure is known, as a slower read would be.
      await new Promise((r) => setTimeout(r, 0));
      return load(id);
    };
    await expect(failing.wakeDue()).rejects.toThrow('the disk went away');
    for (const id of ['p', 'r']) {
      const free = await locks.withLock(`wakeflow:process:${id}`, async () => true, {
        ifAvailable: true,
      });
      expect(free, `the lock of ${id}`).toEqual({ held: true, value: true });
    }
    // Nothing of the failed batch was written: each is still due, unwoken.
    store.loadProcess = load;
    for (const p of await store.listProcesses()) expect(p.wakes).toBe(0);
  });
});

describe('an advance wakes what is due in its batches', () => {
  it('rule: 50 loops due at once, in batches of 30 acts, are all woken in batches by advanceTo: none alone, each once', async () => {
    const { store, clock, supervisor } = await dueLoops(ids(50), { maxStepsPerBatch: 30 });
    clock.set(T0);
    const counts = spy(store);
    // A process woken alone is read with getProcess (ProcessRunner.drive); a batch loads them.
    let alone = 0;
    const getProcess = store.getProcess.bind(store);
    store.getProcess = (id) => (alone++, getProcess(id));
    await supervisor.advanceTo(T0 + HOUR);
    expect(alone).toBe(0);
    // Ten processes of three acts each per batch: five transactions, as wakeDue commits them.
    expect(counts.transactions).toBe(5);
    for (const p of await store.listProcesses()) {
      expect(p.wakes).toBe(1);
      expect((await store.getContext(p.contextId))!.value).toEqual({ count: 2 });
    }
  });
});
