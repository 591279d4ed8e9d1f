import { describe, expect, it } from 'vitest';
import type { Flow } from '../../shared/schema.ts';
import { MemoryStore } from '../store/memoryStore.ts';
import { VirtualClock } from './clock.ts';
import { Supervisor } from './supervisor.ts';
import { timeSlices } from './timeSlices.ts';

const LENGTH = 50;
/** A run of 50 work steps with no wait between them: one run, held in memory to its end. */
const chain: Flow = {
  format: 'flow/1',
  id: 'chain',
  nodes: [
    { id: 'start', kind: 'start' },
    ...Array.from({ length: LENGTH }, (_, i) => ({
      id: `w${i}`,
      kind: 'work' as const,
      set: { n: 'n + 1' },
    })),
  ],
  edges: Array.from({ length: LENGTH }, (_, i) => ({
    id: `e${i}`,
    from: i === 0 ? 'start' : `w${i - 1}`,
    to: `w${i}`,
  })),
};

/** Runs the chain; once its first work step is entered, a Stop is queued as a message. */
async function runStoppedByMessage(betweenSteps?: () => Promise<void> | void) {
  const store = new MemoryStore();
  await store.putFlow(chain);
  const stop = new MessageChannel();
  let id = '';
  let asked = false;
  const supervisor: Supervisor = new Supervisor(store, new VirtualClock(0), {
    ...(betweenSteps ? { betweenSteps } : {}),
    watch: {
      entering: (process, path) => {
        if (path === 'w0' && !asked) {
          asked = true;
          id = process;
          stop.port2.postMessage(null);
        }
      },
      left: () => {},
    },
  });
  const stopped = new Promise<void>((resolve) => {
    stop.port1.onmessage = () =>
      void supervisor.stop(id).then(
        () => resolve(),
        () => resolve(),
      );
  });
  await supervisor.start('chain', { context: { n: 0 } });
  await stopped;
  stop.port1.close();
  const record = await store.getProcess(id);
  return { record, context: record && (await store.getContext(record.contextId)) };
}

describe('a long run yields between its steps (runtime/supervisor/timeSlices.ts)', () => {
  it('rule: a Stop that arrives while a run is held in memory takes effect after the step in progress', async () => {
    const { record, context } = await runStoppedByMessage(timeSlices(0));
    expect(record?.status, record?.error ?? '').toBe('stopped');
    // Stopped after a step or two of fifty, and what ran before it is kept.
    const ran = (context?.value as { n: number }).n;
    expect(ran).toBeGreaterThan(0);
    expect(ran).toBeLessThan(LENGTH);
  });

  it('without the pause, the same Stop is heard only once the run has reached its end', async () => {
    const { record, context } = await runStoppedByMessage();
    expect(record?.status).toBe('done');
    expect((context?.value as { n: number }).n).toBe(LENGTH);
  });

  it('takes a turn of the event loop only once a slice of time has gone by', async () => {
    let now = 0;
    const pause = timeSlices(10, () => now);
    expect(pause()).toBeUndefined();
    now = 9;
    expect(pause()).toBeUndefined();
    now = 10;
    await expect(pause()).resolves.toBeUndefined();
    now = 15;
    expect(pause()).toBeUndefined();
  });
});
