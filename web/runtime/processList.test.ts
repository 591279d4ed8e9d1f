import { describe, expect, it, vi } from 'vitest';
import { InProcessLocks } from '../../runtime/supervisor/locks.ts';
import { hourly } from '../../runtime/store/fixtures/storeScenarios.ts';
import type { IdbStore } from '../../runtime/store/idbStore.ts';
import { openWorkerRuntime } from './workerRuntime.ts';
import { storeCounts } from '../../runtime/store/fixtures/storeCounts.ts';

const T0 = Date.UTC(2026, 0, 1);
const MANY = 2000;
let dbs = 0;

/** A worker's runtime holding `MANY` sleeping processes besides the one they are copied from. */
const open = (dbName: string) =>
  openWorkerRuntime(
    { dbName, seed: [hourly(3)], clock: { mode: 'virtual', virtual: T0 }, pace: 'page', now: T0 },
    () => {},
    new InProcessLocks(),
  );

async function crowded() {
  const dbName = `process-list-${++dbs}`;
  const setup = await open(dbName);
  const first = await setup.supervisor.start('hourly', { id: 'first', context: { count: 0 } });
  await setup.settled();
  const like = (await setup.store.getProcess(first.id))!;
  await (setup.store.inner as IdbStore).saveBatch({
    flows: [],
    versions: [],
    contexts: [],
    changes: [],
    journal: [],
    processes: Array.from({ length: MANY }, (_, i) => ({
      ...like,
      id: `crowd-${String(i).padStart(4, '0')}`,
      // Every tenth failed, so that a filter has something to keep out.
      status: i % 10 === 0 ? ('failed' as const) : ('waiting' as const),
      created: like.created + 1 + i,
    })),
  });
  setup.close();
  // Opened again, as the app opens on a workspace: nothing of the setup's own runs reads on.
  const runtime = await open(dbName);
  await runtime.settled();
  return { runtime, idb: runtime.store.inner as IdbStore };
}

describe('the process table is queried by page (workerRuntime.processList)', () => {
  it("rule: the start form's list of every process by id and flow, oldest first, reads no process record", async () => {
    const { runtime, idb } = await crowded();
    const before = storeCounts(idb).processReads;
    const names = await runtime.processNames();
    expect(storeCounts(idb).processReads - before).toBe(0);
    expect(names).toHaveLength(MANY + 1);
    expect(names[0]).toEqual({ id: 'first', flow: 'hourly' });
    expect(names.slice(1, 4)).toEqual(
      ['crowd-0000', 'crowd-0001', 'crowd-0002'].map((id) => ({ id, flow: 'hourly' })),
    );
    expect(names.at(-1)).toEqual({ id: `crowd-${MANY - 1}`, flow: 'hourly' });
  });

  it('rule: a window of 40 rows among 2,001 processes reads 40 process records and no context', async () => {
    const { runtime, idb } = await crowded();
    const contexts = vi.spyOn(idb, 'getContext');
    const before = storeCounts(idb).processReads;
    const list = await runtime.processList({ offset: 1001, limit: 40 });
    expect(storeCounts(idb).processReads - before).toBe(40);
    expect(contexts).not.toHaveBeenCalled();
    expect(list.rows.map((r) => r.id)).toEqual(
      Array.from({ length: 40 }, (_, i) => `crowd-${String(1000 + i).padStart(4, '0')}`),
    );
    expect(list.rows[0]).toEqual({
      id: 'crowd-1000',
      flow: 'hourly',
      status: 'failed',
      due: T0 + 3_600_000,
      error: null,
      wakes: 0,
    });
    expect(list.total).toBe(MANY + 1);
    expect(list.counts).toEqual({ total: MANY + 1, byStatus: { waiting: 1801, failed: 200 } });
    runtime.close();
  });

  it('rule: a window of one status counts and reads only that status, from its offset', async () => {
    const { runtime, idb } = await crowded();
    const before = storeCounts(idb).processReads;
    const list = await runtime.processList({ offset: 5, limit: 3, status: 'failed' });
    expect(storeCounts(idb).processReads - before).toBe(3);
    expect(list.rows.map((r) => r.id)).toEqual(['crowd-0050', 'crowd-0060', 'crowd-0070']);
    expect(list.total).toBe(200);
    // Of one flow, counted without reading a record.
    const counted = storeCounts(idb).processReads;
    expect((await runtime.processCounts('hourly')).byStatus.failed).toBe(200);
    expect(await runtime.processCounts('nobody')).toEqual({ total: 0, byStatus: {} });
    expect(storeCounts(idb).processReads).toBe(counted);
    runtime.close();
  });
});
