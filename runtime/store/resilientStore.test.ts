import { describe, expect, it, vi } from 'vitest';
import { VirtualClock } from '../supervisor/clock.ts';
import { Supervisor } from '../supervisor/supervisor.ts';
import { HOUR, T0, hourly, withoutSeq } from './fixtures/storeScenarios.ts';
import { IdbStore } from './idbStore.ts';
import { ResilientStore, type SaveState } from './resilientStore.ts';

const WRITES = new Set([
  'putFlow',
  'deleteFlow',
  'putFlowVersion',
  'putContext',
  'putProcess',
  'commitStep',
  'saveBatch',
  'putMeta',
]);

/** An IdbStore whose writes fail with `error()` while `failing` is set; reads still work. */
function refusingWrites(inner: IdbStore, error: () => DOMException) {
  const control = { failing: false, refused: 0 };
  const store = new Proxy(inner, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof prop !== 'string' || !WRITES.has(prop) || typeof value !== 'function')
        return value;
      return (...args: unknown[]) => {
        if (control.failing) {
          control.refused++;
          return Promise.reject(error());
        }
        return (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
      };
    },
  });
  return { store, control };
}

let databases = 0;

async function setup(error: () => DOMException) {
  const name = `resilient-${++databases}`;
  const idb = await IdbStore.open(name);
  await idb.putFlow(hourly());
  const clock = new VirtualClock(T0);
  const { store: refusing, control } = refusingWrites(idb, error);
  const store = new ResilientStore(refusing, () => clock.now());
  const supervisor = new Supervisor(store, clock);
  const states: SaveState[] = [];
  store.onSaveState((s) => states.push(s));
  /** Another connection to the same database: what a reload would find. */
  const onDisk = async () => {
    const other = await IdbStore.open(name);
    const p = (await other.getProcess('p'))!;
    const found = {
      process: p,
      context: await other.getContext(p.contextId),
      journal: await other.journal('p'),
      changes: await other.contextChanges(p.contextId),
    };
    other.close();
    return found;
  };
  const inMemory = async () => {
    const p = (await store.getProcess('p'))!;
    return {
      process: p,
      context: await store.getContext(p.contextId),
      journal: await store.journal('p'),
      changes: await store.contextChanges(p.contextId),
    };
  };
  return { idb, store, supervisor, clock, control, states, onDisk, inMemory };
}

const withoutSeqs = <T extends object>(records: T[]) => records.map(withoutSeq);

describe('ResilientStore: a failed write never stops a run', () => {
  it('while the disk is full the run goes on in memory, the last save stands, and everything is saved once writing works again', async () => {
    const s = await setup(() => new DOMException('full', 'QuotaExceededError'));
    await s.supervisor.start('hourly', { id: 'p', context: { count: 0 } });
    await s.supervisor.advanceTo(T0 + HOUR);
    const saved = await s.onDisk();
    expect(saved.context).toMatchObject({ version: 2, value: { count: 2 } });
    expect(s.store.saveState).toEqual({ saved: true });

    s.control.failing = true;
    await s.supervisor.advanceTo(T0 + 3 * HOUR);
    expect(s.control.refused).toBeGreaterThan(0);

    // The run went on: two more passes, seen by every read through the store.
    const during = await s.inMemory();
    expect(during.context).toEqual({
      id: during.process.contextId,
      version: 4,
      value: { count: 4 },
    });
    expect(during.process.status).toBe('waiting');
    expect(during.process.due).toBe(T0 + 4 * HOUR);
    expect(during.process.snapshot.visits.tick).toBe(4);
    expect((await s.store.dueProcesses(T0 + 4 * HOUR)).map((p) => p.id)).toEqual(['p']);
    expect(during.journal.filter((e) => e.type === 'woke').map((e) => e.at)).toEqual([
      T0 + HOUR,
      T0 + 2 * HOUR,
      T0 + 3 * HOUR,
    ]);
    expect(during.changes.map((c) => c.version)).toEqual([1, 2, 3, 4]);

    // The app is told once, with a warning that says what happened.
    expect(s.store.saveState).toEqual({
      saved: false,
      error: expect.stringMatching(/disk is full/),
      // The advance's passes commit together, before the clock moves past them: the failure is
      // dated where the clock stood, the last time everything was saved.
      since: T0 + HOUR,
    });
    expect(s.states).toHaveLength(1);
    expect(s.states[0]).toMatchObject({ saved: false });

    // The database still holds the last save, all of it.
    expect(await s.onDisk()).toEqual(saved);

    s.control.failing = false;
    expect(await s.store.flush()).toBe(true);
    expect(s.store.saveState).toEqual({ saved: true });
    expect(s.states.map((x) => x.saved)).toEqual([false, true]);

    const after = await s.onDisk();
    expect(after.process).toEqual(during.process);
    expect(after.context).toEqual(during.context);
    // The journal and the changes made while failing follow the ones before, in order.
    expect(withoutSeqs(after.journal)).toEqual(withoutSeqs(during.journal));
    expect(after.journal.slice(0, saved.journal.length)).toEqual(saved.journal);
    expect(withoutSeqs(after.changes)).toEqual(withoutSeqs(during.changes));

    // And it carries on saving as usual.
    await s.supervisor.advanceTo(T0 + 4 * HOUR);
    expect((await s.onDisk()).context).toMatchObject({ version: 5, value: { count: 5 } });
  });

  it('the next write after the disk has room again saves what was pending before it, in order', async () => {
    const s = await setup(() => new DOMException('full', 'QuotaExceededError'));
    await s.supervisor.start('hourly', { id: 'p', context: { count: 0 } });
    s.control.failing = true;
    await s.supervisor.advanceTo(T0 + HOUR);
    expect((await s.onDisk()).context).toMatchObject({ version: 1, value: { count: 1 } });

    s.control.failing = false;
    // No flush: the next step's write saves what is pending first.
    await s.supervisor.advanceTo(T0 + 2 * HOUR);
    expect(s.store.saveState).toEqual({ saved: true });
    const after = await s.onDisk();
    expect(after.context).toMatchObject({ version: 3, value: { count: 3 } });
    expect(after.changes.map((c) => c.version)).toEqual([1, 2, 3]);
    expect(after.journal.filter((e) => e.type === 'woke').map((e) => e.at)).toEqual([
      T0 + HOUR,
      T0 + 2 * HOUR,
    ]);
    const seqs = after.journal.map((e) => e.seq!);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
  });

  it('an aborted transaction is kept in memory the same way, with a warning naming it', async () => {
    const s = await setup(() => new DOMException('aborted', 'AbortError'));
    await s.supervisor.start('hourly', { id: 'p', context: { count: 0 } });
    const saved = await s.onDisk();

    s.control.failing = true;
    await s.supervisor.advanceTo(T0 + 2 * HOUR);
    const during = await s.inMemory();
    expect(during.context?.value).toEqual({ count: 3 });
    expect(s.store.saveState).toEqual({
      saved: false,
      error: expect.stringMatching(/a write failed \(AbortError: aborted\)/),
      // Dated where the clock stood when the advance's batch failed to commit (see above).
      since: T0,
    });
    expect(s.states).toHaveLength(1);
    expect(await s.onDisk()).toEqual(saved);

    s.control.failing = false;
    expect(await s.store.flush()).toBe(true);
    expect(s.states.map((x) => x.saved)).toEqual([false, true]);
    const after = await s.onDisk();
    expect(after.context).toEqual(during.context);
    expect(after.process).toEqual(during.process);
    expect(withoutSeqs(after.journal)).toEqual(withoutSeqs(during.journal));
  });

  it('a flush that fails again keeps everything pending and tells no one twice', async () => {
    const s = await setup(() => new DOMException('full', 'QuotaExceededError'));
    await s.supervisor.start('hourly', { id: 'p', context: { count: 0 } });
    s.control.failing = true;
    await s.supervisor.advanceTo(T0 + HOUR);
    const during = await s.inMemory();
    expect(await s.store.flush()).toBe(false);
    expect(await s.store.flush()).toBe(false);
    expect(s.states).toHaveLength(1);
    expect(await s.inMemory()).toEqual(during);
    const listener = vi.fn();
    s.store.onSaveState(listener);
    s.control.failing = false;
    expect(await s.store.flush()).toBe(true);
    expect(listener).toHaveBeenCalledExactlyOnceWith({ saved: true });
    expect((await s.onDisk()).context).toEqual(during.context);
  });
});
