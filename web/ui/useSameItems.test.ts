import { describe, expect, it } from 'vitest';
import { sameItems } from './useSameItems.ts';

describe('sameItems', () => {
  it('rule: lists of the same items in the same order are the same, whatever their arrays', () => {
    const a = { id: 'a' };
    const b = { id: 'b' };
    expect(sameItems([a, b], [a, b])).toBe(true);
    expect(sameItems([], [])).toBe(true);
  });

  it('rule: an item changed (a new object), added, removed or moved makes them differ', () => {
    const a = { id: 'a' };
    const b = { id: 'b' };
    expect(sameItems([a, b], [a, { id: 'b' }])).toBe(false);
    expect(sameItems([a], [a, b])).toBe(false);
    expect(sameItems([a, b], [a])).toBe(false);
    expect(sameItems([a, b], [b, a])).toBe(false);
  });
});
