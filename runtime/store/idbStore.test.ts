import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../supervisor/clock.ts';
import type { ContextChange, JournalEntry } from '../supervisor/records.ts';
import type { StepCommit } from '../supervisor/store.ts';
import { Supervisor } from '../supervisor/supervisor.ts';
import { processRecord } from './fixtures/processRecord.ts';
import { testStore } from './fixtures/testStore.ts';
import { HOUR, MINUTE, T0, hourly } from './fixtures/storeScenarios.ts';
import { exportContextChanges, exportJournal } from './jsonLines.ts';

const process = processRecord;

const entry = (p: string, at: number, node = 'n'): JournalEntry => ({
  type: 'ran',
  node,
  gen: [],
  process: p,
  at,
});

const change = (contextId: string, version: number, fields: Partial<ContextChange> = {}) => ({
  contextId,
  version,
  process: 'p',
  node: 'tick',
  writes: [{ path: 'count', value: version }],
  at: T0 + version,
  ...fields,
});

const lines = (text: string) => {
  expect(text.endsWith('\n')).toBe(true);
  return text
    .slice(0, -1)
    .split('\n')
    .map((l) => JSON.parse(l) as unknown);
};

describe('IdbStore: one transaction per step', () => {
  async function seeded() {
    const store = await testStore('step');
    await store.putContext({ id: 'c', version: 3, value: { count: 3 } }, null);
    await store.putProcess(process('p', { status: 'running' }), [entry('p', T0, 'start')]);
    const before = {
      process: await store.getProcess('p'),
      journal: await store.journal('p'),
      context: await store.getContext('c'),
      changes: await store.contextChanges('c'),
    };
    const commit = (expectedVersion: number): StepCommit => ({
      process: process('p', { status: 'waiting', due: T0 + HOUR }),
      context: {
        id: 'c',
        expectedVersion,
        write: { value: { count: 4 }, changes: [change('c', 4)] },
      },
      journal: [entry('p', T0, 'tick'), { type: 'done', process: 'p', at: T0 }],
    });
    return { store, before, commit };
  }

  it('a step whose expected context version is stale writes nothing at all', async () => {
    const { store, before, commit } = await seeded();
    expect(await store.commitStep(commit(2))).toBe(false);
    expect(await store.getProcess('p')).toEqual(before.process);
    expect(await store.journal('p')).toEqual(before.journal);
    expect(await store.getContext('c')).toEqual(before.context);
    expect(await store.contextChanges('c')).toEqual(before.changes);
  });

  it('a step at the expected context version writes context, change, process and journal together', async () => {
    const { store, before, commit } = await seeded();
    const step = commit(3);
    expect(await store.commitStep(step)).toBe(true);
    expect(await store.getProcess('p')).toEqual(step.process);
    expect((await store.journal('p')).map((e) => e.type)).toEqual(['ran', 'ran', 'done']);
    expect(await store.getContext('c')).toEqual({ id: 'c', version: 4, value: { count: 4 } });
    expect(await store.contextChanges('c')).toEqual([
      ...before.changes,
      { ...change('c', 4), seq: 1 },
    ]);
  });

  it('a step without a context write still checks the version, and leaves the context as it is', async () => {
    const { store, before } = await seeded();
    const next = process('p', { status: 'done' });
    const step = (expectedVersion: number): StepCommit => ({
      process: next,
      context: { id: 'c', expectedVersion },
      journal: [{ type: 'done', process: 'p', at: T0 }],
    });
    expect(await store.commitStep(step(0))).toBe(false);
    expect(await store.getProcess('p')).toEqual(before.process);
    expect(await store.commitStep(step(3))).toBe(true);
    expect(await store.getProcess('p')).toEqual(next);
    expect(await store.getContext('c')).toEqual(before.context);
    expect(await store.contextChanges('c')).toEqual([]);
  });
});

describe('IdbStore: contexts', () => {
  it('putContext creates a context only where none exists, and writes one only at the expected version', async () => {
    const store = await testStore('cas');
    expect(await store.putContext({ id: 'c', version: 0, value: { n: 0 } }, null)).toBe(true);
    expect(await store.putContext({ id: 'c', version: 0, value: { n: 'again' } }, null)).toBe(
      false,
    );
    expect(
      await store.putContext({ id: 'c', version: 1, value: { n: 1 } }, 0, change('c', 1)),
    ).toBe(true);
    // A second writer that read version 0 too is refused, and its change is not recorded.
    expect(
      await store.putContext({ id: 'c', version: 1, value: { n: 'lost' } }, 0, change('c', 1)),
    ).toBe(false);
    expect(await store.putContext({ id: 'c', version: 5, value: {} }, 4)).toBe(false);
    expect(await store.getContext('c')).toEqual({ id: 'c', version: 1, value: { n: 1 } });
    expect(await store.contextChanges('c')).toHaveLength(1);
    // A context that does not exist cannot be written at a version.
    expect(await store.putContext({ id: 'new', version: 1, value: {} }, 0)).toBe(false);
    expect(await store.getContext('new')).toBeUndefined();
  });

  it('keeps the changes of each context apart, in order, with version, process, node and writes', async () => {
    const store = await testStore('changes');
    await store.putContext({ id: 'a', version: 0, value: {} }, null);
    await store.putContext({ id: 'b', version: 0, value: {} }, null);
    await store.putContext({ id: 'a', version: 1, value: { count: 1 } }, 0, change('a', 1));
    await store.putContext(
      { id: 'b', version: 1, value: { x: 1 } },
      0,
      change('b', 1, { process: 'q', node: 'other', writes: [{ path: 'x', value: 1 }] }),
    );
    await store.commitStep({
      process: process('p'),
      context: { id: 'a', expectedVersion: 1, write: { value: {}, changes: [change('a', 2)] } },
      journal: [],
    });
    await store.putContext(
      { id: 'a', version: 3, value: { count: 3 } },
      2,
      change('a', 3, { process: null, node: null }),
    );
    const a = await store.contextChanges('a');
    expect(a.map((c) => [c.contextId, c.version, c.process, c.node, c.writes])).toEqual([
      ['a', 1, 'p', 'tick', [{ path: 'count', value: 1 }]],
      ['a', 2, 'p', 'tick', [{ path: 'count', value: 2 }]],
      ['a', 3, null, null, [{ path: 'count', value: 3 }]],
    ]);
    expect((await store.contextChanges('b')).map((c) => [c.process, c.node])).toEqual([
      ['q', 'other'],
    ]);
  });
});

describe('IdbStore: the journal', () => {
  it('is kept per process, append-only and in the order written', async () => {
    const store = await testStore('journal');
    await store.putContext({ id: 'c', version: 0, value: {} }, null);
    await store.putProcess(process('p'), [entry('p', 1, 'a'), entry('p', 2, 'b')]);
    await store.putProcess(process('q'), [entry('q', 3, 'x')]);
    const first = await store.journal('p');
    await store.commitStep({
      process: process('p'),
      context: { id: 'c', expectedVersion: 0 },
      journal: [entry('p', 4, 'c')],
    });
    await store.putProcess(process('q'), [entry('q', 5, 'y')]);
    await store.putProcess(process('p'), [entry('p', 6, 'd'), entry('p', 7, 'e')]);

    const p = await store.journal('p');
    expect(p.map((e) => e.at)).toEqual([1, 2, 4, 6, 7]);
    // Appending leaves what was there as it was.
    expect(p.slice(0, 2)).toEqual(first);
    const seqs = p.map((e) => e.seq!);
    expect(seqs).toEqual([...seqs].sort((x, y) => x - y));
    expect((await store.journal('q')).map((e) => e.at)).toEqual([3, 5]);
    expect(await store.journal('nobody')).toEqual([]);
  });
});

describe('IdbStore: the journal, one record per write (schema 5)', () => {
  it("rule: a commit's entries are stored as one record, keyed by its last entry's seq, and read back one by one in order", async () => {
    const store = await testStore('journal-records');
    await store.putContext({ id: 'c', version: 0, value: {} }, null);
    await store.putProcess(process('p'), [entry('p', 1, 'a')]);
    await store.commitStep({
      process: process('p'),
      context: { id: 'c', expectedVersion: 0 },
      journal: [entry('p', 2, 'b'), entry('p', 3, 'c'), entry('p', 4, 'd')],
    });
    const records = (await store.db.getAll('journal')) as unknown as {
      seq: number;
      process: string;
      entries: { seq: number; node: string }[];
    }[];
    expect(records.map((r) => [r.seq, r.process, r.entries.map((e) => [e.seq, e.node])])).toEqual([
      [1, 'p', [[1, 'a']]],
      [
        4,
        'p',
        [
          [2, 'b'],
          [3, 'c'],
          [4, 'd'],
        ],
      ],
    ]);
    expect((await store.journal('p')).map((e) => [e.seq, e.at])).toEqual([
      [1, 1],
      [2, 2],
      [3, 3],
      [4, 4],
    ]);
  });

  it('rule: seqs go on from the highest key, so entries written one record each before schema 5 and records after read in one order', async () => {
    const store = await testStore('journal-mixed');
    // As schema 4 stored them: one entry a record, keyed by its seq, with its own version.
    for (const seq of [1, 2])
      await store.db.put('journal', { ...entry('p', seq), seq, recordVersion: 1 } as never);
    await store.putProcess(process('p'), [entry('p', 3), entry('p', 4)]);
    const journal = await store.journal('p');
    expect(journal.map((e) => [e.seq, e.at])).toEqual([
      [1, 1],
      [2, 2],
      [3, 3],
      [4, 4],
    ]);
    expect(journal[0]).toEqual({ ...entry('p', 1), seq: 1 });
    expect(store.damaged()).toEqual([]);
  });

  it("a write of several processes' entries (a saved batch) stores one record per process run, each in order", async () => {
    const store = await testStore('journal-batch');
    await store.saveBatch({
      flows: [],
      versions: [],
      contexts: [],
      changes: [],
      processes: [],
      journal: [entry('p', 1), entry('p', 2), entry('q', 3), entry('p', 4)],
    });
    expect((await store.db.getAllKeys('journal')).length).toBe(3);
    expect((await store.journal('p')).map((e) => e.at)).toEqual([1, 2, 4]);
    expect((await store.journal('q')).map((e) => e.at)).toEqual([3]);
  });
});

describe('IdbStore: due processes', () => {
  it('returns only waiting processes due by the time, earliest first, then oldest first', async () => {
    const store = await testStore('due');
    const records = [
      process('a', { due: T0 + 2 * HOUR, created: 0 }),
      process('b', { due: T0 + HOUR, created: 2 }),
      process('c', { due: T0 + HOUR, created: 1 }),
      process('failed', { status: 'failed', due: T0 + 30 * MINUTE, created: 3 }),
      process('stopped', { status: 'stopped', due: T0, created: 4 }),
      process('no-timer', { due: null, created: 5 }),
      process('later', { due: T0 + 3 * HOUR, created: 6 }),
    ];
    for (const r of records) await store.putProcess(r);
    const ids = async (until: number) => (await store.dueProcesses(until)).map((p) => p.id);
    expect(await ids(T0 + 59 * MINUTE)).toEqual([]);
    // Due exactly at the time counts.
    expect(await ids(T0 + HOUR)).toEqual(['c', 'b']);
    expect(await ids(T0 + 2 * HOUR)).toEqual(['c', 'b', 'a']);
    expect(await ids(Number.POSITIVE_INFINITY)).toEqual(['c', 'b', 'a', 'later']);
    // A process that wakes leaves the list.
    await store.putProcess(process('c', { status: 'running', due: null, created: 1 }));
    expect(await ids(T0 + 2 * HOUR)).toEqual(['b', 'a']);
  });
});

describe('IdbStore: values JSON cannot hold', () => {
  const cyclic: Record<string, unknown> = { name: 'loop' };
  cyclic.self = cyclic;
  const awkward = {
    fn: function double(x: number) {
      return 2 * x;
    },
    big: 10n,
    nan: Number.NaN,
    inf: Number.POSITIVE_INFINITY,
    negInf: Number.NEGATIVE_INFINITY,
    when: new Date(T0),
    symbol: Symbol('s'),
    cyclic,
    list: [1n, Number.NaN, undefined],
    plain: { ok: true, n: 1.5, s: 'text', nothing: null },
  };
  const asText = {
    fn: String(awkward.fn),
    big: '10',
    nan: 'NaN',
    inf: 'Infinity',
    negInf: '-Infinity',
    when: '2026-01-01T00:00:00.000Z',
    symbol: 'Symbol(s)',
    cyclic: { name: 'loop', self: '[circular]' },
    list: ['1', 'NaN', null],
    plain: { ok: true, n: 1.5, s: 'text', nothing: null },
  };

  it('are stored as their text, and never make a write throw', async () => {
    const store = await testStore('storable');
    await store.putContext({ id: 'c', version: 0, value: awkward }, null);
    expect((await store.getContext('c'))?.value).toEqual(asText);

    await store.putProcess(
      process('p', { pendingWake: { seq: 1, trigger: 't', payload: awkward } }),
      [
        {
          type: 'context-written',
          node: 'n',
          writes: [{ path: 'x', value: awkward }],
          process: 'p',
          at: T0,
        },
      ],
    );
    expect((await store.getProcess('p'))?.pendingWake?.payload).toEqual(asText);

    await store.commitStep({
      process: process('p'),
      context: {
        id: 'c',
        expectedVersion: 0,
        write: {
          value: { again: awkward },
          changes: [change('c', 1, { writes: [{ path: 'again', value: awkward }] })],
        },
      },
      journal: [{ type: 'failed', node: 'n', message: awkward as never, process: 'p', at: T0 }],
    });
    expect((await store.getContext('c'))?.value).toEqual({ again: asText });
    expect((await store.contextChanges('c'))[0]?.writes).toEqual([
      { path: 'again', value: asText },
    ]);
    const journal = await store.journal('p');
    expect(
      journal.map((e) => ('writes' in e ? e.writes[0]?.value : 'message' in e ? e.message : null)),
    ).toEqual([asText, asText]);

    await store.putMeta('settings', awkward);
    expect(await store.getMeta('settings')).toEqual(asText);

    // What is stored is JSON: the exports hold it.
    expect(lines(await exportJournal(store, 'p'))).toEqual(journal);
    expect(lines(await exportContextChanges(store, 'c'))).toEqual(await store.contextChanges('c'));
  });
});

describe('JSON Lines exports', () => {
  it("a process's journal and its context's changes export one JSON object per line, equal to the stored records in order", async () => {
    const store = await testStore('export');
    await store.putFlow(hourly());
    const clock = new VirtualClock(T0);
    const supervisor = new Supervisor(store, clock);
    const p = await supervisor.start('hourly', { id: 'p', context: { count: 0 } });
    await supervisor.start('hourly', { id: 'q', shareContextWith: 'p' });
    await supervisor.setContext('p', 'note', 'line\nbreak "quoted"');
    await supervisor.advanceTo(T0 + 3 * HOUR);

    const journal = await store.journal('p');
    expect(journal.length).toBeGreaterThan(10);
    const exported = await exportJournal(store, 'p');
    expect(exported.split('\n')).toHaveLength(journal.length + 1);
    expect(lines(exported)).toEqual(journal);
    expect(lines(exported).every((e) => (e as JournalEntry).process === 'p')).toBe(true);

    const changes = await store.contextChanges(p.contextId);
    // Both processes and the outside write, on the one shared context.
    expect(new Set(changes.map((c) => c.process))).toEqual(new Set(['p', 'q', null]));
    expect(changes.map((c) => c.version)).toEqual(changes.map((_, i) => i + 1));
    const exportedChanges = await exportContextChanges(store, p.contextId);
    expect(exportedChanges.split('\n')).toHaveLength(changes.length + 1);
    expect(lines(exportedChanges)).toEqual(changes);

    expect(await exportJournal(store, 'nobody')).toBe('');
  });
});

describe('IdbStore: durability', () => {
  it('commits every write with relaxed durability, and reads stay plain', async () => {
    const seen: { mode: string | undefined; durability: string | undefined }[] = [];
    const native = IDBDatabase.prototype.transaction;
    IDBDatabase.prototype.transaction = function (
      this: IDBDatabase,
      ...args: Parameters<IDBDatabase['transaction']>
    ) {
      seen.push({ mode: args[1], durability: args[2]?.durability });
      return native.apply(this, args);
    } as IDBDatabase['transaction'];
    try {
      const store = await testStore('durability');
      const supervisor = new Supervisor(store, new VirtualClock(T0));
      await store.putFlow(hourly(3));
      await supervisor.start('hourly', { id: 'p', context: { count: 0 } });
      await supervisor.advanceTo(T0 + HOUR);
    } finally {
      IDBDatabase.prototype.transaction = native;
    }
    const writes = seen.filter((t) => t.mode === 'readwrite');
    expect(writes.length).toBeGreaterThan(3);
    expect(writes.every((t) => t.durability === 'relaxed')).toBe(true);
    expect(seen.filter((t) => t.mode !== 'readwrite').every((t) => !t.durability)).toBe(true);
  });
});

describe('IdbStore: call progress asked for together', () => {
  /** The transactions opened on `callProgress` while `fn` runs, by mode. */
  async function progressTransactions(fn: () => Promise<unknown>) {
    const seen: string[] = [];
    const native = IDBDatabase.prototype.transaction;
    IDBDatabase.prototype.transaction = function (
      this: IDBDatabase,
      ...args: Parameters<IDBDatabase['transaction']>
    ) {
      const names = typeof args[0] === 'string' ? [args[0]] : [...args[0]];
      if (names.includes('callProgress')) seen.push(args[1] ?? 'readonly');
      return native.apply(this, args);
    } as IDBDatabase['transaction'];
    try {
      await fn();
    } finally {
      IDBDatabase.prototype.transaction = native;
    }
    return seen;
  }

  it('rule: writes and reads of call progress asked for at once share a transaction each, in order, every one applied', async () => {
    const store = await testStore('progress-batches');
    const ids = Array.from({ length: 50 }, (_, i) => `p${i}`);
    const writes = await progressTransactions(() =>
      Promise.all(
        ids.flatMap((id) => [
          store.putCallProgress(id, { seq: 1, attempts: 0, due: T0 }),
          store.putCallProgress(id, { seq: 2, attempts: 1, due: null }),
          store.deleteCallProgress(id, 1),
        ]),
      ),
    );
    // The first write opens a transaction; the 149 asked for meanwhile go in one more at most.
    expect(writes.length).toBeLessThanOrEqual(2);
    let lists: unknown[] = [];
    const reads = await progressTransactions(async () => {
      lists = await Promise.all(ids.map((id) => store.listCallProgress(id)));
    });
    expect(reads.length).toBeLessThanOrEqual(2);
    // In order: each process's first wait was put, then deleted; its second stands.
    expect(lists).toEqual(ids.map(() => [{ seq: 2, attempts: 1, due: null }]));
  });
});
