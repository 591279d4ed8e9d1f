import { describe, expect, it } from 'vitest';
import { PALETTE_ENTRIES } from '../designer/paletteEntries.ts';
import { KIND_DRAG_TYPE, kindFromDrag } from './kindDrag.ts';

const dropOf = (data: Record<string, string>) => ({ getData: (type: string) => data[type] ?? '' });

describe('kindFromDrag', () => {
  it('reads every kind the palette drags, and its Call', () => {
    expect(PALETTE_ENTRIES).toContain('call');
    for (const kind of PALETTE_ENTRIES) {
      expect(kindFromDrag(dropOf({ [KIND_DRAG_TYPE]: kind }))).toBe(kind);
    }
  });

  it('refuses drops that carry no kind or an unknown one', () => {
    expect(kindFromDrag(dropOf({}))).toBeUndefined();
    expect(kindFromDrag(dropOf({ [KIND_DRAG_TYPE]: 'wrok' }))).toBeUndefined();
    expect(kindFromDrag(dropOf({ 'text/plain': 'work' }))).toBeUndefined();
  });
});
