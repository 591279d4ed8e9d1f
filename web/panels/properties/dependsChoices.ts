/** One node a node may wait for, as the `depends` checkboxes show it. */
export interface DependsChoice {
  id: string;
  checked: boolean;
  /** Set for a node named in `depends` that is not upstream: shown so that it can be unticked. */
  problem?: 'missing' | 'not-upstream' | 'itself';
}

/**
 * The checkboxes for `depends`: every upstream node in flow order, then the names in `depends`
 * that are not upstream (an imported or hand-written flow may have them), each with its problem.
 */
export function dependsChoices(
  nodeId: string,
  upstream: readonly string[],
  depends: readonly string[],
  nodeIds: ReadonlySet<string>,
): DependsChoice[] {
  const chosen = new Set(depends);
  const offered = new Set(upstream);
  const extra = [...chosen].filter((d) => !offered.has(d));
  return [
    ...upstream.map((id) => ({ id, checked: chosen.has(id) })),
    ...extra.map((id) => ({
      id,
      checked: true,
      problem:
        id === nodeId
          ? ('itself' as const)
          : nodeIds.has(id)
            ? ('not-upstream' as const)
            : ('missing' as const),
    })),
  ];
}

/** `depends` with `id` ticked or unticked: a new name goes at the end, the rest keep order. */
export function toggleDepends(depends: readonly string[], id: string, on: boolean): string[] {
  const without = depends.filter((d) => d !== id);
  return on ? [...without, id] : without;
}
