import { afterEach, describe, expect, it, vi } from 'vitest';
import { stepRelay } from './stepRelay.ts';

const busy = (path: string) => ({ type: 'busy' as const, process: 'p', path, wake: null });

describe('the step relay thins the runtime worker’s step events for the page (stepRelay.ts)', () => {
  afterEach(() => void vi.useRealTimers());

  it('rule: a burst of 3,000 steps reaches the page as one event per gap, the newest, ending in the last one', () => {
    vi.useFakeTimers();
    const heard: unknown[] = [];
    const hear = stepRelay((e) => heard.push(e), 50);
    // 3,000 steps over 300 ms of the fake clock (one every 0.1 ms), then idle.
    for (let i = 0; i < 3000; i++) {
      hear(busy(`n${i}`));
      if (i % 10 === 9) vi.advanceTimersByTime(1);
    }
    hear({ type: 'idle' });
    vi.advanceTimersByTime(1000);
    // The first at once, then one per 50 ms: 300 ms give seven, the last of them idle.
    expect(heard.length).toBeLessThanOrEqual(8);
    expect(heard[0]).toEqual(busy('n0'));
    expect(heard.at(-1)).toEqual({ type: 'idle' });
  });

  it('rule: the step a worker blocks in is passed on within a gap, though nothing follows it', () => {
    vi.useFakeTimers();
    const heard: unknown[] = [];
    const hear = stepRelay((e) => heard.push(e), 50);
    hear(busy('quick'));
    hear({ type: 'idle' });
    // The runtime's thread blocks in this node: it posts nothing after it.
    hear(busy('stuck'));
    expect(heard).toEqual([busy('quick')]);
    vi.advanceTimersByTime(50);
    expect(heard).toEqual([busy('quick'), busy('stuck')]);
    vi.advanceTimersByTime(5000);
    expect(heard).toHaveLength(2);
  });

  it('rule: after a quiet gap the next event goes at once', () => {
    vi.useFakeTimers();
    const heard: unknown[] = [];
    const hear = stepRelay((e) => heard.push(e), 50);
    hear(busy('a'));
    vi.advanceTimersByTime(200);
    hear(busy('b'));
    expect(heard).toEqual([busy('a'), busy('b')]);
  });
});
