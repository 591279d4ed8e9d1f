import { describe, expect, it } from 'vitest';
import { chain, edge, end, fanout, flow, join, start, work } from '../../shared/fixtures/flows.ts';
import type { Flow } from '../../shared/schema.ts';
import { startSnapshot } from '../engine/step.ts';
import { VirtualClock } from '../supervisor/clock.ts';
import type { ContextChange, ProcessRecord } from '../supervisor/records.ts';
import type { StepCommit, Store } from '../supervisor/store.ts';
import { Supervisor } from '../supervisor/supervisor.ts';
import { HOUR, T0, hourly, withoutSeq } from './fixtures/storeScenarios.ts';
import { testStore } from './fixtures/testStore.ts';
import { MemoryStore } from './memoryStore.ts';

/**
 * The Store's promises, asked of both stores: IdbStore, which the app runs on, and MemoryStore,
 * which `flow simulate` runs on. Whatever one answers, the other must.
 */
const STORES: [string, () => Promise<Store>][] = [
  ['IdbStore', () => testStore('contract')],
  ['MemoryStore', async () => new MemoryStore()],
];

const record = (id: string, fields: Partial<ProcessRecord> = {}): ProcessRecord => ({
  id,
  flow: 'f',
  contextId: 'c',
  status: 'waiting',
  snapshot: startSnapshot(flow({ id: 'f', nodes: [start(), end()], edges: chain('start', 'end') })),
  due: null,
  versions: {},
  pinned: false,
  error: null,
  changes: [],
  pendingWake: null,
  created: 0,
  ...fields,
});

const change = (version: number): ContextChange => ({
  contextId: 'c',
  version,
  process: 'p',
  node: `n${version}`,
  writes: [{ path: 'n', value: version }],
  at: T0,
});

describe.each(STORES)('%s keeps the Store contract', (_name, open) => {
  it('a group commit stores each of its changes as a version, and refuses a stale one whole', async () => {
    const store = await open();
    await store.putContext({ id: 'c', version: 2, value: { n: 2 } }, null);
    await store.putProcess(record('p', { status: 'running' }));
    const group = (expectedVersion: number): StepCommit => ({
      process: record('p', { status: 'waiting', due: T0 + HOUR }),
      context: {
        id: 'c',
        expectedVersion,
        write: { value: { n: 5 }, changes: [change(3), change(4), change(5)] },
      },
      journal: [
        { type: 'ran', node: 'n3', gen: [], process: 'p', at: T0 },
        { type: 'ran', node: 'n4', gen: [], process: 'p', at: T0 },
      ],
    });
    expect(await store.commitStep(group(1))).toBe(false);
    expect(await store.getContext('c')).toEqual({ id: 'c', version: 2, value: { n: 2 } });
    expect(await store.journal('p')).toEqual([]);
    expect((await store.getProcess('p'))!.status).toBe('running');

    expect(await store.commitStep(group(2))).toBe(true);
    expect(await store.getContext('c')).toEqual({ id: 'c', version: 5, value: { n: 5 } });
    expect((await store.contextChanges('c')).map((c) => c.version)).toEqual([3, 4, 5]);
    expect((await store.journal('p')).map((e) => withoutSeq(e))).toEqual(group(2).journal);
    expect(await store.dueProcesses(T0 + HOUR)).toEqual([group(2).process]);
  });

  it('commits asked for together are each checked on their own: a stale one does not stop the rest', async () => {
    const store = await open();
    for (const id of ['a', 'b', 'c']) {
      await store.putContext({ id, version: 0, value: {} }, null);
      await store.putProcess(
        record(id, { contextId: id, status: 'running', created: id.charCodeAt(0) }),
      );
    }
    const commit = (id: string, expectedVersion: number): StepCommit => ({
      process: record(id, { contextId: id, status: 'done', created: id.charCodeAt(0) }),
      context: {
        id,
        expectedVersion,
        write: { value: { id }, changes: [{ ...change(1), contextId: id }] },
      },
      journal: [{ type: 'done', process: id, at: T0 }],
    });
    // Asked for in the same turn: IdbStore puts them in one transaction.
    const results = await Promise.all(
      [commit('a', 0), commit('b', 7), commit('c', 0)].map((c) => store.commitStep(c)),
    );
    expect(results).toEqual([true, false, true]);
    expect((await store.getContext('a'))!.value).toEqual({ id: 'a' });
    expect((await store.getContext('b'))!.value).toEqual({});
    expect((await store.getContext('c'))!.value).toEqual({ id: 'c' });
    expect((await store.listProcesses()).map((p) => `${p.id}:${p.status}`)).toEqual([
      'a:done',
      'b:running',
      'c:done',
    ]);
    expect(await store.journal('b')).toEqual([]);
  });

  it('lists due processes earliest first, then oldest first, and drops one that woke', async () => {
    const store = await open();
    await store.putProcess(record('late', { due: T0 + 2 * HOUR, created: 0 }));
    await store.putProcess(record('young', { due: T0 + HOUR, created: 2 }));
    await store.putProcess(record('old', { due: T0 + HOUR, created: 1 }));
    await store.putProcess(record('stopped', { status: 'stopped', due: T0, created: 3 }));
    const ids = async (until: number) => (await store.dueProcesses(until)).map((p) => p.id);
    expect(await ids(T0 + HOUR)).toEqual(['old', 'young']);
    expect(await ids(Number.POSITIVE_INFINITY)).toEqual(['old', 'young', 'late']);
    await store.putProcess(record('old', { status: 'running', due: null, created: 1 }));
    await store.putProcess(record('late', { due: T0 + HOUR / 2, created: 0 }));
    expect(await ids(T0 + HOUR)).toEqual(['late', 'young']);
  });
});

const fanIn: Flow = flow({
  id: 'fan',
  nodes: [
    start(),
    fanout('split'),
    work('a', { a: 'true' }),
    work('b', { b: 'true' }),
    join('both', ['a', 'b']),
    end(),
  ],
  edges: [
    edge('start', 'split'),
    edge('split', 'a'),
    edge('split', 'b'),
    edge('a', 'both'),
    edge('b', 'both'),
    edge('both', 'end'),
  ],
});

/** A day of an hourly loop, a fan-in, and two processes on one context, on `store`. */
async function workspaceDay(store: Store) {
  for (const f of [hourly(5), fanIn]) await store.putFlow(f);
  const clock = new VirtualClock(T0);
  const supervisor = new Supervisor(store, clock);
  await supervisor.start('hourly', { id: 'loop', context: { count: 0 } });
  await supervisor.start('fan', { id: 'fan', shareContextWith: 'loop' });
  await supervisor.advanceTo(T0 + 24 * HOUR);
  const out: Record<string, unknown> = {};
  for (const p of await store.listProcesses()) {
    out[p.id] = {
      record: p,
      journal: (await store.journal(p.id)).map(withoutSeq),
      context: await store.getContext(p.contextId),
      changes: (await store.contextChanges(p.contextId)).map(withoutSeq),
    };
  }
  return out;
}

describe('the supervisor on either store', () => {
  it('leaves the same records, journals, contexts and context changes', async () => {
    const onIdb = await workspaceDay(await testStore('same'));
    const inMemory = await workspaceDay(new MemoryStore());
    expect(Object.keys(onIdb)).toEqual(['loop', 'fan']);
    expect(inMemory).toEqual(onIdb);
  });
});
