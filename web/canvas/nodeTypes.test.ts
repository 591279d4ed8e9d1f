import { describe, expect, it } from 'vitest';
import { NODE_KINDS } from '../../shared/schema.ts';
import { KIND_NAMES } from './nodes/kinds.ts';
import { edgeTypes, nodeTypes } from './nodeTypes.ts';

describe('nodeTypes', () => {
  it('has one memo component per kind, and a name for each kind', () => {
    expect(Object.keys(nodeTypes).sort()).toEqual([...NODE_KINDS].sort());
    expect(Object.keys(KIND_NAMES).sort()).toEqual([...NODE_KINDS].sort());
    for (const component of Object.values(nodeTypes)) {
      expect(component.$$typeof).toBe(Symbol.for('react.memo'));
    }
    expect(Object.keys(edgeTypes)).toEqual(['flow']);
  });
});
