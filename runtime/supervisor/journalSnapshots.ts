import type { ScopeSnapshot, Snapshot } from '../engine/snapshot.ts';
import type { ProcessRecord } from './records.ts';

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
