import { describe, expect, it, vi } from 'vitest';
import { InProcessLocks } from '../../runtime/supervisor/locks.ts';
import { hourly } from '../../runtime/store/fixtures/storeScenarios.ts';
import type { RuntimeEvent, WorkerStart } from './runtimeProtocol.ts';
import { openWorkerRuntime } from './workerRuntime.ts';
import { DEFAULT_KEEP_PASSES, PRUNE_EVERY_WAKES } from './journalRetention.ts';
import { MAX_STEPS_PER_BATCH } from '../../runtime/supervisor/limits.ts';
import { VISITS_SHOWN } from '../../runtime/supervisor/nodeVisits.ts';

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
  it('tells the page which node each step is in, and once the run is over that it is out, for the watchdog', async () => {
    // No slice of the run lets the event loop in (on a slow machine a 16 ms slice can end
    // between two steps, and the idle it lets through is then right, but not this test's rule).
    const { runtime, events } = await open({ runSliceMs: Infinity });
    const p = await runtime.supervisor.start('hourly', { context: { count: 0 } });
    await runtime.settled();
    const steps = () => events.filter((e) => e.type === 'busy' || e.type === 'idle');
    // Idle is told on the turn after a run's last step: one message a step, one at the end.
    await vi.waitFor(() => expect(steps().at(-1)).toEqual({ type: 'idle' }));
    // The start's step, then its drive's two, run in memory one after the other: no idle
    // between the drive's steps, one once it is over. Between the start and its drive the
    // start's commit lets the event loop turn, and whether the idle timer is due by then is the
    // machine's pace, so either telling is right there.
    const told = steps().map((e) => (e.type === 'busy' ? e.path : 'idle'));
    expect([
      ['start', 'tick', 'sleep', 'idle'],
      ['start', 'idle', 'tick', 'sleep', 'idle'],
    ]).toContainEqual(told);
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
    const { rows } = await again.runtime.processList({ offset: 0, limit: 10 });
    expect(rows).toEqual([expect.objectContaining({ id: p.id, status: 'failed', wakes: 0 })]);
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

  it('rule: a lean reading leaves out the flows the page holds, by their key, and the changes the inspector does not show', async () => {
    const { runtime } = await open();
    const p = await runtime.supervisor.start('hourly', { context: { count: 0 } });
    await runtime.settled();
    const first = await runtime.leanReading(p.id);
    expect([...(first?.flows?.keys() ?? [])]).toEqual(['hourly']);
    // Its own write before it slept is not shown beside the context: none is sent.
    expect(first?.changes).toEqual([]);
    await runtime.supervisor.replaceContext(p.id, { count: 7 });
    const again = await runtime.leanReading(p.id, undefined, first?.flowsKey);
    expect(again?.flowsKey).toBe(first?.flowsKey);
    expect(again?.flows).toBeUndefined();
    // A write from outside since it slept is shown: it is sent, as the full reading has it.
    const full = await runtime.reading(p.id);
    expect(again?.changes).toEqual(full?.changes.filter((c) => c.process === null));
    expect(again?.changes).toHaveLength(1);
    // A key the runtime did not give (another worker's, or none) gets the flows.
    expect((await runtime.leanReading(p.id, undefined, 'other'))?.flows).toEqual(full?.flows);
  });

  it("rule: a node's visits are read in the worker and bounded: the newest 20 of 30 passes, and the count", async () => {
    const { runtime } = await open({ seed: [hourly(40)] });
    const p = await runtime.supervisor.start('hourly', { context: { count: 0 } });
    await runtime.settled();
    await runtime.advanceTo(T0 + 29 * HOUR, 1);
    const visits = await runtime.nodeVisits(p.id, 'tick', 1_000);
    expect(visits.ok && [visits.total, visits.visits.length]).toEqual([30, VISITS_SHOWN]);
    expect(visits.ok && visits.visits.at(-1)).toMatchObject({
      number: 30,
      gen: [29],
      writes: [{ path: 'count', before: { text: '29' }, after: { text: '30' } }],
    });
    expect(await runtime.nodeVisits('nobody', 'tick')).toEqual({
      ok: false,
      problem: 'there is no process "nobody"',
    });
  });

  it('an advance reports its progress as events and stops where it got to when cancelled', async () => {
    let cancel = () => {};
    let steps = 0;
    // Cancels in the middle of the first batch (all 500 passes would fit in it), at its 30th
    // step, as the page's Cancel button does while the worker runs.
    const { runtime, events } = await open({ seed: [hourly(1000)] }, (e) => {
      if (e.type === 'busy' && ++steps === 30) cancel();
    });
    await runtime.supervisor.start('hourly', { context: { count: 0 } });
    await runtime.settled();
    cancel = () => runtime.cancelAdvance(7);
    steps = 0;
    const { reached, wakes } = await runtime.advanceTo(T0 + 500 * HOUR, 7);
    const progress = events.filter((e) => e.type === 'progress');
    expect(progress).toEqual([{ type: 'progress', advance: 7, reached, wakes }]);
    // The batch's passes up to the wake in progress, at the time of its last: not all 500.
    expect(wakes).toBeGreaterThan(0);
    expect(wakes).toBeLessThan(500);
    expect(reached).toBe(T0 + wakes * HOUR);
  });

  it('rule: eight hours of a one-minute loop advanced in the worker posts a change and a progress event per batch, not per pass, and the journal keeps its last passes', async () => {
    const minute = {
      ...hourly(1_000_000),
      nodes: hourly(1_000_000).nodes.map((n) =>
        n.kind === 'continue-after' ? { ...n, on: [{ id: 't', timer: 'PT1M' }] } : n,
      ),
    };
    const { runtime, events } = await open({ seed: [minute] });
    const { id } = await runtime.supervisor.start('hourly', { context: { count: 0 } });
    await runtime.settled();
    const passes = 8 * 60;
    const before = events.length;
    const { wakes } = await runtime.advanceTo(T0 + 8 * HOUR, 1);
    expect(wakes).toBe(passes);
    const during = events.slice(before);
    const progress = during.filter((e) => e.type === 'progress');
    // A pass is three acts (the fire, tick, sleep); a batch holds MAX_STEPS_PER_BATCH of them.
    const batches = Math.ceil((passes * 3) / MAX_STEPS_PER_BATCH);
    expect(progress.length).toBeLessThanOrEqual(batches);
    expect(progress.length).toBeGreaterThan(0);
    await vi.waitFor(() =>
      expect(events.filter((e) => e.type === 'changed').length).toBeGreaterThan(0),
    );
    // Changes are told at most once per batch (and once at the end), however many passes.
    const changed = events.slice(before).filter((e) => e.type === 'changed');
    expect(changed.length).toBeLessThanOrEqual(batches + 2);
    // The retention rule (the last DEFAULT_KEEP_PASSES passes in full) keeps the journal bounded.
    await vi.waitFor(
      async () => {
        const journal = await runtime.store.journal(id);
        expect(journal[0]?.type).toBe('summarized');
        expect(journal.filter((e) => e.type === 'woke').length).toBeLessThanOrEqual(
          DEFAULT_KEEP_PASSES + PRUNE_EVERY_WAKES,
        );
      },
      { timeout: 30_000, interval: 100 },
    );
    const record = (await runtime.store.getProcess(id))!;
    expect(record.wakes).toBe(passes);
    expect((await runtime.store.getContext(record.contextId))!.value).toEqual({
      count: passes + 1,
    });
  }, 120_000);
});
