import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startWatchdog } from './watchdog.ts';

describe('the runaway watchdog (on the virtual clock of fake timers)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  /** A watchdog whose worker answers pings while `alive` is true. */
  const start = () => {
    const ran: string[] = [];
    const worker = { alive: false, pings: 0 };
    const dog = startWatchdog<string>({
      limitMs: 1000,
      pingMs: 250,
      tickMs: 100,
      now: () => Date.now(),
      ping: () => {
        worker.pings++;
        return worker.alive ? Promise.resolve() : new Promise<never>(() => {});
      },
      onRunaway: (step) => ran.push(step),
    });
    return { dog, ran, worker };
  };

  it('ends a worker that stayed in one node for the limit and does not answer, once', async () => {
    const { dog, ran, worker } = start();
    dog.busy('p/slow');
    await vi.advanceTimersByTimeAsync(1000);
    expect(worker.pings).toBe(1);
    expect(ran).toEqual([]);
    await vi.advanceTimersByTimeAsync(300);
    expect(ran).toEqual(['p/slow']);
    await vi.advanceTimersByTimeAsync(5000);
    expect(ran).toEqual(['p/slow']);
    dog.stop();
  });

  it('leaves a slow step whose worker answers, and asks again after another limit', async () => {
    const { dog, ran, worker } = start();
    worker.alive = true;
    dog.busy('p/waiting-on-disk');
    await vi.advanceTimersByTimeAsync(1400);
    expect(ran).toEqual([]);
    expect(worker.pings).toBe(1);
    await vi.advanceTimersByTimeAsync(1000);
    expect(worker.pings).toBe(2);
    worker.alive = false;
    await vi.advanceTimersByTimeAsync(2000);
    expect(ran).toEqual(['p/waiting-on-disk']);
    dog.stop();
  });

  it('leaves a step that ends while its ping is unanswered', async () => {
    const { dog, ran } = start();
    dog.busy('p/late');
    await vi.advanceTimersByTimeAsync(1100);
    dog.idle();
    await vi.advanceTimersByTimeAsync(3000);
    expect(ran).toEqual([]);
    dog.stop();
  });

  it('counts each node afresh: many short nodes in a long run are no runaway', async () => {
    const { dog, ran, worker } = start();
    for (let i = 0; i < 100; i++) {
      dog.busy(`p/n${i}`);
      await vi.advanceTimersByTimeAsync(100);
    }
    dog.idle();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(ran).toEqual([]);
    expect(worker.pings).toBe(0);
    dog.stop();
  });
});
