import type { ContextWrite } from '../../shared/contextWrite.ts';
import type { Flow } from '../../shared/schema.ts';
import type { EngineJournalEntry } from '../engine/journal.ts';
import type { Snapshot } from '../engine/snapshot.ts';
import { waitsWithTriggers } from '../engine/step.ts';
import { earliestTimer } from '../engine/timers.ts';
import type {
  ContextChange,
  JournalEntry,
  ProcessRecord,
  SupervisorJournalEntry,
} from './records.ts';
import { CALL_WAITS } from './records.ts';

/** A process's due time: its earliest timer's, on the flows given. */
export function dueOf(snapshot: Snapshot, flows: Map<string, Flow>): number | null {
  return earliestTimer(snapshot, (f) => flows.get(f))?.due ?? null;
}

/** The event names a waiting process's waits listen for (records.ts, `waitsFor`). */
export function waitsForOf(
  status: ProcessRecord['status'],
  snapshot: Snapshot,
  flows: Map<string, Flow>,
): string[] | undefined {
  if (status !== 'waiting') return undefined;
  const names = new Set<string>();
  for (const w of waitsWithTriggers(snapshot, (f) => flows.get(f))) {
    for (const t of w.triggers) if (t.event !== undefined) names.add(t.event);
    if (w.call) names.add(CALL_WAITS);
  }
  return [...names];
}

export function contextChange(
  contextId: string,
  version: number,
  process: string | null,
  node: string | null,
  writes: ContextWrite[],
  at: number,
): ContextChange {
  return { contextId, version, process, node, writes, at };
}

/**
 * A journal entry with its time. The last entry of each commit carries the snapshot the commit
 * leaves the process at, so the inspector can show any moment without an extra store request.
 */
export function stamp(
  process: string,
  entry: EngineJournalEntry | SupervisorJournalEntry,
  snapshot: Snapshot | undefined,
  at: number,
): JournalEntry {
  // Set after the spread, not spread in: one object made per entry, not three.
  const stamped: JournalEntry = { ...entry, process, at };
  if (snapshot) stamped.snapshot = snapshot;
  return stamped;
}
