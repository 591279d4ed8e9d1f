import { describe, expect, it } from 'vitest';
import { OriginLimiter } from './originLimiter.ts';

describe('per-origin limiter', () => {
  it('holds requests over the bound, lets them in first come first served, and spares other origins', async () => {
    const limiter = new OriginLimiter(2);
    const order: number[] = [];
    const releases = await Promise.all([limiter.acquire('a'), limiter.acquire('a')]);
    const queued = [3, 4, 5].map((n) =>
      limiter.acquire('a').then((release) => (order.push(n), release)),
    );
    expect(limiter.load('a')).toEqual({ active: 2, waiting: 3 });
    const other = await limiter.acquire('b');
    expect(limiter.load('b')).toEqual({ active: 1, waiting: 0 });
    releases[0]!();
    releases[0]!(); // a second release of one turn frees nothing more
    const third = await queued[0]!;
    expect(order).toEqual([3]);
    releases[1]!();
    third();
    await Promise.all(queued.slice(1));
    expect(order).toEqual([3, 4, 5]);
    expect(limiter.load('a')).toEqual({ active: 2, waiting: 0 });
    other();
    expect(limiter.load('b')).toEqual({ active: 0, waiting: 0 });
  });

  it('drops a queued request whose signal aborts, and it never takes a turn', async () => {
    const limiter = new OriginLimiter(1);
    const first = await limiter.acquire('a');
    const abort = new AbortController();
    const gone = limiter.acquire('a', abort.signal);
    const next = limiter.acquire('a');
    abort.abort(new Error('wait cancelled'));
    await expect(gone).rejects.toThrow('wait cancelled');
    expect(limiter.load('a')).toEqual({ active: 1, waiting: 1 });
    first();
    (await next)();
    expect(limiter.load('a')).toEqual({ active: 0, waiting: 0 });
  });

  it('refuses a bound that is not a whole number of at least 1', () => {
    expect(() => new OriginLimiter(0)).toThrow('at least 1, not 0');
  });
});
