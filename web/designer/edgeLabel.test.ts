import { describe, expect, it } from 'vitest';
import { edgeAriaLabel } from './edgeLabel.ts';

describe('edgeAriaLabel', () => {
  it('says where the edge goes, on what and when, and its problems', () => {
    const edge = { id: 'e8', from: 'sleep', to: 'read', when: 'prices.read < 7', trigger: 'daily' };
    expect(edgeAriaLabel(edge, ['bad'], 'timer')).toBe(
      'Edge from sleep to read, on timer daily, when prices.read < 7, 1 problem',
    );
    expect(edgeAriaLabel(edge, [])).toBe(
      'Edge from sleep to read, on trigger daily, when prices.read < 7',
    );
    expect(edgeAriaLabel(edge, [], 'timer', 'read')).toBe(
      'Edge from sleep to read, closes the loop at read, on timer daily, when prices.read < 7',
    );
    expect(edgeAriaLabel({ id: 'e1', from: 'start', to: 'read' }, [])).toBe(
      'Edge from start to read',
    );
  });
});
