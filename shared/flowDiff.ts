import type { Flow } from './schema.ts';
import { edgeEssence, nodeEssence } from './signature.ts';

/** One difference between two versions of a flow, in what runs (not positions or labels). */
export interface FlowChange {
  flow: string;
  item: 'node' | 'edge';
  id: string;
  change: 'added' | 'removed' | 'changed';
}

/**
 * The nodes and edges added, removed or changed from `before` to `after`, judged by the same
 * fields as the signature, so that a flow whose signature changed has at least one change; an
 * edge that moved among the others counts as changed.
 */
export function diffFlows(before: Flow | undefined, after: Flow | undefined): FlowChange[] {
  const flow = after?.id ?? before?.id ?? '';
  const out: FlowChange[] = [];
  const compare = (item: FlowChange['item'], a: Map<string, string>, b: Map<string, string>) => {
    for (const [id, text] of a) {
      if (!b.has(id)) out.push({ flow, item, id, change: 'removed' });
      else if (b.get(id) !== text) out.push({ flow, item, id, change: 'changed' });
    }
    for (const id of b.keys()) if (!a.has(id)) out.push({ flow, item, id, change: 'added' });
  };
  const nodes = (f: Flow | undefined) =>
    new Map((f?.nodes ?? []).map((n) => [n.id, JSON.stringify(nodeEssence(n))]));
  const edges = (f: Flow | undefined) =>
    new Map((f?.edges ?? []).map((e) => [e.id, JSON.stringify(edgeEssence(e))]));
  compare('node', nodes(before), nodes(after));
  compare('edge', edges(before), edges(after));
  // Edges are taken in the order listed, so an edge that moved among the others changed too.
  const kept = (f: Flow | undefined, other: Flow | undefined) => {
    const ids = new Set((other?.edges ?? []).map((e) => e.id));
    return (f?.edges ?? []).map((e) => e.id).filter((id) => ids.has(id));
  };
  const was = kept(before, after);
  const now = kept(after, before);
  was.forEach((id, i) => {
    const moved = now[i] !== id;
    if (moved && !out.some((c) => c.item === 'edge' && c.id === id)) {
      out.push({ flow, item: 'edge', id, change: 'changed' });
    }
  });
  return out;
}
