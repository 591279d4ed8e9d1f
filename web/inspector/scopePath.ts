import type { Flow } from '../../shared/schema.ts';

/** One level of the way down from a process's top-level flow into its sub-flows. */
export interface ScopeLevel {
  /** Sub-flow node ids from the top-level flow to this level; `[]` is the top-level flow. */
  path: string[];
  /** The flow drawn at this level. */
  flow: string;
  /** What the breadcrumb says: the flow's name at the top, the sub-flow node below it. */
  label: string;
}

/**
 * The levels from the top-level flow down a path of sub-flow nodes, each with the flow it calls,
 * read from the flows the process runs on. Stops at a node that is not a sub-flow node of the
 * flow above it (the flow changed since), so every level returned can be drawn.
 */
export function scopeLevels(
  topFlow: string,
  path: readonly string[],
  flows: ReadonlyMap<string, Flow>,
): ScopeLevel[] {
  const top = flows.get(topFlow);
  const levels: ScopeLevel[] = [{ path: [], flow: topFlow, label: top?.name ?? topFlow }];
  let flow = top;
  for (const [i, id] of path.entries()) {
    const node = flow?.nodes.find((n) => n.id === id);
    if (node?.kind !== 'subflow') break;
    const label = node.label?.trim() ? `${node.label} (${id})` : id;
    levels.push({ path: path.slice(0, i + 1), flow: node.flow, label });
    flow = flows.get(node.flow);
  }
  return levels;
}
