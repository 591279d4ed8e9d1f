import type { JournalEntry } from '../supervisor/records.ts';
import { JOURNAL_RECORD, stamp } from './restore.ts';
import { toStorable } from './storable.ts';

/** A journal entry as read back from IndexedDB: with its order in the journal. */
export type SeqEntry = JournalEntry & { seq: number };

/**
 * What the `journal` store holds from schema 5 on: the entries that one write appended for one
 * process, in order, each with its own `seq`. The record's key is its last entry's `seq`, so the
 * store's highest key is the journal's highest `seq`, and a process's records along
 * `by-process` come in the order of their entries. One record per commit rather than one per
 * entry: a wake's five or so entries cost IndexedDB one clone and one index entry, not five.
 */
export interface JournalRecord {
  seq: number;
  process: string;
  entries: SeqEntry[];
}

/**
 * The records that append `entries` to the journal, their `seq`s counted on from `lastSeq`
 * (the store's highest key, read in the same transaction): one record per run of entries of one
 * process, ready to store. Returns the records and the new highest `seq`.
 */
export function journalRecords(
  entries: readonly JournalEntry[],
  lastSeq: number,
): { records: JournalRecord[]; lastSeq: number } {
  const records: JournalRecord[] = [];
  let seq = lastSeq;
  let current: JournalRecord | undefined;
  for (const entry of entries) {
    const stored = { ...(toStorable(entry) as JournalEntry), seq: ++seq } as SeqEntry;
    if (!current || current.process !== entry.process) {
      current = { seq, process: entry.process, entries: [] };
      records.push(current);
    }
    current.entries.push(stored);
    current.seq = seq;
  }
  return { records: records.map((r) => stamp(JOURNAL_RECORD, r)), lastSeq: seq };
}

/** A record that keeps some of its entries, under the same key; the others were summed up. */
export const keptPart = (record: JournalRecord, entries: SeqEntry[]): JournalRecord =>
  stamp(JOURNAL_RECORD, { seq: record.seq, process: record.process, entries });
