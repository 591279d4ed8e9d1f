import type {
  ProcessOrder,
  ProcessOrderBy,
  ProcessSearch,
} from '../../runtime/supervisor/store.ts';

/** A flow as the page names it. */
export interface FlowName {
  id: string;
  name: string;
}

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

/**
 * The order a click on a column's header asks for: ascending first, then descending, then back
 * to the order of creation (the table's own, which no header shows). Sorting by flow sorts by
 * the names the table shows, which the worker does not know: the flow ids go with it in the
 * order of their names.
 */
export function nextOrder(
  current: ProcessOrder | undefined,
  by: ProcessOrderBy,
  flows: readonly FlowName[],
): ProcessOrder | undefined {
  const desc = current?.by === by ? (current.desc ? undefined : true) : false;
  if (desc === undefined) return undefined;
  return withFlows({ by, desc }, flows);
}

/** The order, with the flows in the order of their names when it sorts by flow. */
export function withFlows(order: ProcessOrder, flows: readonly FlowName[]): ProcessOrder {
  if (order.by !== 'flow') return { by: order.by, desc: order.desc };
  const ranked = [...flows].sort(
    (a, b) => collator.compare(a.name, b.name) || (a.id < b.id ? -1 : 1),
  );
  return { by: order.by, desc: order.desc, flows: ranked.map((f) => f.id) };
}

/**
 * The search the table sends for what was typed: the text, which the worker matches against
 * ids, flow ids and statuses, and the ids of the flows whose name holds it, ignoring case (the
 * names live in the page: docs/decisions.md). Blank text is no search.
 */
export function searchOf(text: string, flows: readonly FlowName[]): ProcessSearch | undefined {
  const needle = text.trim().toLowerCase();
  if (!needle) return undefined;
  const named = flows.filter((f) => f.name.toLowerCase().includes(needle)).map((f) => f.id);
  return named.length ? { text: text.trim(), flows: named } : { text: text.trim() };
}

/** What a header's button says its next click does. */
export function sortHint(current: ProcessOrder | undefined, by: ProcessOrderBy, label: string) {
  if (current?.by !== by) return `Sort by ${label.toLowerCase()}, ascending`;
  return current.desc
    ? 'Back to the order of creation'
    : `Sort by ${label.toLowerCase()}, descending`;
}
