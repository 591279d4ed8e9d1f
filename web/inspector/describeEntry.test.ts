import { describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../runtime/supervisor/records.ts';
import { describeEntry } from './describeEntry.ts';

const entry = (e: object) => ({ process: 'p', seq: 1, at: 0, ...e }) as unknown as JournalEntry;

describe('journal entries in words', () => {
  it('says what a node wrote and what it removed, never "wrote removed"', () => {
    const w = (writes: object[]) =>
      describeEntry(entry({ type: 'context-written', node: 'n', writes }));
    expect(w([{ path: 'a', value: 1 }])).toBe('n wrote a = 1');
    expect(w([{ path: 'count' }])).toBe('n removed count');
    expect(w([{ path: 'a', value: 1 }, { path: 'count' }])).toBe('n wrote a = 1 and removed count');
  });

  it('counts a flow’s changes in the singular and the plural', () => {
    const c = (n: number) =>
      describeEntry(
        entry({ type: 'flow-changed', changes: Array.from({ length: n }, () => ({})) }),
      );
    expect(c(1)).toBe('its flow changed (1 change)');
    expect(c(2)).toBe('its flow changed (2 changes)');
  });
});
