import type { Snapshot } from '../../runtime/engine/snapshot.ts';
import type { JournalEntry } from '../../runtime/supervisor/records.ts';

/** The snapshot a journal entry shows, and the entry that keeps it. */
export interface SnapshotAsOf {
  snapshot: Snapshot;
  /** The index of the entry that keeps the snapshot: the selected one, or the last of its write. */
  entry: number;
}

/**
 * The snapshot at the moment of journal entry `index`. Only the last entry of each commit keeps
 * the snapshot that commit left (a wake runs to its next stop and commits once), so an entry
 * earlier in the same commit shows the snapshot of the first entry at or after it that keeps one.
 * Undefined when none does (a journal written before snapshots were kept).
 */
export function snapshotAsOf(
  journal: readonly JournalEntry[],
  index: number,
): SnapshotAsOf | undefined {
  for (let i = Math.max(0, index); i < journal.length; i++) {
    const snapshot = journal[i]!.snapshot;
    if (snapshot) return { snapshot, entry: i };
  }
  return undefined;
}
