import { describe, expect, it } from 'vitest';
import { minimalFlow } from '../../shared/fixtures/flows.ts';
import { VirtualClock } from '../supervisor/clock.ts';
import { Supervisor } from '../supervisor/supervisor.ts';
import { HOUR, T0, hourly } from './fixtures/storeScenarios.ts';
import { testStore } from './fixtures/testStore.ts';
import type { IdbStore } from './idbStore.ts';
import { DamagedRecordError } from './restore.ts';

/** A workspace with one healthy hourly loop, `good`, to which the tests add hostile records. */
async function workspace() {
  const store = await testStore('hostile');
  await store.putFlow(hourly());
  const supervisor = new Supervisor(store, new VirtualClock(T0));
  await supervisor.start('hourly', { id: 'good', context: { count: 0 } });
  const good = (await store.db.get('processes', 'good'))!;
  return { store, supervisor, good: good as unknown as Record<string, unknown> };
}

/** Puts a raw record past the store, as a damaged disk or another program might. */
async function putRaw(
  store: IdbStore,
  name: 'processes' | 'contexts' | 'flows' | 'journal',
  value: unknown,
) {
  await store.db.put(name, value as never);
}

describe('records read back are restored, not trusted', () => {
  it.each([
    [
      'a missing snapshot',
      { snapshot: undefined },
      'process "bad" cannot be restored: its snapshot is missing, not an object; it is left as stored',
    ],
    [
      'a status of the wrong type',
      { status: 7 },
      'process "bad" cannot be restored: its status is 7, not one of running, waiting, done, failed, stopped, flow-changed, cancelled; it is left as stored',
    ],
    [
      'a due time no Date holds',
      { due: 1e300 },
      'process "bad" cannot be restored: its "due" is 1e+300, not a time or null; it is left as stored',
    ],
    [
      'a huge flow id',
      { flow: 'f'.repeat(5000) },
      'process "bad" cannot be restored: its "flow" is 5,000 characters long, over 1,000; it is left as stored',
    ],
    [
      'a version from the future',
      { recordVersion: 99 },
      'process "bad" cannot be restored: it was written by a newer wakeflow (record version 99; this one reads up to 2); it is left as stored',
    ],
    [
      'a version that is not a number',
      { recordVersion: 'two' },
      'process "bad" cannot be restored: its record version is "two", not a whole number from 1; it is left as stored',
    ],
  ])(
    'rule: a process with %s is reported by name and what is wrong, left out of listings, refused when asked for, and left as stored',
    async (_what, fields, message) => {
      const { store, supervisor, good } = await workspace();
      const bad = { ...good, id: 'bad', created: 5, ...fields };
      await putRaw(store, 'processes', bad);

      expect((await store.listProcesses()).map((p) => p.id)).toEqual(['good']);
      expect(store.damaged()).toEqual([{ store: 'processes', key: 'bad', message }]);
      await expect(store.getProcess('bad')).rejects.toThrow(
        new DamagedRecordError(store.damaged()[0]!),
      );
      // The workspace goes on around it: the good loop wakes, the schedule ends.
      expect((await supervisor.advanceTo(T0 + 2 * HOUR)).wakes).toBe(2);
      expect((await store.getProcess('good'))!.wakes).toBe(2);
      expect(await store.db.get('processes', 'bad')).toEqual(bad);
      expect(store.damaged()).toHaveLength(1);
    },
  );

  it('rule: a damaged waiting process due first does not stop the schedule: it is skipped as the next due time once found', async () => {
    const { store, supervisor, good } = await workspace();
    await putRaw(store, 'processes', { ...good, id: 'bad', due: T0, snapshot: 'gone', created: 5 });
    expect((await supervisor.advanceTo(T0 + HOUR)).wakes).toBe(1);
    expect(await store.nextDueAt()).toBe(T0 + 2 * HOUR);
    expect(store.damaged().map((p) => p.key)).toEqual(['bad']);
  });

  it('rule: a journal entry, a context, a flow and a setting that cannot be restored are each named with what is wrong; the good ones read on', async () => {
    const { store } = await workspace();
    const entries = await store.journal('good');
    await putRaw(store, 'journal', { process: 'good', at: T0, seq: 999 });
    await putRaw(store, 'contexts', { id: 'ctx-bad', version: -1, value: {} });
    await putRaw(store, 'flows', { ...minimalFlow('odd'), format: 'flow/9' });
    await store.db.put('meta', { recordVersion: 2, value: 'lots' }, 'journalRetention');
    await store.db.put('meta', { recordVersion: 3, value: true }, 'seeded');

    expect(await store.journal('good')).toEqual(entries);
    await expect(store.getContext('ctx-bad')).rejects.toThrow(
      'context "ctx-bad" cannot be restored: its "version" is -1, not a whole number; it is left as stored',
    );
    expect((await store.listFlows()).map((f) => f.id)).toEqual(['hourly']);
    expect(await store.getMeta('journalRetention')).toBeUndefined();
    expect(await store.getMeta('seeded')).toBeUndefined();
    expect(store.damaged().map((p) => p.message)).toEqual([
      'journal entry #999 of process "good" cannot be restored: its type is missing, not the name of an entry; it is left as stored',
      'context "ctx-bad" cannot be restored: its "version" is -1, not a whole number; it is left as stored',
      'flow "odd" cannot be restored: its format is "flow/9", not "flow/1"; it is left as stored',
      'setting "journalRetention" cannot be restored: it is "lots", not a whole number of passes from 1 to 100,000; its default applies and it is left as stored',
      'setting "seeded" cannot be restored: it was written by a newer wakeflow (record version 3; this one reads up to 2); it is left as stored',
    ]);
  });

  it.each([
    [
      'no entries',
      { entries: [] },
      'journal record #999 of process "good" cannot be restored: its "entries" is an empty list; it is left as stored',
    ],
    [
      'entries that are not a list',
      { entries: 'lots' },
      'journal entry #999 of process "good" cannot be restored: its "entries" is the text "lots", not a list of entries; it is left as stored',
    ],
    [
      'an entry of another process',
      { entries: [{ type: 'ran', process: 'other', at: T0, seq: 999 }] },
      'journal record #999 of process "good" cannot be restored: its "process" is "other", not the record\'s; it is left as stored',
    ],
    [
      'a damaged entry among others',
      {
        entries: [
          { type: 'ran', process: 'good', at: T0, seq: 998 },
          { type: 'ran', process: 'good', at: 'noon', seq: 999 },
        ],
      },
      'journal record #999 of process "good" cannot be restored: its entry #999: its "at" is "noon", not a time; it is left as stored',
    ],
    [
      'entries out of order',
      {
        entries: [
          { type: 'ran', process: 'good', at: T0, seq: 999 },
          { type: 'ran', process: 'good', at: T0, seq: 998 },
        ],
      },
      'journal record #999 of process "good" cannot be restored: its entry #998: its "seq" 998 is out of order; it is left as stored',
    ],
    [
      "a key that is not its last entry's seq",
      { entries: [{ type: 'ran', process: 'good', at: T0, seq: 5 }] },
      'journal record #999 of process "good" cannot be restored: its key 999 is not its last entry\'s "seq"; it is left as stored',
    ],
    [
      'a version from the future',
      { recordVersion: 3, entries: [{ type: 'ran', process: 'good', at: T0, seq: 999 }] },
      'journal record #999 of process "good" cannot be restored: it was written by a newer wakeflow (record version 3; this one reads up to 2); it is left as stored',
    ],
  ])(
    'rule: a journal record (schema 5: the entries of one write) with %s is reported by what is wrong, left out of the journal, its pages and its retention, and left as stored',
    async (_what, fields, message) => {
      const { store, supervisor } = await workspace();
      const raw = { recordVersion: 2, process: 'good', seq: 999, ...fields };
      await putRaw(store, 'journal', raw);
      // Written after the damaged record, so that its seqs are higher.
      await supervisor.advanceTo(T0 + 3 * HOUR);
      const journal = await store.journal('good');
      expect(journal.filter((e) => e.type === 'woke')).toHaveLength(3);
      expect((await store.journalPage('good', 1000)).entries).toEqual([...journal].reverse());
      expect(store.damaged().map((p) => p.message)).toEqual([message]);
      expect(await store.pruneJournal('good', 1)).toBeGreaterThan(0);
      expect(await store.db.get('journal', 999)).toEqual(raw);
      expect((await store.journal('good')).filter((e) => e.type === 'woke')).toHaveLength(1);
    },
  );

  it.each([
    ['text', 'zzz'],
    ['a fraction', 1_000.5],
    ['a number past the safe whole numbers', 2 ** 60],
    ['a list', [1, 2]],
  ])(
    'rule: a journal record keyed by %s (not a seq wakeflow writes) neither stops the journal nor breaks its numbering',
    async (_what, key) => {
      const { store, supervisor } = await workspace();
      await putRaw(store, 'journal', { process: 'good', seq: key, entries: 'hostile' });
      expect((await supervisor.advanceTo(T0 + 3 * HOUR)).wakes).toBe(3);
      const journal = await store.journal('good');
      expect(journal.filter((e) => e.type === 'woke')).toHaveLength(3);
      const seqs = journal.map((e) => e.seq);
      expect(
        seqs.every((seq, i) => Number.isSafeInteger(seq) && (i === 0 || seq > seqs[i - 1]!)),
      ).toBe(true);
      expect(store.damaged()).toHaveLength(1);
    },
  );

  it('rule: an event skips a damaged waiter with a report, and the delivery does not fail', async () => {
    const { store, supervisor, good } = await workspace();
    await putRaw(store, 'processes', {
      ...good,
      id: 'bad',
      waitsFor: ['tick'],
      pinned: 'yes',
      created: 5,
    });
    expect(await supervisor.deliverEvent('tick', {})).toBe(0);
    expect(store.damaged().map((p) => p.message)).toEqual([
      'process "bad" cannot be restored: its "pinned" is the text "yes", not true or false; it is left as stored',
    ]);
  });
});
