import { describe, expect, it } from 'vitest';
import { indexAfterRemoval, moveItem, removeAt, replaceAt } from './listEdits.ts';

describe('list edits', () => {
  it('moves an item up and down, keeping the others in order', () => {
    expect(moveItem(['a', 'b', 'c', 'd'], 2, 1)).toEqual(['a', 'c', 'b', 'd']);
    expect(moveItem(['a', 'b', 'c', 'd'], 0, 3)).toEqual(['b', 'c', 'd', 'a']);
  });

  it('leaves the list as it was for a move past either end', () => {
    expect(moveItem(['a', 'b'], 0, -1)).toEqual(['a', 'b']);
    expect(moveItem(['a', 'b'], 1, 2)).toEqual(['a', 'b']);
  });

  it('never changes the list it is given', () => {
    const list = Object.freeze(['a', 'b', 'c']);
    moveItem(list, 0, 2);
    removeAt(list, 1);
    replaceAt(list, 1, 'x');
    expect(list).toEqual(['a', 'b', 'c']);
  });

  it('removes and replaces by position', () => {
    expect(removeAt(['a', 'b', 'c'], 1)).toEqual(['a', 'c']);
    expect(replaceAt(['a', 'b', 'c'], 2, 'x')).toEqual(['a', 'b', 'x']);
  });

  it('sends focus to the row that takes the removed one’s place, else the one before', () => {
    expect(indexAfterRemoval(3, 0)).toBe(0);
    expect(indexAfterRemoval(3, 2)).toBe(1);
    expect(indexAfterRemoval(1, 0)).toBe(-1);
  });
});
