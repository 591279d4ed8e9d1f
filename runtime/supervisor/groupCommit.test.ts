import { describe, expect, it } from 'vitest';
import { chain, end, flow, start, work, splitJoin } from '../../shared/fixtures/flows.ts';
import type { Flow } from '../../shared/schema.ts';
import { testStore } from '../store/fixtures/testStore.ts';
import { MemoryStore } from '../store/memoryStore.ts';
import type { IdbStore } from '../store/idbStore.ts';
import { VirtualClock } from './clock.ts';
import type { StepCommit, Store } from './store.ts';
import { Supervisor } from './supervisor.ts';
import { MAX_STEPS_PER_COMMIT } from './limits.ts';
import { storeCounts } from '../store/fixtures/storeCounts.ts';

const T0 = Date.UTC(2026, 0, 1);

/** A store that records every commit it is asked for. */
function counting<S extends Store>(store: S) {
  const commits: StepCommit[] = [];
  const commitStep = store.commitStep.bind(store);
  store.commitStep = (c: StepCommit) => {
    commits.push(c);
    return commitStep(c);
  };
  return { store, commits };
}

const chainOf = (n: number): Flow => {
  const ids = Array.from({ length: n }, (_, i) => `w${i}`);
  return flow({
    id: 'chain',
    nodes: [start(), ...ids.map((id) => work(id, { count: 'count + 1' })), end()],
    edges: chain('start', ...ids, 'end'),
  });
};

describe('group commit: a run to its next stop is one commit', () => {
  it('a chain longer than one commit holds commits every MAX_STEPS_PER_COMMIT steps, each a prefix of the run', async () => {
    // start, the work nodes and the end: one step each.
    const steps = MAX_STEPS_PER_COMMIT * 2 + 10;
    const { store, commits } = counting(new MemoryStore());
    await store.putFlow(chainOf(steps - 2));
    const supervisor = new Supervisor(store, new VirtualClock(T0));
    const done = await supervisor.start('chain', { id: 'p', context: { count: 0 } });
    expect(done.status).toBe('done');
    expect(commits).toHaveLength(3);
    // The first commit's context writes end where the second's begin: no version is skipped.
    const versions = commits.flatMap((c) => c.context.write?.changes.map((x) => x.version) ?? []);
    expect(versions).toEqual(Array.from({ length: steps - 2 }, (_, i) => i + 1));
    expect(commits.map((c) => c.context.expectedVersion)).toEqual([
      0,
      MAX_STEPS_PER_COMMIT - 1,
      2 * MAX_STEPS_PER_COMMIT - 1,
    ]);
    expect((await store.getContext(done.contextId))!.value).toEqual({ count: steps - 2 });
  }, 60_000);

  it('a chain of 20,000 work nodes runs to its end without overflowing the stack', async () => {
    const store = new MemoryStore();
    await store.putFlow(chainOf(20_000));
    const supervisor = new Supervisor(store, new VirtualClock(T0));
    const done = await supervisor.start('chain', { id: 'p', context: { count: 0 } });
    expect(done.status).toBe('done');
    expect(done.snapshot.visits.w19999).toBe(1);
    expect((await store.getContext(done.contextId))!.value).toEqual({ count: 20_000 });
    // Every node's write is a version of its own, as when each step committed alone.
    expect(await store.contextChanges(done.contextId)).toHaveLength(20_000);
  }, 60_000);

  it('a fan-out of 1,000 into one join runs the join once, after every branch', async () => {
    const fan = splitJoin('fan', 1000, [work('after', { total: '$count($keys($)) - 1' }), end()]);
    const store = new MemoryStore();
    await store.putFlow(fan);
    // 1,000 branches live at once, within the default bound of live branches (MAX_LIVE_BRANCHES).
    const supervisor = new Supervisor(store, new VirtualClock(T0));
    const done = await supervisor.start('fan', { id: 'p', context: {} });
    expect(done.status).toBe('done');
    expect(done.snapshot.visits.all).toBe(1);
    const journal = await store.journal('p');
    const ran = journal.flatMap((e) => (e.type === 'ran' ? [e.node] : []));
    // Branches in the order the flow lists them, then the join, once.
    expect(ran.slice(2, 1002)).toEqual(Array.from({ length: 1000 }, (_, i) => `b${i}`));
    expect(ran.slice(1002)).toEqual(['all', 'after', 'end']);
    const context = (await store.getContext(done.contextId))!.value as Record<string, unknown>;
    // `after` ran once every branch had set its flag: 1,000 flags, and `total` not yet there.
    expect(context.total).toBe(999);
  }, 60_000);

  it('a node that fails mid-run: the steps before it commit with the failure, its own effects do not', async () => {
    const failing = flow({
      id: 'failing',
      nodes: [start(), work('a', { a: '1' }), work('b', { b: '$error("no")' }), end()],
      edges: chain('start', 'a', 'b', 'end'),
    });
    const { store, commits } = counting(await testStore('group-failure'));
    await store.putFlow(failing);
    const supervisor = new Supervisor(store, new VirtualClock(T0));
    const failed = await supervisor.start('failing', { id: 'p', context: {} });
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatch(/^node "b": /);
    expect(commits).toHaveLength(1);
    expect(failed.snapshot.visits).toEqual({ start: 1, a: 1 });
    expect((await store.getContext(failed.contextId))!.value).toEqual({ a: 1 });
    expect((await store.journal('p')).map((e) => e.type)).toEqual([
      'started',
      'ran',
      'context-written',
      'ran',
      'failed',
    ]);
  });

  it('commits asked for at once share one IndexedDB transaction', async () => {
    const store: IdbStore = await testStore('shared-tx');
    await store.putFlow(chainOf(1));
    const supervisor = new Supervisor(store, new VirtualClock(T0));
    const ids = ['p1', 'p2', 'p3'];
    for (const id of ids)
      await supervisor.start('chain', { id, context: { count: 0 }, paused: true });
    const records = await Promise.all(ids.map((id) => supervisor.mustGet(id)));
    const before = storeCounts(store).writeTransactions;
    const results = await Promise.all(
      records.map((r) =>
        store.commitStep({
          process: { ...r, status: 'done' },
          context: { id: r.contextId, expectedVersion: 0 },
          journal: [{ type: 'done', process: r.id, at: T0 }],
        }),
      ),
    );
    expect(results).toEqual([true, true, true]);
    expect(storeCounts(store).writeTransactions - before).toBe(1);
    expect((await store.listProcesses()).map((p) => p.status)).toEqual(['done', 'done', 'done']);
  });
});
