import { describe, expect, it } from 'vitest';
import { rovingIndex } from './rovingIndex.ts';

describe('rovingIndex', () => {
  it('steps with the arrows of either direction and wraps around', () => {
    expect(rovingIndex('ArrowRight', 0, 7)).toBe(1);
    expect(rovingIndex('ArrowDown', 6, 7)).toBe(0);
    expect(rovingIndex('ArrowLeft', 0, 7)).toBe(6);
    expect(rovingIndex('ArrowUp', 3, 7)).toBe(2);
  });

  it('jumps to the ends with Home and End', () => {
    expect(rovingIndex('Home', 4, 7)).toBe(0);
    expect(rovingIndex('End', 1, 7)).toBe(6);
  });

  it('ignores other keys and empty widgets', () => {
    expect(rovingIndex('Enter', 2, 7)).toBeUndefined();
    expect(rovingIndex('a', 2, 7)).toBeUndefined();
    expect(rovingIndex('ArrowRight', 0, 0)).toBeUndefined();
  });
});
