import { describe, expect, it } from 'vitest';
import {
  addAssignment,
  moveAssignment,
  pathAt,
  removeAssignment,
  renamePath,
  renameProblem,
  setExpression,
} from './setEdits.ts';

const set = { 'prices.read': 'prices.read + 1', 'prices.stale': 'false', total: '$sum(x)' };
const order = (s: object | undefined) => (s === undefined ? undefined : Object.keys(s));

describe('set edits (expressions run in the order written)', () => {
  it('renames a path where it stands', () => {
    const next = renamePath(set, 1, 'prices.fresh');
    expect(order(next)).toEqual(['prices.read', 'prices.fresh', 'total']);
    expect(next?.['prices.fresh']).toBe('false');
  });

  it('refuses a path another row already sets, and says which', () => {
    expect(renamePath(set, 2, 'prices.read')).toBeUndefined();
    expect(renameProblem(set, 2, 'prices.read')).toBe('assignment 1 already sets "prices.read"');
    expect(renameProblem(set, 0, 'prices.read')).toBeUndefined();
  });

  it('changes an expression without moving its row', () => {
    const next = setExpression(set, 0, 'prices.read + 2');
    expect(order(next)).toEqual(order(set));
    expect(next['prices.read']).toBe('prices.read + 2');
  });

  it('adds a row at the end with a path no row has', () => {
    const once = addAssignment(set);
    const twice = addAssignment(once);
    expect(order(twice)).toEqual([...order(set)!, 'value1', 'value2']);
    expect(twice['value1']).toBe('');
  });

  it('moves and removes rows, keeping the others in order', () => {
    expect(order(moveAssignment(set, 2, 1))).toEqual(['prices.read', 'total', 'prices.stale']);
    expect(order(moveAssignment(set, 0, 1))).toEqual(['prices.stale', 'prices.read', 'total']);
    expect(order(removeAssignment(set, 1))).toEqual(['prices.read', 'total']);
    expect(pathAt(set, 2)).toBe('total');
  });

  it('keeps a reserved key as data, never as a prototype', () => {
    const next = renamePath({ a: '1' }, 0, '__proto__');
    expect(Object.getPrototypeOf(next)).toBe(Object.prototype);
    expect(Object.keys(next!)).toEqual(['__proto__']);
  });
});
