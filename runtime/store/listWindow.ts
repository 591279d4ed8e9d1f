import type { JournalEntry, ProcessRecord } from '../supervisor/records.ts';
import type { JournalPage, ProcessCounts, WindowQuery } from '../supervisor/store.ts';

/**
 * The listing's window and counts (and a journal's newest page) over processes held in memory (the memory store, and the
 * resilient store while it holds writes the database has not taken): what the database's
 * indexes answer, computed from the records.
 */
export function windowOf(processes: Iterable<ProcessRecord>, query: WindowQuery): ProcessRecord[] {
  const { offset, limit, status, flow } = query;
  return [...processes]
    .filter(
      (p) =>
        (status === undefined || p.status === status) && (flow === undefined || p.flow === flow),
    )
    .sort((a, b) => a.created - b.created)
    .slice(offset, offset + limit);
}

export function countsOf(processes: Iterable<ProcessRecord>, flow?: string): ProcessCounts {
  const counts: ProcessCounts = { total: 0, byStatus: {} };
  for (const p of processes) {
    if (flow !== undefined && p.flow !== flow) continue;
    counts.total++;
    counts.byStatus[p.status] = (counts.byStatus[p.status] ?? 0) + 1;
  }
  return counts;
}

/** The newest `limit` entries of a whole journal, newest first (`Store.journalPage`). */
export function pageOf<E extends JournalEntry>(journal: E[], limit: number): JournalPage {
  return { entries: journal.slice(-limit).reverse(), more: journal.length > limit };
}
