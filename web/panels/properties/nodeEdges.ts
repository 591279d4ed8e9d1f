import type { CanvasEdge } from '../../designer/canvasTypes.ts';

/** One of a node's edges as its property panel lists it. */
export interface ListedEdge {
  id: string;
  /** `out` leaves the node, `in` leads into it; an edge from the node to itself is `out`. */
  direction: 'out' | 'in';
  /** The node at the edge's other end. */
  other: string;
  trigger?: string;
  when?: string;
}

/**
 * The edges into and out of node `id`, those out first, each in the flow's order, kept to the
 * ones whose other end, trigger or condition contains `filter` (ignoring case), at most
 * `limit` of them, with how many matched: a split of 10,000 branches lists what fits, and a
 * search finds the rest.
 */
export function nodeEdges(
  edges: readonly CanvasEdge[],
  id: string,
  filter: string,
  limit: number,
): { shown: ListedEdge[]; matched: number; total: number } {
  const needle = filter.trim().toLowerCase();
  const out: ListedEdge[] = [];
  const into: ListedEdge[] = [];
  for (const e of edges) {
    if (e.source !== id && e.target !== id) continue;
    const edge = e.data?.edge;
    const listed: ListedEdge = {
      id: e.id,
      direction: e.source === id ? 'out' : 'in',
      other: e.source === id ? e.target : e.source,
      ...(edge?.trigger === undefined ? {} : { trigger: edge.trigger }),
      ...(edge?.when === undefined ? {} : { when: edge.when }),
    };
    (listed.direction === 'out' ? out : into).push(listed);
  }
  const all = [...out, ...into];
  const matching =
    needle === ''
      ? all
      : all.filter((e) =>
          [e.other, e.trigger ?? '', e.when ?? ''].some((s) => s.toLowerCase().includes(needle)),
        );
  return { shown: matching.slice(0, limit), matched: matching.length, total: all.length };
}

/** What a listed edge's button says: where it goes, and by what trigger and condition. */
export function describeListedEdge(e: ListedEdge): string {
  const end = e.direction === 'out' ? `to ${e.other}` : `from ${e.other}`;
  const trigger = e.trigger === undefined ? '' : `, on ${e.trigger}`;
  const when = e.when === undefined ? '' : `, when ${e.when}`;
  return `${end}${trigger}${when}`;
}
