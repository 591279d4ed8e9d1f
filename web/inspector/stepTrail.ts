import type { ScopeSnapshot, Snapshot } from '../../runtime/engine/snapshot.ts';
import type { JournalEntry } from '../../runtime/supervisor/records.ts';
import type { Flow } from '../../shared/schema.ts';
import { seqOf } from './journalKinds.ts';
import { scopeLevels } from './scopePath.ts';

/**
 * What the inspector's last Step or Run did, as the canvas marks it: the nodes that ran and the
 * edges taken. Both are named by path, as the journal names nodes (`sub/step`, `sub/e1`), so
 * that a sub-flow opened in place finds its own.
 */
export interface StepTrail {
  /** Node paths that ran, once each. */
  ran: ReadonlySet<string>;
  /** Edge paths taken, in the order each was first taken. */
  edges: readonly string[];
}

/**
 * The trail of the journal entries written after the entry numbered `afterSeq` (the newest one
 * read before the control was pressed). The journal says which nodes ran; it does not name the
 * edges taken, so an edge counts as taken when its source ran (through the trigger that woke it,
 * for a continue-after) and its target was reached after that within the step: it has an entry
 * later in the step, or a place in the position the step left (a node ready, asleep, waiting at
 * a join or running a sub-flow) that it did not hold before. Pure.
 */
export function stepTrail(
  journal: readonly JournalEntry[],
  afterSeq: number | undefined,
  topFlow: string,
  flows: ReadonlyMap<string, Flow>,
): StepTrail {
  let first = journal.length;
  while (first > 0 && isAfter(journal[first - 1]!, afterSeq)) first--;
  const step = journal.slice(first);
  const ran = new Set<string>();
  const edges: string[] = [];
  if (step.length === 0) return { ran, edges };

  const before = lastSnapshot(journal, first);
  const after = lastSnapshot(journal, journal.length);
  const arrivedLive = after ? newPlaces(after, before) : new Set<string>();
  const taken = new Set<string>();
  const flowOf = flowResolver(topFlow, flows);

  for (let i = 0; i < step.length; i++) {
    const e = step[i]!;
    if (e.type !== 'ran') continue;
    ran.add(e.node);
    const { prefix, id } = splitPath(e.node);
    const flow = flowOf(prefix);
    if (!flow) continue;
    const trigger = wokeWith(step, i);
    const reachedLater = new Set<string>();
    for (let j = i + 1; j < step.length; j++) {
      const later = step[j]!;
      if ('node' in later && typeof later.node === 'string') reachedLater.add(later.node);
    }
    for (const edge of flow.edges) {
      if (edge.from !== id) continue;
      if (edge.trigger !== undefined && edge.trigger !== trigger) continue;
      const to = prefix + edge.to;
      if (!reachedLater.has(to) && !arrivedLive.has(to)) continue;
      const path = prefix + edge.id;
      if (!taken.has(path)) {
        taken.add(path);
        edges.push(path);
      }
    }
  }
  return { ran, edges };
}

/** Whether an entry was written after the one numbered `afterSeq` (every one, without it). */
function isAfter(e: JournalEntry, afterSeq: number | undefined): boolean {
  if (afterSeq === undefined) return true;
  const seq = seqOf(e);
  return seq === undefined || seq > afterSeq;
}

/** The snapshot kept by the last entry before index `end` that keeps one. */
function lastSnapshot(journal: readonly JournalEntry[], end: number): Snapshot | undefined {
  for (let i = end - 1; i >= 0; i--) {
    const s = journal[i]!.snapshot;
    if (s) return s;
  }
  return undefined;
}

/** The trigger that woke the node of entry `i` in this step, if one did. */
function wokeWith(step: readonly JournalEntry[], i: number): string | undefined {
  const ran = step[i]!;
  if (ran.type !== 'ran') return undefined;
  for (let j = i - 1; j >= 0; j--) {
    const e = step[j]!;
    if (e.type === 'woke' && e.node === ran.node) return e.trigger;
    if (e.type === 'ran' && e.node === ran.node) return undefined;
  }
  return undefined;
}

function splitPath(path: string): { prefix: string; id: string } {
  const cut = path.lastIndexOf('/');
  return { prefix: path.slice(0, cut + 1), id: path.slice(cut + 1) };
}

/** The flow run at a scope prefix (`''`, `sub/`), through the sub-flow nodes it names. */
function flowResolver(
  topFlow: string,
  flows: ReadonlyMap<string, Flow>,
): (prefix: string) => Flow | undefined {
  const known = new Map<string, Flow | undefined>();
  return (prefix) => {
    if (known.has(prefix)) return known.get(prefix);
    const path = prefix === '' ? [] : prefix.slice(0, -1).split('/');
    const levels = scopeLevels(topFlow, path, flows);
    const flow = levels.length === path.length + 1 ? flows.get(levels.at(-1)!.flow) : undefined;
    known.set(prefix, flow);
    return flow;
  };
}

/**
 * The node paths holding a place in `after` that they did not hold in `before`: a token or a
 * wait numbered since (`seq` counts up), a join or a running sub-flow not there before.
 */
function newPlaces(after: Snapshot, before: Snapshot | undefined): Set<string> {
  const out = new Set<string>();
  const since = before?.seq ?? 0;
  const walk = (scope: ScopeSnapshot, was: ScopeSnapshot | undefined, prefix: string) => {
    for (const t of scope.ready) if (t.seq >= since) out.add(prefix + t.node);
    for (const w of scope.waits) if (w.seq >= since) out.add(prefix + w.node);
    const wasJoins = new Set(was?.joins.map((j) => `${j.node}@${j.gen.join('.')}`) ?? []);
    for (const j of scope.joins)
      if (!wasJoins.has(`${j.node}@${j.gen.join('.')}`)) out.add(prefix + j.node);
    for (const c of scope.children) {
      const old = was?.children.find(
        (o) => o.node === c.node && o.gen.join('.') === c.gen.join('.'),
      );
      if (!old) out.add(prefix + c.node);
      walk(c.scope, old?.scope, `${prefix}${c.node}/`);
    }
  };
  walk(after.scope, before?.scope, '');
  return out;
}
