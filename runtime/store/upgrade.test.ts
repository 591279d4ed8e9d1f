import { describe, expect, it, vi } from 'vitest';
import { minimalFlow } from '../../shared/fixtures/flows.ts';
import { VirtualClock } from '../supervisor/clock.ts';
import { Supervisor } from '../supervisor/supervisor.ts';
import { testStore } from './fixtures/testStore.ts';
import { HOUR, MINUTE, T0, hourly, sleepThenNote, withoutSeq } from './fixtures/storeScenarios.ts';
import { IdbStore } from './idbStore.ts';
import { openWorkspaceDb } from './openWorkspaceDb.ts';
import { DB_VERSION } from './schema.ts';

let databases = 0;
const freshName = () => `upgrade-${++databases}`;

/** Records of a real run, to write into a database of the previous schema version. */
async function recordsOfARun() {
  const source = await testStore('upgrade-source');
  const clock = new VirtualClock(T0);
  for (const f of [hourly(), sleepThenNote('later', 'PT30M'), minimalFlow('once')])
    await source.putFlow(f);
  const supervisor = new Supervisor(source, clock);
  await supervisor.start('hourly', { id: 'p', context: { count: 0 } });
  await supervisor.advanceTo(T0 + 2 * HOUR);
  await supervisor.start('later', { id: 'q', context: { order: [] } });
  await supervisor.start('once', { id: 'r' });
  const processes = await source.listProcesses();
  const contexts = await Promise.all(processes.map((p) => source.getContext(p.contextId)));
  const journal = (await Promise.all(processes.map((p) => source.journal(p.id))))
    .flat()
    .sort((a, b) => a.seq! - b.seq!);
  const records = { flows: await source.listFlows(), contexts, processes, journal };
  source.close();
  return records;
}

describe('schema upgrades', () => {
  it('a database written by schema version 1 keeps all its data after the upgrade, and the new stores and the due-time index work on it', async () => {
    const run = await recordsOfARun();
    expect(run.processes.map((p) => [p.id, p.status, p.due])).toEqual([
      ['p', 'waiting', T0 + 3 * HOUR],
      ['q', 'waiting', T0 + 2 * HOUR + 30 * MINUTE],
      ['r', 'done', null],
    ]);

    const name = freshName();
    const v1 = await openWorkspaceDb(name, { version: 1 });
    expect([...v1.objectStoreNames].sort()).toEqual(['contexts', 'flows', 'journal', 'processes']);
    for (const f of run.flows) await v1.put('flows', f);
    for (const c of run.contexts) await v1.put('contexts', c!);
    for (const p of run.processes) await v1.put('processes', p);
    // Version 1 wrote journal entries one record each, without a key; the store gave them one.
    for (const e of run.journal) await v1.add('journal', withoutSeq(e) as never);
    v1.close();

    const store = await IdbStore.open(name);
    expect(store.db.version).toBe(DB_VERSION);
    expect(await store.listFlows()).toEqual(run.flows);
    expect(await store.listProcesses()).toEqual(run.processes);
    for (const c of run.contexts) expect(await store.getContext(c!.id)).toEqual(c);
    for (const p of run.processes)
      expect(await store.journal(p.id)).toEqual(run.journal.filter((e) => e.process === p.id));

    // The stores version 2 added.
    const flow = run.flows.find((f) => f.id === 'hourly')!;
    await store.putFlowVersion(flow, 'sig-1');
    expect(await store.getFlowVersion('hourly', 'sig-1')).toEqual(flow);
    await store.putMeta('clock', { mode: 'virtual' });
    expect(await store.getMeta('clock')).toEqual({ mode: 'virtual' });
    const p = run.processes.find((x) => x.id === 'p')!;
    const change = {
      contextId: p.contextId,
      version: 4,
      process: null,
      node: null,
      writes: [{ path: 'count', value: 10 }],
      at: T0,
    };
    expect(
      await store.putContext({ id: p.contextId, version: 4, value: { count: 10 } }, 3, change),
    ).toBe(true);
    expect(await store.contextChanges(p.contextId)).toEqual([{ ...change, seq: 1 }]);

    // The due-time index, built over the records version 1 wrote: waiting and due, earliest first.
    expect((await store.dueProcesses(T0 + 2 * HOUR)).map((x) => x.id)).toEqual([]);
    expect((await store.dueProcesses(T0 + 2 * HOUR + 30 * MINUTE)).map((x) => x.id)).toEqual(['q']);
    expect((await store.dueProcesses(T0 + 3 * HOUR)).map((x) => x.id)).toEqual(['q', 'p']);
    store.close();
  });

  it('rule: schema 5 drops the process indexes that others answer for (by-status, by-due), and the counts and listings they served read the same', async () => {
    const name = freshName();
    const v4 = await openWorkspaceDb(name, { version: 4 });
    expect([...v4.transaction('processes').store.indexNames]).toContain('by-status');
    const run = await recordsOfARun();
    for (const p of run.processes) await v4.put('processes', { ...p, recordVersion: 2 } as never);
    const running = { ...run.processes[0]!, id: 'x', status: 'running' as const, created: 99 };
    await v4.put('processes', { ...running, recordVersion: 2 } as never);
    v4.close();

    const store = await IdbStore.open(name);
    expect([...store.db.transaction('processes').store.indexNames].sort()).toEqual([
      'by-created',
      'by-flow-status',
      'by-status-created',
      'by-waits-for',
      'by-wake',
    ]);
    // What by-status answered, by-status-created answers: counts per status, and who runs.
    expect(await store.countProcesses()).toEqual({
      total: 4,
      byStatus: { waiting: 2, done: 1, running: 1 },
    });
    expect((await store.runningProcesses()).map((p) => p.id)).toEqual(['x']);
    store.close();
  });

  it('rule: schema 6 adds the store of call progress; a version 5 database keeps its records and gains it empty', async () => {
    const name = freshName();
    const v5 = await openWorkspaceDb(name, { version: 5 });
    expect([...v5.objectStoreNames]).not.toContain('callProgress');
    const run = await recordsOfARun();
    for (const p of run.processes) await v5.put('processes', { ...p, recordVersion: 2 } as never);
    v5.close();

    const store = await IdbStore.open(name);
    expect(store.db.version).toBe(DB_VERSION);
    expect(await store.listProcesses()).toEqual(run.processes);
    expect(await store.listCallProgress('p')).toEqual([]);
    await store.putCallProgress('p', { seq: 1, attempts: 1, due: null });
    expect(await store.listCallProgress('p')).toEqual([{ seq: 1, attempts: 1, due: null }]);
    store.close();
  });

  it('an open connection closes itself when another opens a newer version, so that upgrade never waits', async () => {
    const name = freshName();
    const onVersionChange = vi.fn();
    const old = await openWorkspaceDb(name, { version: 1, onVersionChange });
    await old.put('flows', minimalFlow('kept'));

    // Without the close this open would be blocked, and the test would time out.
    const store = await IdbStore.open(name);
    expect(onVersionChange).toHaveBeenCalledTimes(1);
    expect(store.db.version).toBe(DB_VERSION);
    expect(await store.getFlow('kept')).toEqual(minimalFlow('kept'));
    // The old connection is closed: it can start no transaction.
    await expect(old.get('flows', 'kept')).rejects.toThrow();
    store.close();
  });

  it('a process stored by schema version 1, before flow versions were kept, wakes and runs on after the upgrade', async () => {
    const run = await recordsOfARun();
    const name = freshName();
    const v1 = await openWorkspaceDb(name, { version: 1 });
    for (const f of run.flows) await v1.put('flows', f);
    for (const c of run.contexts) await v1.put('contexts', c!);
    for (const p of run.processes) await v1.put('processes', p);
    for (const e of run.journal) await v1.add('journal', withoutSeq(e) as never);
    v1.close();

    const store = await IdbStore.open(name);
    const supervisor = new Supervisor(store, new VirtualClock(T0 + 2 * HOUR));
    await supervisor.advanceTo(T0 + 3 * HOUR);
    // p had counted 3 by T0 + 2h; its wake at T0 + 3h counts 4 and sleeps another hour.
    const p = await supervisor.mustGet('p');
    expect((await store.getContext(p.contextId))?.value).toEqual({ count: 4 });
    expect(p.due).toBe(T0 + 4 * HOUR);
    const q = await supervisor.mustGet('q');
    expect(q.status).toBe('done');
    expect((await store.getContext(q.contextId))?.value).toEqual({ order: ['later'] });
    store.close();
  });
});
