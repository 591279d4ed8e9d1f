import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startWatchdog } from './watchdog.ts';

describe('the runaway watchdog (on the virtual clock of fake timers)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const start = () => {
    const ran: string[] = [];
    const dog = startWatchdog<string>({
      limitMs: 1500,
      tickMs: 100,
      now: () => Date.now(),
      onRunaway: (step) => ran.push(step),
    });
    return { dog, ran };
  };

  it('names the step that stayed in one node for the limit, once', () => {
    const { dog, ran } = start();
    dog.busy('p/slow');
    vi.advanceTimersByTime(1400);
    expect(ran).toEqual([]);
    vi.advanceTimersByTime(200);
    expect(ran).toEqual(['p/slow']);
    vi.advanceTimersByTime(5000);
    expect(ran).toEqual(['p/slow']);
    dog.stop();
  });

  it('counts each node afresh: many short nodes in a long run are no runaway', () => {
    const { dog, ran } = start();
    for (let i = 0; i < 100; i++) {
      dog.busy(`p/n${i}`);
      vi.advanceTimersByTime(100);
    }
    dog.idle();
    vi.advanceTimersByTime(10_000);
    expect(ran).toEqual([]);
    dog.stop();
  });

  it('does not blame the worker for time the page itself was blocked', () => {
    const { dog, ran } = start();
    dog.busy('p/quick');
    // The page freezes for two seconds: no tick runs, and the worker's "idle" waits in the queue.
    vi.setSystemTime(Date.now() + 2000);
    vi.advanceTimersByTime(100);
    expect(ran).toEqual([]);
    dog.idle();
    vi.advanceTimersByTime(3000);
    expect(ran).toEqual([]);
    dog.stop();
  });
});
