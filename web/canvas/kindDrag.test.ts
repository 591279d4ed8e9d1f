import { describe, expect, it } from 'vitest';
import { NODE_KINDS } from '../../shared/schema.ts';
import { KIND_DRAG_TYPE, kindFromDrag } from './kindDrag.ts';

const dropOf = (data: Record<string, string>) => ({ getData: (type: string) => data[type] ?? '' });

describe('kindFromDrag', () => {
  it('reads every kind the palette drags', () => {
    for (const kind of NODE_KINDS) {
      expect(kindFromDrag(dropOf({ [KIND_DRAG_TYPE]: kind }))).toBe(kind);
    }
  });

  it('refuses drops that carry no kind or an unknown one', () => {
    expect(kindFromDrag(dropOf({}))).toBeUndefined();
    expect(kindFromDrag(dropOf({ [KIND_DRAG_TYPE]: 'wrok' }))).toBeUndefined();
    expect(kindFromDrag(dropOf({ 'text/plain': 'work' }))).toBeUndefined();
  });
});
