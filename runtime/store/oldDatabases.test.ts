import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../supervisor/clock.ts';
import type { ProcessRecord } from '../supervisor/records.ts';
import { Supervisor } from '../supervisor/supervisor.ts';
import { DATABASE_FIXTURES, loadDump, readDump } from './fixtures/loadDatabaseFixture.ts';
import { FIXTURE_T0 } from './fixtures/makeDatabaseFixture.ts';
import { IdbStore } from './idbStore.ts';
import { DB_VERSION } from './schema.ts';

const HOUR = 3_600_000;

/**
 * Databases frozen from the code of older commits (fixtures/databases, made by
 * makeDatabaseFixture.ts at those commits), opened by today's code: the schema steps bring the
 * database up to date, and each record read back is migrated to today's shape (restore.ts).
 */
describe.each(DATABASE_FIXTURES)('the frozen database %s, opened today', (file) => {
  const dump = readDump(file);
  // From schema 3 on, records carry their recordVersion; today's reads hand them back without it.
  const bare = (value: unknown) => {
    if (typeof value !== 'object' || value === null || !('recordVersion' in value)) return value;
    const { recordVersion: _version, ...rest } = value as Record<string, unknown>;
    return rest;
  };
  const rows = (store: string) => (dump.stores[store] ?? []).map(([, value]) => bare(value));
  const raw = (store: string, key: string) =>
    dump.stores[store]!.find(([k]) => k === key)![1] as Record<string, unknown>;

  it('rule: every record of the older version reads back, migrated step by step to the current shape, with nothing reported damaged', async () => {
    const store = await IdbStore.open(await loadDump(dump));
    expect(store.db.version).toBe(DB_VERSION);

    // Processes of record version 1: the wake counter appears (0 where it was not kept yet).
    const processes = rows('processes') as ProcessRecord[];
    expect(await store.listProcesses()).toEqual(
      [...processes]
        .sort((a, b) => a.created - b.created)
        .map((p) => ({ ...p, wakes: p.wakes ?? 0 })),
    );
    expect(await store.listFlows()).toEqual(rows('flows'));
    for (const c of rows('contexts') as { id: string }[])
      expect(await store.getContext(c.id)).toEqual(c);
    for (const p of processes)
      expect(await store.journal(p.id)).toEqual(
        rows('journal').filter((e) => (e as { process: string }).process === p.id),
      );
    if (dump.schemaVersion >= 2) {
      // Settings of record version 1 were stored bare, those of version 2 as { recordVersion, value }.
      for (const [key, value] of dump.stores.meta!) {
        const versioned = typeof value === 'object' && value !== null && 'recordVersion' in value;
        expect(await store.getMeta(key as string)).toEqual(
          versioned ? (value as unknown as { value: unknown }).value : value,
        );
      }
      const loop = processes.find((p) => p.id === 'loop')!;
      expect(await store.contextChanges(loop.contextId)).toEqual(
        rows('contextChanges').filter(
          (c) => (c as { contextId: string }).contextId === loop.contextId,
        ),
      );
    }
    expect(store.damaged()).toEqual([]);
    // Reading changed nothing stored: the records are as the older code left them.
    expect(await store.db.get('processes', 'done')).toEqual(raw('processes', 'done'));
    store.close();
  });

  it('rule: the workspace runs on: its timers fire by the due index, an event reaches a waiter written before events were indexed, a person answers, a stopped process resumes', async () => {
    const store = await IdbStore.open(await loadDump(dump));
    const clock = new VirtualClock(FIXTURE_T0 + 2 * HOUR);
    const supervisor = new Supervisor(store, clock);
    expect(await supervisor.nextDue()).toBe(FIXTURE_T0 + 3 * HOUR);

    expect((await supervisor.advanceTo(FIXTURE_T0 + 3 * HOUR)).wakes).toBe(1);
    const loop = (await store.getProcess('loop'))!;
    const before = raw('contexts', loop.contextId).value as { count: number };
    // One more pass of the loop than the older code ran: one more tick.
    expect((await store.getContext(loop.contextId))!.value).toMatchObject({
      count: before.count + 1,
    });

    expect(await supervisor.deliverEvent('paid', { amount: 12 })).toBe(1);
    expect((await store.getProcess('buyer'))!.status).toBe('done');
    expect((await store.journal('buyer')).map((e) => e.type)).toContain('woke');

    expect((await supervisor.submitHuman('approval', 'ask', { yes: true })).status).toBe('done');
    expect((await supervisor.resume('paused')).status).toBe('waiting');

    // The journal goes on after the entries the older code wrote (one record each before
    // schema 5), in one order, and its retention rule sums up old and new alike.
    const loopJournal = await store.journal('loop');
    const older = rows('journal').filter((e) => (e as { process: string }).process === 'loop');
    expect(loopJournal.slice(0, older.length)).toEqual(older);
    expect(loopJournal.length).toBeGreaterThan(older.length);
    const seqs = loopJournal.map((e) => (e as { seq: number }).seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(await store.pruneJournal('loop', 1)).toBeGreaterThan(0);
    expect((await store.journal('loop'))[0]).toMatchObject({ type: 'summarized', process: 'loop' });

    // Written again, a record is stored in today's shape: its version, and what it waits for.
    const written = (await store.db.get('processes', 'loop')) as unknown as Record<string, unknown>;
    expect(written.recordVersion).toBe(2);
    expect(written.waitsFor).toEqual([]);
    expect(store.damaged()).toEqual([]);
    store.close();
  });
});
