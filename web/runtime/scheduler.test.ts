import { describe, expect, it } from 'vitest';
import { startScheduler } from './scheduler.ts';

describe('the worker schedule (web/runtime/scheduler.ts)', () => {
  it('rule: a schedule stopped while it looks at its store (closed under it) reports no error', async () => {
    let fail: (e: Error) => void = () => {};
    const errors: unknown[] = [];
    const schedule = startScheduler({
      time: { now: () => 0, at: () => () => {} },
      clock: { mode: 'real', now: () => 0 },
      // The store answers only once it has been closed: the way IndexedDB fails a late read.
      nextDue: () => new Promise((_, reject) => (fail = reject)),
      wakeDue: () => Promise.resolve(),
      onError: (e) => errors.push(e),
    });
    const run = schedule.runNow();
    // The run is over; the schedule now asks the store when the next wake is due, and waits.
    await new Promise((resolve) => setTimeout(resolve, 0));
    schedule.stop();
    fail(new Error('InvalidStateError: the database connection is closing'));
    await run;
    expect(errors).toEqual([]);
  });

  it('a schedule still running reports what its store failed with', async () => {
    const errors: unknown[] = [];
    const schedule = startScheduler({
      time: { now: () => 0, at: () => () => {} },
      clock: { mode: 'real', now: () => 0 },
      nextDue: () => Promise.reject(new Error('quota')),
      wakeDue: () => Promise.resolve(),
      onError: (e) => errors.push(e),
    });
    await schedule.runNow();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(errors.map((e) => (e as Error).message)).toEqual(['quota']);
    schedule.stop();
  });
});
