import type { Flow } from '../../shared/schema.ts';
import { signatureOf } from '../engine/flowModel.ts';
import type { ScopeSnapshot } from '../engine/snapshot.ts';

/**
 * The flows a process can use, loaded before a step because the engine looks flows up
 * synchronously: the top-level flow, every flow it calls (transitively), and every flow a
 * running scope of the snapshot names.
 */
export async function loadFlowSet(
  rootIds: Iterable<string>,
  load: (id: string) => Promise<Flow | undefined>,
): Promise<Map<string, Flow>> {
  const flows = new Map<string, Flow>();
  const pending = [...rootIds];
  const tried = new Set<string>();
  while (pending.length > 0) {
    const id = pending.pop()!;
    if (tried.has(id)) continue;
    tried.add(id);
    const flow = await load(id);
    if (!flow) continue;
    flows.set(id, flow);
    for (const n of flow.nodes) if (n.kind === 'subflow') pending.push(n.flow);
  }
  return flows;
}

/**
 * The ids of the flows a snapshot's scopes run, each scope's before its children's, in their
 * order. One list, filled by a walk: a list per scope spread into its parent's copied each id
 * once per level above it, which a process running thousands of nested sub-flows paid at every
 * load of its flows.
 */
export function scopeFlowIds(scope: ScopeSnapshot): string[] {
  const out: string[] = [];
  const stack: ScopeSnapshot[] = [scope];
  while (stack.length > 0) {
    const s = stack.pop()!;
    out.push(s.flow);
    for (let i = s.children.length - 1; i >= 0; i--) stack.push(s.children[i]!.scope);
  }
  return out;
}

/** Signatures by flow id, each computed once per flow object (`signatureOf`). */
export function signaturesById(flows: ReadonlyMap<string, Flow>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [id, flow] of flows) out[id] = signatureOf(flow);
  return out;
}
