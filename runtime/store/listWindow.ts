import { PROCESS_STATUSES, type JournalEntry, type ProcessRecord } from '../supervisor/records.ts';
import type {
  JournalPage,
  ProcessCounts,
  ProcessOrder,
  ProcessSearch,
  WindowQuery,
} from '../supervisor/store.ts';

/**
 * What the listing sorts and searches processes by: a process record has them all, and an
 * IndexedDB store reads them from its indexes' keys (`due` and `wakes` only when sorting by them).
 */
export type ListedFields = Pick<ProcessRecord, 'id' | 'flow' | 'status' | 'created'> & {
  due?: number | null;
  wakes?: number;
};

/**
 * The listing's window and counts (and a journal's newest page) over processes held in memory
 * (the memory store, the resilient store while it holds writes the database has not taken, and
 * the IndexedDB store for an order or a search no index answers): what the database's indexes
 * answer, computed from the records. The one implementation of an order and a search.
 */
export function windowOf<P extends ListedFields>(processes: Iterable<P>, query: WindowQuery): P[] {
  const { offset, limit, status, flow } = query;
  const found = finder(query.search);
  return [...processes]
    .filter(
      (p) =>
        (status === undefined || p.status === status) &&
        (flow === undefined || p.flow === flow) &&
        found(p),
    )
    .sort(compareBy(query.order))
    .slice(offset, offset + limit);
}

export function countsOf(
  processes: Iterable<ListedFields>,
  flow?: string,
  search?: ProcessSearch,
): ProcessCounts {
  const counts: ProcessCounts = { total: 0, byStatus: {} };
  const found = finder(search);
  for (const p of processes) {
    if ((flow !== undefined && p.flow !== flow) || !found(p)) continue;
    counts.total++;
    counts.byStatus[p.status] = (counts.byStatus[p.status] ?? 0) + 1;
  }
  return counts;
}

/** The search's text as it is matched (trimmed, lower case); undefined when it finds everything. */
export function searchText(search: ProcessSearch | undefined): string | undefined {
  const text = search?.text.trim().toLowerCase();
  return text ? text : undefined;
}

/**
 * Whether a process is one the search finds: its id, flow id or status holds the text, ignoring
 * case, or its flow is one the search names (those whose name holds it). An empty text finds all.
 */
export function finder(search: ProcessSearch | undefined): (p: ListedFields) => boolean {
  const text = searchText(search);
  if (text === undefined) return () => true;
  const flows = new Set(search?.flows);
  return (p) =>
    flows.has(p.flow) ||
    p.id.toLowerCase().includes(text) ||
    p.flow.toLowerCase().includes(text) ||
    p.status.includes(text);
}

/**
 * Ids and flow ids compare as people read them, "p-9" before "p-10", ignoring case: by a key in
 * which each run of digits is led by its length. A key is made once per name and sort, not per
 * comparison (a collator's numeric compare took half a second over 10,000 ids).
 */
function naturalKeys(): (name: string) => string {
  const keys = new Map<string, string>();
  return (name) => {
    let key = keys.get(name);
    if (key === undefined) {
      key = name.toLowerCase().replace(/\d+/g, (run) => {
        const digits = run.replace(/^0+(?=\d)/, '');
        return `${String(digits.length).padStart(4, '0')}${digits}`;
      });
      keys.set(name, key);
    }
    return key;
  };
}
const byKey = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const STATUS_RANK = new Map<string, number>(PROCESS_STATUSES.map((s, i) => [s, i]));

/**
 * How two processes compare in an order (creation without one). Statuses go in the order lists
 * show them (PROCESS_STATUSES); a flow by its place in `order.flows`; a process without a due time
 * goes after those with one in either direction. Processes that compare equal stay in order of
 * creation, whichever the direction, so a window never shifts between two reads.
 */
export function compareBy(
  order: ProcessOrder | undefined,
): (a: ListedFields, b: ListedFields) => number {
  const by = order?.by ?? 'created';
  const sign = order?.desc ? -1 : 1;
  const flowRank = new Map(order?.flows?.map((f, i) => [f, i]));
  const rankOf = (flow: string) => flowRank.get(flow) ?? Infinity;
  const natural = naturalKeys();
  const key = (a: ListedFields, b: ListedFields): number => {
    switch (by) {
      case 'created':
        return a.created - b.created;
      case 'id':
        return byKey(natural(a.id), natural(b.id));
      case 'flow': {
        const ra = rankOf(a.flow);
        const rb = rankOf(b.flow);
        if (ra !== rb) return ra < rb ? -1 : 1;
        return ra === Infinity ? byKey(natural(a.flow), natural(b.flow)) : 0;
      }
      case 'status':
        return (STATUS_RANK.get(a.status) ?? 0) - (STATUS_RANK.get(b.status) ?? 0);
      case 'due':
        return (a.due ?? 0) - (b.due ?? 0);
      case 'wakes':
        return (a.wakes ?? 0) - (b.wakes ?? 0);
    }
  };
  return (a, b) => {
    if (by === 'due') {
      const noneA = a.due === null || a.due === undefined;
      const noneB = b.due === null || b.due === undefined;
      if (noneA !== noneB) return noneA ? 1 : -1;
    }
    return sign * key(a, b) || a.created - b.created;
  };
}

/** The newest `limit` entries of a whole journal, newest first (`Store.journalPage`). */
export function pageOf<E extends JournalEntry>(journal: E[], limit: number): JournalPage {
  return { entries: journal.slice(-limit).reverse(), more: journal.length > limit };
}
