import type { FlowNode } from '../../shared/schema.ts';

/**
 * The context paths a flow writes (work nodes' `set`, triggers' `into`) and each of their
 * prefixes (`order` of `order.total`), sorted: what an expression in this flow can read.
 */
export function contextPathsOf(nodes: readonly FlowNode[]): string[] {
  const paths = new Set<string>();
  const add = (path: string | undefined) => {
    if (path === undefined || path === '') return;
    const parts = path.split('.');
    for (let i = 1; i <= parts.length; i++) paths.add(parts.slice(0, i).join('.'));
  };
  for (const node of nodes) {
    if (node.kind === 'work') for (const path of Object.keys(node.set ?? {})) add(path);
    if (node.kind === 'continue-after') for (const trigger of node.on) add(trigger.into);
  }
  return [...paths].sort();
}
