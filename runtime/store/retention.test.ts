import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../supervisor/clock.ts';
import { Supervisor } from '../supervisor/supervisor.ts';
import type { JournalEntry } from '../supervisor/records.ts';
import { testStore } from './fixtures/testStore.ts';
import type { IdbStore } from './idbStore.ts';
import { HOUR, T0, hourly, withoutSeq } from './fixtures/storeScenarios.ts';

/** An hourly loop run for `hours`, its journal summed up to `keep` passes after every pass. */
async function run(hours: number, keep: number) {
  const store = await testStore('retention');
  await store.putFlow(hourly(1_000_000));
  const clock = new VirtualClock(T0);
  const supervisor = new Supervisor(store, clock);
  const p = await supervisor.start('hourly', { id: 'p', context: { count: 0 } });
  for (let h = 1; h <= hours; h++) {
    await supervisor.advanceTo(T0 + h * HOUR);
    await store.pruneJournal('p', keep);
  }
  return { store, contextId: p.contextId };
}

/** How many wakes each stored journal record holds, in order. */
async function wakesByRecord(store: IdbStore) {
  const records = (await store.db.getAll('journal')) as unknown as { entries: JournalEntry[] }[];
  return records.map((r) => r.entries.filter((e) => e.type === 'woke').length);
}

describe("the journal's retention rule (IdbStore.pruneJournal)", () => {
  it('rule: keeps the last N passes in full and sums up the older ones in one entry, in the place of the oldest', async () => {
    const { store } = await run(12, 3);
    const journal = await store.journal('p');
    expect(journal[0]).toMatchObject({ type: 'summarized', process: 'p', passes: 9, from: T0 });
    expect(journal.slice(1).filter((e) => e.type === 'summarized')).toEqual([]);
    expect(journal.filter((e) => e.type === 'woke')).toHaveLength(3);
    expect(journal.at(-1)).toMatchObject({ type: 'waited' });
    // In order of time throughout.
    const times = journal.map((e) => e.at);
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it('rule: storage per pass is flat: after 50 passes the journal and changes are as long as after 10', async () => {
    const sizes = [];
    for (const hours of [10, 50]) {
      const { store, contextId } = await run(hours, 5);
      sizes.push({
        journal: (await store.journal('p')).length,
        bytes: JSON.stringify(await store.journal('p')).length,
        changes: (await store.contextChanges(contextId)).length,
      });
    }
    expect(sizes[1]!.journal).toBe(sizes[0]!.journal);
    expect(sizes[1]!.changes).toBe(sizes[0]!.changes);
    // A few digits more in the counters, no more.
    expect(sizes[1]!.bytes).toBeLessThan(sizes[0]!.bytes * 1.05);
  });

  it('rule: a cut inside a record (the passes of one batch, one commit) sums up its older entries and keeps its newer ones, as the same passes committed one by one', async () => {
    // Twelve passes in one advance: one batch, so one commit and one journal record after the start's.
    const together = await testStore('retention-together');
    await together.putFlow(hourly(1_000_000));
    const supervisor = new Supervisor(together, new VirtualClock(T0));
    await supervisor.start('hourly', { id: 'p', context: { count: 0 } });
    await supervisor.advanceTo(T0 + 12 * HOUR);
    expect(await wakesByRecord(together)).toContain(12);
    const oneByOne = await run(12, 1_000);

    expect(await together.pruneJournal('p', 3)).toBe(await oneByOne.store.pruneJournal('p', 3));
    const journal = await together.journal('p');
    expect(journal.map(withoutSeq)).toEqual((await oneByOne.store.journal('p')).map(withoutSeq));
    expect(journal.filter((e) => e.type === 'woke')).toHaveLength(3);
    const seqs = journal.map((e) => e.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    // The batch's record kept its last three passes, under the same key.
    expect(await wakesByRecord(together)).toContain(3);
  });

  it('does nothing while a process has made fewer passes than are kept', async () => {
    const { store } = await run(2, 5);
    const before = await store.journal('p');
    expect(await store.pruneJournal('p', 5)).toBe(0);
    expect(await store.journal('p')).toEqual(before);
  });
});
