/**
 * The ids of a nodes array as a set, the same set for as long as the ids stay the same: a drag
 * or a measurement makes a new nodes array on every frame with the ids it had, and what is
 * derived from the ids alone (placeholders for missing nodes, ghosts of removed ones, which
 * changes are the flow's) is then neither built again nor recomputed. Checking that the ids are
 * the same reads them in order, without allocating; building the set anew for 5,000 nodes on
 * each frame of a drag was one of the passes a frame's work grew with.
 */
const known = new WeakMap<readonly { id: string }[], ReadonlySet<string>>();
// The last array seen: the likely predecessor of the next one. Only a hint, checked each time.
let last: { nodes: readonly { id: string }[]; ids: ReadonlySet<string> } | undefined;

export function nodeIdsOf(nodes: readonly { id: string }[]): ReadonlySet<string> {
  const kept = known.get(nodes);
  if (kept) return kept;
  const ids = last && sameIds(last.nodes, nodes) ? last.ids : new Set(nodes.map((n) => n.id));
  known.set(nodes, ids);
  last = { nodes, ids };
  return ids;
}

function sameIds(a: readonly { id: string }[], b: readonly { id: string }[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i]!.id !== b[i]!.id) return false;
  return true;
}
