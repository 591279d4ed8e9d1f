import { describe, expect, it, vi } from 'vitest';
import { InProcessLocks } from '../../runtime/supervisor/locks.ts';
import { HOUR, T0, hourly } from '../../runtime/store/fixtures/storeScenarios.ts';
import { DEFAULT_KEEP_PASSES, PRUNE_EVERY_WAKES } from './journalRetention.ts';
import { openWorkerRuntime } from './workerRuntime.ts';

let dbs = 0;
const open = () =>
  openWorkerRuntime(
    {
      dbName: `retention-${++dbs}`,
      seed: [hourly(1_000_000)],
      clock: { mode: 'virtual', virtual: T0 },
      pace: 'page',
      now: T0,
    },
    () => {},
    new InProcessLocks(),
  );

describe("the journal's retention rule in the runtime (web/runtime/journalRetention.ts)", () => {
  it('rule: a setting the designer can read and set; a loop left running keeps that many passes in full', async () => {
    const runtime = await open();
    expect(await runtime.retention()).toBe(DEFAULT_KEEP_PASSES);
    await runtime.setRetention(4);
    expect(await runtime.retention()).toBe(4);
    const p = await runtime.supervisor.start('hourly', { context: { count: 0 } });
    await runtime.settled();
    await runtime.advanceTo(T0 + 40 * HOUR, 1);
    await vi.waitFor(async () => {
      const journal = await runtime.store.journal(p.id);
      expect(journal[0]).toMatchObject({ type: 'summarized' });
      const kept = journal.filter((e) => e.type === 'woke').length;
      expect(kept).toBeGreaterThanOrEqual(4);
      expect(kept).toBeLessThan(4 + PRUNE_EVERY_WAKES);
    });
    runtime.close();
  });

  it.each([0, -1, 2.5, Number.NaN, 1e9])(
    'refuses %s passes, with a message, keeping the rule',
    async (n) => {
      const runtime = await open();
      await expect(runtime.setRetention(n)).rejects.toThrow(
        'the passes kept must be a whole number from 1 to 100,000',
      );
      expect(await runtime.retention()).toBe(DEFAULT_KEEP_PASSES);
      runtime.close();
    },
  );
});
