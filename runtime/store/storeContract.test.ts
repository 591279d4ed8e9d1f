import { describe, expect, it } from 'vitest';
import { chain, edge, end, fanout, flow, join, start, work } from '../../shared/fixtures/flows.ts';
import type { Flow } from '../../shared/schema.ts';
import { VirtualClock } from '../supervisor/clock.ts';
import type { ContextChange } from '../supervisor/records.ts';
import type { StepCommit, Store } from '../supervisor/store.ts';
import { Supervisor } from '../supervisor/supervisor.ts';
import { HOUR, T0, hourly, withoutSeq } from './fixtures/storeScenarios.ts';
import { processRecord } from './fixtures/processRecord.ts';
import { testStore } from './fixtures/testStore.ts';
import { MemoryStore } from './memoryStore.ts';
import { ResilientStore } from './resilientStore.ts';
import { FakeRestate } from '../restate/fixtures/fakeRestate.ts';
import { ProcessStore } from '../restate/processStore.ts';

/**
 * The Store's promises, asked of every store: IdbStore, which the app runs on, MemoryStore,
 * which `flow simulate` runs on, ResilientStore, which the app puts before IdbStore, and
 * Restate's ProcessStore (on FakeRestate, which keeps state and passes calls as Restate does).
 * Whatever one answers, the others must. A ProcessStore is one process's view of the
 * workspace (processStore.ts): the promises about several processes are asked of the others.
 */
interface Subject {
  name: string;
  /** A store whose process "p" is one this test may write. */
  open: () => Promise<Store>;
}

const STORES: Subject[] = [
  { name: 'IdbStore', open: () => testStore('contract') },
  { name: 'MemoryStore', open: async () => new MemoryStore() },
  { name: 'ResilientStore', open: async () => new ResilientStore(await testStore('resilient')) },
];
const ONE_PROCESS: Subject[] = [
  ...STORES,
  {
    name: 'ProcessStore',
    // Ordered as the fixtures' records are: the first process made.
    open: async () =>
      new ProcessStore(new FakeRestate().processContext('p'), { createdAt: () => 0 }),
  },
];

const record = processRecord;

const change = (version: number): ContextChange => ({
  contextId: 'c',
  version,
  process: 'p',
  node: `n${version}`,
  writes: [{ path: 'n', value: version }],
  at: T0,
});

describe.each(ONE_PROCESS)('$name keeps the Store contract for one process', ({ open }) => {
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

  it('answers every listing of one process: running, page, window, names, counts, and loads it with its flows and context', async () => {
    const store = await open();
    expect(store.keepsJournal).toBe(true);
    const f = flow({ id: 'f', nodes: [start(), end()], edges: chain('start', 'end') });
    await store.putFlow(f);
    await store.putContext({ id: 'c', version: 0, value: { n: 1 } }, null);
    expect(await store.loadProcess('p')).toBeUndefined();
    await store.putProcess(record('p', { status: 'running' }));
    expect((await store.runningProcesses()).map((p) => p.id)).toEqual(['p']);
    expect((await store.processPage(null, 5)).map((p) => p.id)).toEqual(['p']);
    expect(await store.processWindow({ offset: 0, limit: 5, status: 'running' })).toEqual([
      await store.getProcess('p'),
    ]);
    expect(await store.processWindow({ offset: 0, limit: 5, status: 'waiting' })).toEqual([]);
    expect(await store.processNames()).toEqual([{ id: 'p', flow: 'f' }]);
    expect(await store.countProcesses()).toEqual({ total: 1, byStatus: { running: 1 } });
    expect(await store.countProcesses('other')).toEqual({ total: 0, byStatus: {} });
    const loaded = await store.loadProcess('p');
    expect(loaded?.record).toEqual(await store.getProcess('p'));
    expect([...loaded!.flows.keys()]).toEqual(['f']);
    expect(loaded?.context).toEqual({ id: 'c', version: 0, value: { n: 1 } });
    await store.putProcess(record('p', { status: 'waiting', due: T0 }));
    expect(await store.runningProcesses()).toEqual([]);
    expect((await store.listDue(T0, 1)).map((p) => p.id)).toEqual(['p']);
    expect(await store.nextDueAt()).toBe(T0);
  });

  it('journalPage gives the newest entries first and says whether older ones are left', async () => {
    const store = await open();
    const entry = (at: number) => ({ type: 'resumed' as const, process: 'p', at });
    await store.putProcess(record('p'), [entry(1), entry(2)]);
    await store.putProcess(record('p'), [entry(3)]);
    const page = async (limit: number) => {
      const { entries, more } = await store.journalPage('p', limit);
      return { at: entries.map((e) => e.at), more };
    };
    expect(await page(2)).toEqual({ at: [3, 2], more: true });
    expect(await page(3)).toEqual({ at: [3, 2, 1], more: false });
    expect((await store.journal('p')).map((e) => e.at)).toEqual([1, 2, 3]);
  });
});

describe.each(ONE_PROCESS)('$name keeps call progress (docs/format.md#calls)', ({ open }) => {
  it("rule: a wait's progress is put, replaced, listed in wait order and deleted, row by row", async () => {
    const store = await open();
    expect(await store.listCallProgress('p')).toEqual([]);
    await store.putCallProgress('p', { seq: 7, attempts: 0, due: T0 });
    await store.putCallProgress('p', { seq: 3, attempts: 1, due: null });
    const retried = {
      seq: 7,
      attempts: 2,
      due: T0 + 60_000,
      last: { status: 503 },
    };
    await store.putCallProgress('p', retried);
    expect(await store.listCallProgress('p')).toEqual([
      { seq: 3, attempts: 1, due: null },
      retried,
    ]);
    await store.deleteCallProgress('p', 3);
    // Deleting a row that is not there changes nothing.
    await store.deleteCallProgress('p', 3);
    expect(await store.listCallProgress('p')).toEqual([retried]);
    await store.deleteCallProgress('p', 7);
    expect(await store.listCallProgress('p')).toEqual([]);
  });

  it('rule: a scripted answer kept for later reads back whole, and the object put is copied', async () => {
    const store = await open();
    const answer = {
      outcome: {
        ok: true,
        status: 200,
        headers: { 'x-a': '1' },
        body: { id: 1 },
        error: undefined,
      },
      sent: true,
    };
    const progress = { seq: 1, attempts: 1, due: T0 + 2_000, answer, answerMs: 2_000 };
    await store.putCallProgress('p', progress);
    answer.outcome.status = 500;
    const [read] = await store.listCallProgress('p');
    expect(read).toMatchObject({ seq: 1, answerMs: 2_000, answer: { outcome: { status: 200 } } });
  });
});

describe.each(STORES)('$name keeps call progress per process', ({ open }) => {
  it("rule: one process's rows are its own: listing and deleting never reach another's", async () => {
    const store = await open();
    await store.putCallProgress('p', { seq: 1, attempts: 0, due: T0 });
    await store.putCallProgress('p2', { seq: 1, attempts: 3, due: null });
    await store.putCallProgress('q', { seq: 2, attempts: 1, due: T0 });
    await store.deleteCallProgress('p', 1);
    expect(await store.listCallProgress('p')).toEqual([]);
    expect(await store.listCallProgress('p2')).toEqual([{ seq: 1, attempts: 3, due: null }]);
    expect(await store.listCallProgress('q')).toEqual([{ seq: 2, attempts: 1, due: T0 }]);
  });
});

describe.each(STORES)('$name keeps the Store contract for a workspace', ({ open }) => {
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

  it('listDue reads at most `limit` due processes in wake order, and nextDueAt gives the earliest due time of a waiting one', async () => {
    const store = await open();
    expect(await store.nextDueAt()).toBeNull();
    await store.putProcess(record('late', { due: T0 + 2 * HOUR, created: 0 }));
    await store.putProcess(record('young', { due: T0 + HOUR, created: 2 }));
    await store.putProcess(record('old', { due: T0 + HOUR, created: 1 }));
    // A stopped process keeps its due time but wakes nothing.
    await store.putProcess(record('stopped', { status: 'stopped', due: T0, created: 3 }));
    const ids = async (upTo: number, limit?: number) =>
      (await store.listDue(upTo, limit)).map((p) => p.id);
    expect(await ids(T0 + 2 * HOUR, 2)).toEqual(['old', 'young']);
    expect(await ids(T0 + 2 * HOUR, 1)).toEqual(['old']);
    expect(await ids(T0 + 2 * HOUR)).toEqual(['old', 'young', 'late']);
    expect(await ids(T0)).toEqual([]);
    expect(await store.nextDueAt()).toBe(T0 + HOUR);
    await store.putProcess(record('old', { status: 'done', due: null, created: 1 }));
    await store.putProcess(record('young', { status: 'done', due: null, created: 2 }));
    expect(await store.nextDueAt()).toBe(T0 + 2 * HOUR);
  });

  it('waitersFor answers the waiting processes that listen for the name, and those whose waits are not listed, oldest first', async () => {
    const store = await open();
    await store.putProcess(record('paid', { waitsFor: ['paid', 'cancel'], created: 2 }));
    await store.putProcess(record('cancel', { waitsFor: ['cancel'], created: 1 }));
    await store.putProcess(record('timer', { waitsFor: [], due: T0, created: 3 }));
    // Written without the list (an older record): any event may reach it.
    await store.putProcess(record('unlisted', { created: 4 }));
    await store.putProcess(record('failed', { status: 'failed', waitsFor: ['paid'], created: 0 }));
    const ids = async (name: string) => (await store.waitersFor(name)).map((p) => p.id);
    expect(await ids('paid')).toEqual(['paid', 'unlisted']);
    expect(await ids('cancel')).toEqual(['cancel', 'paid', 'unlisted']);
    expect(await ids('other')).toEqual(['unlisted']);
    // Its next write says what it waits for now.
    await store.putProcess(record('paid', { status: 'done', created: 2 }));
    await store.putProcess(record('unlisted', { waitsFor: ['other'], created: 4 }));
    expect(await ids('paid')).toEqual([]);
    expect(await ids('other')).toEqual(['unlisted']);
    expect((await store.getProcess('cancel'))!.waitsFor).toEqual(['cancel']);
    expect((await store.getProcess('unlisted'))!.waitsFor).toEqual(['other']);
  });

  it('processPage reads the listing a page at a time, oldest first', async () => {
    const store = await open();
    for (const [id, created] of [
      ['c', 30],
      ['a', 10],
      ['b', 20],
      ['d', 40],
    ] as const)
      await store.putProcess(record(id, { created }));
    const page = async (after: number | null, limit: number) =>
      (await store.processPage(after, limit)).map((p) => p.id);
    expect(await page(null, 2)).toEqual(['a', 'b']);
    expect(await page(20, 2)).toEqual(['c', 'd']);
    expect(await page(40, 2)).toEqual([]);
  });

  it('lastCreated is the highest order of creation, or null with no process', async () => {
    const store = await open();
    expect(await store.lastCreated()).toBeNull();
    await store.putProcess(record('b', { created: 7 }));
    await store.putProcess(record('a', { created: 3 }));
    expect(await store.lastCreated()).toBe(7);
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

describe('the supervisor on every workspace store', () => {
  it('leaves the same records, journals, contexts and context changes', async () => {
    const onIdb = await workspaceDay(await testStore('same'));
    const inMemory = await workspaceDay(new MemoryStore());
    const resilient = await workspaceDay(new ResilientStore(await testStore('same-resilient')));
    expect(Object.keys(onIdb)).toEqual(['loop', 'fan']);
    expect(inMemory).toEqual(onIdb);
    expect(resilient).toEqual(onIdb);
  });
});
