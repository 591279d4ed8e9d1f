import { describe, expect, it, vi } from 'vitest';
import { InProcessLocks } from '../../runtime/supervisor/locks.ts';
import { hourly } from '../../runtime/store/fixtures/storeScenarios.ts';
import type { RuntimeEvent, WorkerStart } from './runtimeProtocol.ts';
import { openWorkerRuntime } from './workerRuntime.ts';

const T0 = Date.UTC(2026, 0, 1);
const HOUR = 3_600_000;
let dbs = 0;

/** A runtime as its worker opens it, on fake-indexeddb, with the events it posts. */
async function open(start: Partial<WorkerStart> = {}, hear: (e: RuntimeEvent) => void = () => {}) {
  const events: RuntimeEvent[] = [];
  const runtime = await openWorkerRuntime(
    {
      dbName: `worker-runtime-${++dbs}`,
      seed: [hourly(3)],
      clock: { mode: 'virtual', virtual: T0 },
      pace: 'page',
      now: T0,
      ...start,
    },
    (e) => {
      events.push(e);
      hear(e);
    },
    new InProcessLocks(),
  );
  return { runtime, events };
}

describe('the runtime in its worker (web/runtime/workerRuntime.ts)', () => {
  it('tells the page which node each step is in and when it is out, for the watchdog', async () => {
    const { runtime, events } = await open();
    const p = await runtime.supervisor.start('hourly', { context: { count: 0 } });
    await runtime.settled();
    const steps = events.filter((e) => e.type === 'busy' || e.type === 'idle');
    expect(steps.filter((e) => e.type === 'busy').map((e) => e.type === 'busy' && e.path)).toEqual([
      'start',
      'tick',
      'sleep',
    ]);
    expect(steps.at(-1)).toEqual({ type: 'idle' });
    await vi.waitFor(() =>
      expect(events).toContainEqual(
        expect.objectContaining({ type: 'changed', processes: [p.id] }),
      ),
    );
    expect((await runtime.store.getProcess(p.id))?.status).toBe('waiting');
  });

  it('a new worker fails the step the last one was ended in before anything can run it again', async () => {
    const { runtime } = await open();
    const { id } = await runtime.supervisor.start('hourly', { context: { count: 0 } });
    await runtime.settled();
    const p = (await runtime.store.getProcess(id))!;
    runtime.close();
    const dbName = `worker-runtime-${dbs}`;
    const message = 'ran for more than 1.5 seconds in one call that could not be interrupted';
    const wake = { seq: p.snapshot.scope.waits[0]!.seq, trigger: 't' };
    const again = await open({
      dbName,
      runaway: { process: p.id, path: 'sleep', wake, message },
      clock: { mode: 'virtual', virtual: T0 + 5 * HOUR },
    });
    await again.runtime.wakeDue();
    const record = await again.runtime.store.getProcess(p.id);
    expect(record?.status).toBe('failed');
    expect(record?.error).toBe(`node "sleep": ${message}`);
    expect(record?.pendingWake).toEqual(wake);
    const { processes } = await again.runtime.views();
    expect(processes).toEqual([expect.objectContaining({ id: p.id, status: 'failed', wakes: 0 })]);
  });

  it('reads one process as the inspector shows it in one call: record, context, its changes, journal, flows', async () => {
    const { runtime } = await open();
    const p = await runtime.supervisor.start('hourly', { context: { count: 0 } });
    await runtime.settled();
    const reading = await runtime.reading(p.id);
    expect(reading?.record).toEqual(await runtime.store.getProcess(p.id));
    expect(reading?.context).toEqual({ version: 1, value: { count: 1 } });
    expect(reading?.changes.map((c) => [c.version, c.node])).toEqual([[1, 'tick']]);
    expect(reading?.journal).toEqual(await runtime.store.journal(p.id));
    expect([...(reading?.flows.keys() ?? [])]).toEqual(['hourly']);
    expect(await runtime.reading('nobody')).toBeUndefined();
  });

  it('an advance reports its progress as events and stops where it got to when cancelled', async () => {
    let cancel = () => {};
    // Cancels on the third wake reported, as the page's Cancel button does.
    const { runtime, events } = await open({ seed: [hourly(1000)] }, (e) => {
      if (e.type === 'progress' && e.wakes === 3) cancel();
    });
    cancel = () => runtime.cancelAdvance(7);
    await runtime.supervisor.start('hourly', { context: { count: 0 } });
    await runtime.settled();
    const advancing = runtime.advanceTo(T0 + 500 * HOUR, 7);
    const { reached, wakes } = await advancing;
    expect(wakes).toBe(3);
    expect(reached).toBe(T0 + wakes * HOUR);
    const progress = events.filter((e) => e.type === 'progress');
    expect(progress.at(-1)).toEqual({ type: 'progress', advance: 7, reached, wakes });
  });
});
