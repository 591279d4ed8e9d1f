import { timersOf, waitDue } from '../../runtime/engine/timers.ts';
import type { ScopeSnapshot, Snapshot } from '../../runtime/engine/snapshot.ts';
import type { JournalEntry } from '../../runtime/supervisor/records.ts';
import type { Flow } from '../../shared/schema.ts';

/** A node of the flow on the canvas as the inspected process stands on it. */
export interface NodeRunState {
  state: 'ready' | 'waiting' | 'running' | 'ran' | 'skipped' | 'stopped' | 'idle';
  /** The generation it is in (live) or last ran in. */
  generation: string;
  visits: number;
  due: number | null;
}

/**
 * The running scope a path of sub-flow node ids leads to (`[]` is the top-level flow), or
 * undefined when no child runs there now. Two children of one node (two edges reaching a
 * sub-flow node at once) are rare; the one that started first is shown.
 */
export function scopeAt(scope: ScopeSnapshot, path: readonly string[]): ScopeSnapshot | undefined {
  let at: ScopeSnapshot | undefined = scope;
  for (const node of path) at = at?.children.find((c) => c.node === node)?.scope;
  return at;
}

/**
 * The position of a process on the canvas of one of its flows: the top-level one, or the
 * sub-flow that `path` (sub-flow node ids, outermost first) leads to. Ready and waiting nodes
 * (with due times) and sub-flows running come from the snapshot; what each node last did, from
 * the journal; visits, by the node's path, from the snapshot's counters.
 */
export function overlayOf(
  at: { snapshot: Snapshot },
  journal: readonly JournalEntry[],
  flows: Map<string, Flow>,
  path: readonly string[] = [],
): Map<string, NodeRunState> {
  const out = new Map<string, NodeRunState>();
  const { snapshot } = at;
  const prefix = path.map((p) => `${p}/`).join('');
  const timers = timersOf(snapshot, (f) => flows.get(f));
  const set = (node: string, s: Omit<NodeRunState, 'visits'>) =>
    out.set(node, { ...s, visits: snapshot.visits[prefix + node] ?? 0 });
  // What each node did last, from the journal; live positions below take precedence.
  for (const e of journal) {
    if ((e.type !== 'ran' && e.type !== 'skipped') || !e.node.startsWith(prefix)) continue;
    const node = e.node.slice(prefix.length);
    if (!node.includes('/')) set(node, { state: e.type, generation: e.gen.join('.'), due: null });
  }
  const scope = scopeAt(snapshot.scope, path);
  if (!scope) return out;
  for (const c of scope.children)
    set(c.node, { state: 'running', generation: c.gen.join('.'), due: null });
  for (const w of scope.waits)
    set(w.node, { state: 'waiting', generation: w.gen.join('.'), due: waitDue(timers, w.seq) });
  for (const t of scope.ready)
    set(t.node, { state: 'ready', generation: t.gen.join('.'), due: null });
  return out;
}

/**
 * A stopped process's live positions say "stopped" and no due time: the canvas then says what the
 * run view's status says, and a timer it will not fire until Resume is not counted down.
 */
export function markStopped(overlay: Map<string, NodeRunState>): void {
  for (const [node, s] of overlay)
    if (s.state === 'ready' || s.state === 'waiting' || s.state === 'running')
      overlay.set(node, { ...s, state: 'stopped', due: null });
}
