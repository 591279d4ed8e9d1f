/** How many paths the plain layer adds to the page per frame, and how many it takes away. */
export const PATHS_ADDED_PER_FRAME = 1000;
export const PATHS_REMOVED_PER_FRAME = 2500;

/**
 * The paths the plain layer draws this frame, going from `drawn` (last frame's) towards `wanted`
 * (this frame's, in order): at most `add` paths new to the page and at most `remove` taken
 * away, so that a view moved from a split of 10,000 edges to its join (10,000 others) does not
 * add and remove 20,000 elements in one task. A path that may not stay (`mayStay` false: its
 * edge is gone, or React Flow draws it now) is taken away at once, over the budget; one that
 * may stays until its turn, drawn where it was (it has left the view's neighbourhood: no one
 * sees it). Each kept path keeps its place; new ones come after. `pending` counts what is left
 * to do.
 */
export function layerPaths<P extends { id: string }>(
  drawn: readonly P[],
  wanted: readonly P[],
  mayStay: (id: string) => boolean,
  add: number,
  remove: number,
): { paths: readonly P[]; pending: number } {
  const wantedById = new Map(wanted.map((p) => [p.id, p]));
  const drawnIds = new Set(drawn.map((p) => p.id));
  let pending = 0;
  const paths: P[] = [];
  for (const p of drawn) {
    const now = wantedById.get(p.id);
    if (now) paths.push(now);
    else if (mayStay(p.id) && remove-- <= 0) {
      paths.push(p);
      pending++;
    }
  }
  for (const p of wanted) {
    if (drawnIds.has(p.id)) continue;
    if (add-- > 0) paths.push(p);
    else pending++;
  }
  if (pending === 0 && paths.length === wanted.length && paths.every((p, i) => p === wanted[i]))
    return { paths: wanted, pending };
  return { paths, pending };
}
