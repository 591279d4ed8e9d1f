import { describe, expect, it } from 'vitest';
import { changeBatches, REFRESH_GAP_MS, type ChangeBatch } from './changeBatches.ts';

/** Frames and timers the test runs by hand. */
function manualTiming() {
  const frames: (() => void)[] = [];
  const timers: { ms: number; run: () => void }[] = [];
  return {
    timing: {
      frame: (run: () => void) => frames.push(run),
      after: (ms: number, run: () => void) => timers.push({ ms, run }),
    },
    frames,
    timers,
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('change events coalesced into one re-read per batch (changeBatches.ts)', () => {
  it('rule: 10,000 processes told in 1,000 events before the frame make one re-read naming each once', async () => {
    const batches: ChangeBatch[] = [];
    const { timing, frames } = manualTiming();
    const tell = changeBatches(
      async (b) => void batches.push(b),
      () => undefined,
      timing,
    );
    for (let e = 0; e < 1000; e++)
      tell({ processes: Array.from({ length: 10 }, (_, i) => `p${e * 10 + i}`), flows: false });
    // Told again: still once.
    tell({ processes: ['p0'], flows: false });
    expect(frames).toHaveLength(1);
    frames.shift()!();
    await settle();
    expect(batches).toHaveLength(1);
    expect(batches[0]!.processes.size).toBe(10_000);
    expect(batches[0]!.flows).toBe(false);
    expect(batches[0]!.inspected).toBe(false);
  });

  it('rule: what is told during a re-read waits for it and the gap, then goes in one more re-read of only those', async () => {
    const batches: ChangeBatch[] = [];
    const { timing, frames, timers } = manualTiming();
    let finish = () => {};
    const tell = changeBatches(
      (b) => {
        batches.push(b);
        return new Promise<void>((resolve) => (finish = resolve));
      },
      () => 'p2',
      timing,
    );
    tell({ processes: ['p1'], flows: false });
    frames.shift()!();
    tell({ processes: ['p2'], flows: false });
    tell({ processes: ['p3'], flows: true });
    // Nothing more is asked while the first re-read is in flight.
    expect(frames).toHaveLength(0);
    finish();
    await settle();
    expect(timers.map((t) => t.ms)).toEqual([REFRESH_GAP_MS]);
    timers.shift()!.run();
    expect(frames).toHaveLength(1);
    frames.shift()!();
    expect(batches.map((b) => [[...b.processes], b.flows, b.inspected])).toEqual([
      [['p1'], false, false],
      [['p2', 'p3'], true, true],
    ]);
    finish();
    await settle();
    timers.shift()!.run();
    // Nothing told since: no third re-read.
    expect(frames).toHaveLength(0);
  });

  it('a re-read that fails does not stop the next batch', async () => {
    const batches: ChangeBatch[] = [];
    const { timing, frames, timers } = manualTiming();
    const errors: unknown[] = [];
    const error = console.error;
    console.error = (e: unknown) => errors.push(e);
    try {
      const tell = changeBatches(
        async (b) => {
          batches.push(b);
          if (batches.length === 1) throw new Error('the worker was ended');
        },
        () => undefined,
        timing,
      );
      tell({ processes: ['a'], flows: false });
      frames.shift()!();
      await settle();
      timers.shift()!.run();
      tell({ processes: ['b'], flows: false });
      frames.shift()!();
      await settle();
      expect(batches.map((b) => [...b.processes])).toEqual([['a'], ['b']]);
      expect(errors).toEqual([new Error('the worker was ended')]);
    } finally {
      console.error = error;
    }
  });
});
