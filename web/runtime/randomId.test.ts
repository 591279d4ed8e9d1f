import { describe, expect, it } from 'vitest';
import { randomId } from './randomId.ts';

describe('ids of processes and contexts (docs/decisions.md#ids-of-96-random-bits)', () => {
  it('rule: an id is its kind and 96 random bits, as 24 hex digits', () => {
    expect(randomId('process')).toMatch(/^p-[0-9a-f]{24}$/);
    expect(randomId('context')).toMatch(/^ctx-[0-9a-f]{24}$/);
  });

  it('rule: 10,000 ids from two sources at once are all different, and use every digit', () => {
    const ids = Array.from({ length: 10_000 }, (_, i) => randomId(i % 2 ? 'process' : 'context'));
    expect(new Set(ids).size).toBe(ids.length);
    // Random in every place: each of the 24 digits takes more than one value across the ids.
    for (let place = 0; place < 24; place++) {
      const seen = new Set(ids.map((id) => id.split('-')[1]![place]));
      expect(seen.size).toBeGreaterThan(1);
    }
  });
});
