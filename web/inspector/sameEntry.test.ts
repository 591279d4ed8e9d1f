import { describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../runtime/supervisor/records.ts';
import { sameEntry } from './inspectorState.ts';

const entry = (seq: number) =>
  ({ type: 'ran', node: `n${seq}`, gen: [], process: 'p', at: seq, seq }) as JournalEntry;
const page = (from: number, to: number) => {
  const out: JournalEntry[] = [];
  for (let s = from; s <= to; s++) out.push(entry(s));
  return out;
};

describe('the journal entry chosen stays the same entry as the journal is read again', () => {
  it('follows its entry when an older page is added before it', () => {
    // Entry seq 120 is index 20 of 100..199; with 0..199 read it is index 120.
    expect(sameEntry(page(100, 199), page(0, 199), 20)).toBe(120);
  });

  it('follows its entry when new entries push the newest page on', () => {
    expect(sameEntry(page(100, 199), page(105, 204), 20)).toBe(15);
  });

  it('lets the choice go when its entry is no longer read (summed up), rather than show another', () => {
    expect(sameEntry(page(100, 199), page(150, 249), 20)).toBeUndefined();
  });

  it('keeps no choice as no choice, and an index where entries carry no key', () => {
    expect(sameEntry(page(0, 9), page(0, 9), undefined)).toBeUndefined();
    const unkeyed = page(0, 9).map(({ ...e }) => {
      delete (e as { seq?: number }).seq;
      return e;
    });
    expect(sameEntry(unkeyed, unkeyed, 3)).toBe(3);
    expect(sameEntry(unkeyed, unkeyed.slice(0, 2), 3)).toBeUndefined();
  });
});
