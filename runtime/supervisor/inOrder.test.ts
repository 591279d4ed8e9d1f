import { describe, expect, it } from 'vitest';
import { inOrder } from './inOrder.ts';

const tick = () => new Promise<void>((r) => setTimeout(r, 0));

describe('inOrder', () => {
  it('runs at most `limit` at once, starting in order, and keeps the order within a key', async () => {
    const items = ['a1', 'b1', 'a2', 'c1', 'b2', 'a3', 'd1', 'e1'];
    const log: string[] = [];
    let running = 0;
    let most = 0;
    await inOrder(
      items,
      3,
      (x) => x[0]!,
      async (x) => {
        running++;
        most = Math.max(most, running);
        log.push(`start ${x}`);
        // Later items finish first, so only the rule keeps same-key items in order.
        for (let i = 0; i < 10 - items.indexOf(x); i++) await tick();
        log.push(`end ${x}`);
        running--;
      },
    );
    expect(most).toBe(3);
    for (const key of 'abcde') {
      const mine = log.filter((l) => l.endsWith(key) || l.includes(` ${key}`));
      const starts = mine.filter((l) => l.startsWith('start')).map((l) => l.slice(6));
      expect(starts).toEqual(items.filter((x) => x[0] === key));
      // Each starts only after the one before it of its key ended.
      for (let i = 1; i < starts.length; i++)
        expect(log.indexOf(`start ${starts[i]}`)).toBeGreaterThan(
          log.indexOf(`end ${starts[i - 1]}`),
        );
    }
  });

  it('stops starting on the first error and throws it once the started ones are over', async () => {
    const started: number[] = [];
    const ended: number[] = [];
    const run = inOrder([1, 2, 3, 4, 5, 6], 2, String, async (n) => {
      started.push(n);
      await tick();
      if (n === 2) throw new Error('two');
      await tick();
      ended.push(n);
    });
    await expect(run).rejects.toThrow('two');
    expect(started).not.toContain(6);
    // What started before the error finished.
    for (const n of started) if (n !== 2) expect(ended).toContain(n);
  });
});
