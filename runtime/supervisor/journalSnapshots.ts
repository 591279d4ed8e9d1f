import type { ScopeSnapshot, Snapshot } from '../engine/snapshot.ts';
import type { JournalEntry, ProcessRecord } from './records.ts';

/**
 * The most live items (ready nodes, waits, joins waiting and running sub-flows) a position may
 * hold for a step inside a run to keep its snapshot in the journal.
 */
export const SMALL_POSITION = 16;

/**
 * Whether a step's journal entry keeps the snapshot it left the process at. Always at a stop
 * (the process waits, ends, fails or is stopped), where the inspector shows "as of" most; inside
 * a run only while the position is small, so that a flow whose branches multiply does not store
 * its whole, growing position at every step (an entry without one shows the stop after it).
 */
export function keepsSnapshot(next: ProcessRecord): boolean {
  return next.status !== 'running' || isSmallPosition(next.snapshot);
}

/** Whether a position holds at most SMALL_POSITION live items. */
export function isSmallPosition(snapshot: Snapshot): boolean {
  return liveItems(snapshot.scope, SMALL_POSITION + 1) <= SMALL_POSITION;
}

/** The live items of a scope and its children, counted up to `cap` (then it stops looking). */
function liveItems(scope: ScopeSnapshot, cap: number): number {
  let count = scope.ready.length + scope.waits.length + scope.joins.length;
  for (const child of scope.children) {
    if (count >= cap) break;
    count += 1 + liveItems(child.scope, cap - count);
  }
  return count;
}

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
