import { describe, expect, it } from 'vitest';
import { toStorable } from './storable.ts';

describe('toStorable', () => {
  it('keeps plain JSON as it is, without a copy', () => {
    const value = { a: [1, 'two', true, null, { b: -3.5 }], c: {} };
    expect(toStorable(value)).toBe(value);
  });

  it('rebuilds what JSON cannot hold, wherever it is', () => {
    const cyclic: Record<string, unknown> = { n: 1 };
    cyclic.self = cyclic;
    expect(toStorable({ a: [1, { x: NaN }] })).toEqual({ a: [1, { x: 'NaN' }] });
    expect(toStorable({ a: [undefined, 2] })).toEqual({ a: [null, 2] });
    expect(toStorable({ a: 1, u: undefined })).toEqual({ a: 1 });
    expect(toStorable({ f: () => 1 })).toEqual({ f: '() => 1' });
    expect(toStorable({ d: new Date(0) })).toEqual({ d: '1970-01-01T00:00:00.000Z' });
    expect(toStorable({ m: new Map([[1, 2]]) })).toEqual({ m: {} });
    expect(toStorable(cyclic)).toEqual({ n: 1, self: '[circular]' });
    expect(toStorable(Infinity)).toBe('Infinity');
  });
});
