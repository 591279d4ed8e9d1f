import { timersOf, waitDue } from '../../runtime/engine/timers.ts';
import type { ProcessRecord } from '../../runtime/supervisor/records.ts';
import type { JournalEntry } from '../../runtime/supervisor/records.ts';
import type { Flow } from '../../shared/schema.ts';

/** A node of the inspected process's top-level flow as the canvas shows it. */
export interface NodeRunState {
  state: 'ready' | 'waiting' | 'running' | 'ran' | 'skipped' | 'idle';
  /** The generation it is in (live) or last ran in. */
  generation: string;
  visits: number;
  due: number | null;
}

/**
 * The position of a process on its top-level flow's canvas: ready and waiting nodes (with due
 * times), sub-flows running, and what each node last did, with visit counts and generations.
 */
export function overlayOf(
  record: ProcessRecord,
  journal: readonly JournalEntry[],
  flows: Map<string, Flow>,
): Map<string, NodeRunState> {
  const out = new Map<string, NodeRunState>();
  const { scope, visits } = record.snapshot;
  const timers = timersOf(record.snapshot, (f) => flows.get(f));
  const set = (node: string, s: Omit<NodeRunState, 'visits'>) =>
    out.set(node, { ...s, visits: visits[node] ?? 0 });
  // What each node did last, from the journal; live positions below take precedence.
  for (const e of journal) {
    if ((e.type === 'ran' || e.type === 'skipped') && !e.node.includes('/')) {
      set(e.node, { state: e.type, generation: e.gen.join('.'), due: null });
    }
  }
  for (const c of scope.children)
    set(c.node, { state: 'running', generation: c.gen.join('.'), due: null });
  for (const w of scope.waits)
    set(w.node, { state: 'waiting', generation: w.gen.join('.'), due: waitDue(timers, w.seq) });
  for (const t of scope.ready)
    set(t.node, { state: 'ready', generation: t.gen.join('.'), due: null });
  return out;
}
