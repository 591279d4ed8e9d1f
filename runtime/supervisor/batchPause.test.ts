import { describe, expect, it } from 'vitest';
import { HOUR, T0, hourly } from '../store/fixtures/storeScenarios.ts';
import { MemoryStore } from '../store/memoryStore.ts';
import { VirtualClock } from './clock.ts';
import { Supervisor } from './supervisor.ts';
import type { WakeOptions } from './options.ts';

const PASSES = 200;

/**
 * An hourly loop advanced PASSES hours with the retention rule, so that every pass is one wake
 * of one batch held in memory (600 acts, under the batch's 10,000). Once the advance's first
 * wake is entered, a Stop is queued as a message: it is heard only when the batch lets the event
 * loop turn. Returns how many passes ran and the status the process was left in.
 */
async function advanceStoppedByMessage(options: WakeOptions) {
  const store = new MemoryStore();
  await store.putFlow(hourly(10_000));
  const message = new MessageChannel();
  let advancing = false;
  let asked = false;
  const supervisor: Supervisor = new Supervisor(store, new VirtualClock(T0), {
    ...options,
    watch: {
      entering: () => {
        if (advancing && !asked) {
          asked = true;
          message.port2.postMessage(null);
        }
      },
      left: () => {},
    },
  });
  const p = await supervisor.start('hourly', { id: 'p', context: { count: 0 } });
  const stopped = new Promise<void>((resolve) => {
    message.port1.onmessage = () =>
      void supervisor.stop(p.id).then(
        () => resolve(),
        () => resolve(),
      );
  });
  advancing = true;
  await supervisor.advanceTo(T0 + PASSES * HOUR, { keepPasses: 5 });
  await stopped;
  message.port1.close();
  const record = (await store.getProcess(p.id))!;
  const context = await store.getContext(record.contextId);
  return { status: record.status, count: (context?.value as { count: number }).count };
}

describe('a batch of wakes takes turns of the event loop (wakeBatcher.ts, betweenWakes)', () => {
  it('rule: given no betweenSteps, a batch still lets the event loop turn once its slice has gone by: a Stop queued during an advance takes effect inside the batch', async () => {
    // A slice of 0 ms: a turn after every wake, so the test does not depend on the machine's speed.
    const { status, count } = await advanceStoppedByMessage({ batchSliceMs: 0 });
    expect(status).toBe('stopped');
    // The first pass ran at the start; the stop came after a wake or two of the advance's 200.
    expect(count).toBeGreaterThan(1);
    expect(count).toBeLessThan(PASSES);
  });

  it('with a betweenSteps that never yields, the same Stop is heard only after the whole batch', async () => {
    const { status, count } = await advanceStoppedByMessage({ betweenSteps: () => undefined });
    expect(status).toBe('stopped');
    expect(count).toBe(PASSES + 1);
  });
});
