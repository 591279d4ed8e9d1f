import { describe, expect, it } from 'vitest';
import { HOUR, T0, hourly } from '../store/fixtures/storeScenarios.ts';
import { testStore } from '../store/fixtures/testStore.ts';
import type { IdbStore } from '../store/idbStore.ts';
import { VirtualClock } from './clock.ts';
import type { StepCommit } from './store.ts';
import { Supervisor } from './supervisor.ts';

/** A workspace with one hourly loop started at T0, and the commits asked of its store. */
async function hourlyLoop(name: string, options: { maxStepsPerBatch?: number } = {}) {
  const store = await testStore(name);
  await store.putFlow(hourly());
  const clock = new VirtualClock(T0);
  const supervisor = new Supervisor(store, clock, options);
  const p = await supervisor.start('hourly', { id: 'p', context: { count: 0 } });
  const commits: StepCommit[] = [];
  const commitStep = store.commitStep.bind(store);
  store.commitStep = (c) => {
    commits.push(c);
    return commitStep(c);
  };
  return { store, supervisor, p, commits };
}

const withoutSeq = <T extends object>(r: T) => {
  const { seq: _, ...rest } = r as T & { seq?: number };
  return rest;
};

/** What a person sees of a process once the rule has been applied: all of it but store keys. */
async function stored(store: IdbStore, id: string) {
  const record = (await store.getProcess(id))!;
  const context = await store.getContext(record.contextId);
  const journal = (await store.journal(id)).map(withoutSeq);
  const changes = (await store.contextChanges(record.contextId)).map(withoutSeq);
  return { record, context, journal, changes };
}

describe('an advance applies the retention rule to its batches before they commit', () => {
  it('rule: 60 passes kept at 5, in batches of 30 acts, commit in ⌈180/30⌉ = 6 transactions and end as the one-wake-at-a-time run pruned afterwards', async () => {
    const keep = 5;
    // The unbatched path: every entry committed, the rule applied once at the end.
    const plain = await hourlyLoop('retention-plain', { maxStepsPerBatch: 3 });
    await plain.supervisor.advanceTo(T0 + 60 * HOUR);
    expect(plain.commits).toHaveLength(60);
    await plain.store.pruneJournal('p', keep);

    // Three acts a pass; the factor of an advance with the rule (10) makes a batch 30 acts.
    const summed = await hourlyLoop('retention-summed', { maxStepsPerBatch: 3 });
    await summed.supervisor.advanceTo(T0 + 60 * HOUR, { keepPasses: keep });
    expect(summed.commits).toHaveLength(6);
    // No commit writes more than twice the passes kept; the older ones come summed up.
    for (const c of summed.commits) {
      expect(c.journal.filter((e) => e.type === 'woke').length).toBeLessThanOrEqual(2 * keep);
      expect(c.context.write!.changes.length).toBeLessThanOrEqual(2 * keep);
    }
    expect(summed.commits.slice(1).every((c) => c.journal[0]!.type === 'summarized')).toBe(true);
    await summed.store.pruneJournal('p', keep);

    const a = await stored(plain.store, 'p');
    const b = await stored(summed.store, 'p');
    expect(b.record).toEqual(a.record);
    // Every pass counted a version, though most of the changes were summed up.
    expect(b.context).toEqual({ id: a.context!.id, version: 61, value: { count: 61 } });
    expect(b.context).toEqual(a.context);
    expect(b.changes).toEqual(a.changes);
    expect(b.journal).toEqual(a.journal);
    expect(b.journal.find((e) => e.type === 'summarized')).toMatchObject({ passes: 55 });
  });

  it('rule: without keepPasses an advance commits every entry of every pass', async () => {
    const { supervisor, commits } = await hourlyLoop('retention-none', { maxStepsPerBatch: 30 });
    await supervisor.advanceTo(T0 + 60 * HOUR);
    expect(commits).toHaveLength(6);
    expect(commits.flatMap((c) => c.journal).filter((e) => e.type === 'woke')).toHaveLength(60);
    expect(commits.flatMap((c) => c.journal).some((e) => e.type === 'summarized')).toBe(false);
  });

  it('rule: Cancel ends an advance after the wake in progress; what its batch ran commits', async () => {
    const store = await testStore('retention-cancel');
    await store.putFlow(hourly());
    const clock = new VirtualClock(T0);
    const controller = new AbortController();
    let pauses = 0;
    // Aborted from inside the batch (1,000 passes fit in one): at the tenth pause between acts.
    const supervisor = new Supervisor(store, clock, {
      betweenSteps: () => {
        if (++pauses === 10) controller.abort();
      },
    });
    await supervisor.start('hourly', { id: 'p', context: { count: 0 } });
    const { reached } = await supervisor.advanceTo(T0 + 1000 * HOUR, {
      keepPasses: 100,
      signal: controller.signal,
    });
    const record = (await store.getProcess('p'))!;
    expect(record.wakes).toBeGreaterThan(0);
    expect(record.wakes).toBeLessThan(10);
    expect(reached).toBe(T0 + record.wakes! * HOUR);
    expect(clock.now()).toBe(reached);
  });
});
