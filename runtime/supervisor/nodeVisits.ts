import { applyWrites, readPath, type ContextWrite } from '../../shared/contextWrite.ts';
import { contextPathsRead } from '../../shared/expressionPaths.ts';
import type { Flow, FlowNode, Trigger } from '../../shared/schema.ts';
import type { Generation, ScopeSnapshot, Snapshot } from '../engine/snapshot.ts';
import { versionAt } from './pastContext.ts';
import type { ContextChange, JournalEntry } from './records.ts';

/** The visits one answer details at most, the newest: a loop of 10,000 passes sends these. */
export const VISITS_SHOWN = 20;

/** The longest value text an answer holds; a longer one is cut, and says so. */
export const VALUE_TEXT = 2_000;

/** A value as the page shows it: its JSON, cut at VALUE_TEXT characters. */
export interface ValueText {
  text: string;
  /** Whether `text` is only the start of the value's JSON. */
  cut: boolean;
}

/** A context path a node's expressions read, and its value at the visit. */
export interface VisitRead {
  path: string;
  /** What reads it: `set prices.read`, `call charged`, `edge e8`. */
  by: string[];
  /** null when the context as of then cannot be rebuilt (the answer's `valuesProblem` says why). */
  value: ValueText | null;
}

/** One path a visit wrote: what was there before, and what it wrote (undefined: removed). */
export interface VisitWrite {
  path: string;
  before: ValueText | null;
  after: ValueText | undefined;
}

export type VisitStatus = 'ran' | 'waiting' | 'skipped' | 'failed' | 'dropped';

/** One visit of a node: one time a branch reached it, in one generation. */
export interface NodeVisit {
  /** Counted from 1 over the visits the journal keeps, oldest first. */
  number: number;
  /** null when the journal does not say (a failure whose position was not kept). */
  gen: Generation | null;
  status: VisitStatus;
  /** When the branch reached the node (a continue-after began to wait), in ms. */
  at: number;
  /** When the visit ended (ran, was skipped, failed), in ms. */
  endedAt?: number;
  /** The store key of the journal entry that ended it (or began it, while it waits). */
  seq?: number;
  /** The paths the node's own expressions read, as the node found them (before its writes). */
  reads: VisitRead[];
  /** The paths its outgoing edges' conditions read, after its writes (docs/format.md#edges). */
  conditions: VisitRead[];
  writes: VisitWrite[];
  /** The trigger that fired, for a continue-after. */
  trigger?: { id: string; kind: TriggerKind; at: number };
  /** A call trigger's outcome, as written at its `into`; null when it has no `into`. */
  outcome?: ValueText | null;
  error?: string;
}

export type TriggerKind = 'timer' | 'event' | 'human' | 'call';

/** What the per-node view shows: the newest visits in detail, and how many others there are. */
export type NodeVisits =
  | {
      ok: true;
      node: string;
      kind: FlowNode['kind'];
      /** Every visit the journal keeps; `visits` holds the newest of them. */
      total: number;
      /** The newest visits, oldest of them first; `total - visits.length` are not sent. */
      visits: NodeVisit[];
      /** Passes the journal's retention rule summed up: their visits are not counted. */
      summarizedPasses: number;
      /** Why values read or overwritten cannot be given, when they cannot. */
      valuesProblem?: string;
    }
  | { ok: false; problem: string };

/** What `nodeVisits` reads: the process's journal (oldest first), its context's changes, flows. */
export interface NodeVisitsInput {
  journal: readonly JournalEntry[];
  changes: readonly ContextChange[];
  /** The flows the process runs on, by id (Supervisor.sleptOn). */
  flows: ReadonlyMap<string, Flow>;
  /** The process's top-level flow. */
  flow: string;
  /** The node's path through sub-flow nodes (`b/step`), as the journal names it. */
  node: string;
  /** How many of the newest visits to detail: 1 to VISITS_SHOWN, VISITS_SHOWN when absent. */
  limit?: number;
  /**
   * Time travel: the store's `seq` of the journal entry the inspector shows the process as of.
   * Entries after it have not happened yet then, so no visit of theirs is counted or shown.
   */
  upTo?: number;
}

/** A visit while the journal is read: where its entries are. */
interface Raw {
  gen: Generation | null;
  status: VisitStatus;
  at: number;
  /** The entry that began it (waited), ended it, and held its writes. */
  from: number;
  end?: number;
  write?: number;
  trigger?: { id: string; at: number };
  error?: string;
}

/**
 * The visits of one node of a process, from its journal (docs/format.md#the-runtime-and-the-supervisor):
 * each time a branch reached it, by generation, with what it read, what it wrote (old → new),
 * the trigger that fired and a call's outcome. What it read is a static reading of its
 * expressions (expressionPaths.ts), valued from the context as of the visit, which is rebuilt
 * as pastContext.ts rebuilds it, in one replay of the changes for every visit detailed. Pure.
 */
export function nodeVisits(input: NodeVisitsInput): NodeVisits {
  const { node: path } = input;
  const journal = input.upTo === undefined ? input.journal : journalUpTo(input.journal, input.upTo);
  const found = findNode(input.flows, input.flow, path);
  if (!found) return { ok: false, problem: `the flow this process runs on has no node "${path}"` };
  const { node, flow } = found;
  const raws: Raw[] = [];
  let summarizedPasses = 0;
  // Waits of this node not yet woken; the visit a trigger woke, until it ran.
  const open: Raw[] = [];
  let woken: Raw | undefined;
  let pendingWrite: number | undefined;
  for (let i = 0; i < journal.length; i++) {
    const e = journal[i]!;
    if (e.type === 'summarized') summarizedPasses += e.passes;
    if (
      e.type === 'done' ||
      e.type === 'cancelled' ||
      (e.type === 'resolved' && e.choice === 'restart')
    ) {
      // The process ended, or started again: a wait still open was dropped with it.
      for (const w of open.splice(0)) w.status = 'dropped';
      continue;
    }
    if (!('node' in e) || e.node !== path) continue;
    switch (e.type) {
      case 'waited': {
        const visit: Raw = { gen: e.gen, status: 'waiting', at: e.at, from: i };
        raws.push(visit);
        open.push(visit);
        break;
      }
      case 'woke': {
        const at = open.findIndex((w) => sameGen(w.gen, e.gen));
        const visit = at === -1 ? undefined : open.splice(at, 1)[0];
        woken = visit ?? { gen: e.gen, status: 'waiting', at: e.at, from: i };
        if (!visit) raws.push(woken);
        woken.trigger = { id: e.trigger, at: e.at };
        break;
      }
      case 'context-written':
        pendingWrite = i;
        break;
      case 'ran':
      case 'skipped': {
        const visit = woken && sameGen(woken.gen, e.gen) ? woken : undefined;
        const done = visit ?? { gen: e.gen, status: 'ran', at: e.at, from: i };
        if (!visit) raws.push(done);
        done.status = e.type;
        done.end = i;
        done.write = e.type === 'ran' ? pendingWrite : undefined;
        woken = undefined;
        pendingWrite = undefined;
        break;
      }
      case 'failed': {
        const visit = woken ?? {
          gen: genInSnapshot(e.snapshot, path),
          status: 'failed',
          at: e.at,
          from: i,
        };
        if (!woken) raws.push(visit);
        visit.status = 'failed';
        visit.end = i;
        visit.error = e.message;
        woken = undefined;
        pendingWrite = undefined;
        break;
      }
    }
  }

  // Bounded here, for every runtime: a page may ask for any number, the answer stays small.
  const limit = Math.min(VISITS_SHOWN, Math.max(1, Math.floor(input.limit ?? VISITS_SHOWN)));
  const first = Math.max(0, raws.length - limit);
  const shown = raws.slice(first);
  const reads = readsOf(node);
  const conditions = conditionsOf(flow, node.id);
  const docs = contextsAt(journal, input.changes, shown);
  const visits = shown.map((raw, i) =>
    detail(raw, first + i + 1, journal, node, reads, conditions, docs),
  );
  return {
    ok: true,
    node: path,
    kind: node.kind,
    total: raws.length,
    visits,
    summarizedPasses,
    ...(docs.problem === undefined ? {} : { valuesProblem: docs.problem }),
  };
}

/**
 * The journal as it stood when the entry numbered `seq` was written: entries are kept in the
 * order of their `seq`, so the cut is after the last one at or before it. A number before every
 * entry leaves none; a number past the last one leaves them all.
 */
export function journalUpTo(
  journal: readonly JournalEntry[],
  seq: number,
): readonly JournalEntry[] {
  let end = journal.length;
  while (end > 0 && !(entrySeq(journal[end - 1]!) <= seq)) end--;
  return end === journal.length ? journal : journal.slice(0, end);
}

/** The store's number of an entry; one not stored yet has none and counts as after every one. */
const entrySeq = (e: JournalEntry): number => {
  const seq = (e as { seq?: unknown }).seq;
  return typeof seq === 'number' ? seq : Infinity;
};

type Reads = { path: string; by: string[] }[];

/** The paths a node's own expressions read: a work node's `set`, a call's request. */
function readsOf(node: FlowNode): Reads {
  const reads = new Map<string, string[]>();
  const add = (expr: string | undefined, by: string) => {
    if (expr === undefined) return;
    for (const p of contextPathsRead(expr)) {
      const list = reads.get(p) ?? [];
      if (!list.includes(by)) list.push(by);
      reads.set(p, list);
    }
  };
  if (node.kind === 'work')
    for (const [at, expr] of Object.entries(node.set ?? {})) add(expr, `set ${at}`);
  if (node.kind === 'continue-after') {
    for (const t of node.on) {
      if (!t.call) continue;
      add(t.call.url, `call ${t.id}`);
      for (const h of Object.values(t.call.headers ?? {})) add(h, `call ${t.id}`);
      add(t.call.body, `call ${t.id}`);
    }
  }
  return [...reads].map(([path, by]) => ({ path, by }));
}

/** The paths the conditions of the edges leaving `id` read. */
function conditionsOf(flow: Flow, id: string): Reads {
  const reads = new Map<string, string[]>();
  for (const edge of flow.edges) {
    if (edge.from !== id || edge.when === undefined) continue;
    for (const p of contextPathsRead(edge.when))
      reads.set(p, [...(reads.get(p) ?? []), `edge ${edge.id}`]);
  }
  return [...reads].map(([path, by]) => ({ path, by }));
}

/** The context before and after each visit shown, by the visit; or why there are none. */
interface Contexts {
  before: Map<Raw, unknown>;
  after: Map<Raw, unknown>;
  problem?: string;
}

/**
 * The context each visit found and left, rebuilt as pastContext.ts rebuilds it, with the
 * changes replayed once for all of them: a visit that wrote found the version before its change
 * (its commit compared and set on that version) and left its change's; one that did not write
 * saw the version as of its entry. `applyWrites` copies only along a path, so the documents kept
 * share what they did not change.
 */
function contextsAt(
  journal: readonly JournalEntry[],
  changes: readonly ContextChange[],
  visits: readonly Raw[],
): Contexts {
  const out: Contexts = { before: new Map(), after: new Map() };
  if (visits.length === 0) return out;
  const started = journal.find((e) => e.type === 'started');
  if (started?.type !== 'started' || !started.context) {
    out.problem =
      'the journal does not hold the context this process started on, so the values read and overwritten are not known';
    return out;
  }
  const base = started.context;
  const sorted = [...changes].sort((a, b) => a.version - b.version);
  const wanted = new Map<Raw, { before: number; after: number }>();
  for (const v of visits) {
    const index = v.write ?? v.end ?? v.from;
    const process = journal[index]!.process;
    const version = Math.max(base.version, versionAt(journal, index, sorted, process) ?? 0);
    wanted.set(v, { before: v.write === undefined ? version : version - 1, after: version });
  }
  const needed = new Set([...wanted.values()].flatMap((w) => [w.before, w.after]));
  const at = new Map<number, unknown>([[base.version, base.value]]);
  let value = base.value;
  let version = base.version;
  const last = Math.max(...needed);
  for (const change of sorted) {
    if (change.version <= base.version) continue;
    if (change.version > last) break;
    if (change.version !== version + 1) {
      out.problem = `the context's changes from version ${version + 1} to ${change.version - 1} are no longer kept, so older values are not known`;
      break;
    }
    value = applyWrites(value, change.writes);
    version = change.version;
    if (needed.has(version)) at.set(version, value);
  }
  for (const [v, w] of wanted) {
    if (at.has(w.before)) out.before.set(v, at.get(w.before));
    if (at.has(w.after)) out.after.set(v, at.get(w.after));
  }
  return out;
}

function detail(
  raw: Raw,
  number: number,
  journal: readonly JournalEntry[],
  node: FlowNode,
  reads: Reads,
  conditions: Reads,
  docs: Contexts,
): NodeVisit {
  const valued = (list: Reads, doc: Map<Raw, unknown>) =>
    list.map((r) => ({
      ...r,
      value: doc.has(raw) ? valueText(readPath(doc.get(raw), r.path)) : null,
    }));
  const entry = journal[raw.write ?? -1];
  const written: ContextWrite[] = entry?.type === 'context-written' ? entry.writes : [];
  let doc = docs.before.get(raw);
  const known = docs.before.has(raw);
  const writes = written.map((w) => {
    const before = known ? valueText(readPath(doc, w.path)) : null;
    if (known) doc = applyWrites(doc, [w]);
    return { path: w.path, before, after: 'value' in w ? valueText(w.value) : undefined };
  });
  const trigger = raw.trigger && triggerOf(node, raw.trigger.id);
  const ended = journal[raw.end ?? raw.from] as { seq?: unknown } | undefined;
  const visit: NodeVisit = {
    number,
    gen: raw.gen,
    status: raw.status,
    at: raw.at,
    reads: valued(reads, docs.before),
    // A visit that did not complete took no edge: its conditions were not read.
    conditions: raw.status === 'ran' ? valued(conditions, docs.after) : [],
    writes,
  };
  if (raw.end !== undefined) visit.endedAt = journal[raw.end]!.at;
  if (typeof ended?.seq === 'number') visit.seq = ended.seq;
  if (raw.trigger) visit.trigger = { ...raw.trigger, kind: trigger ? kindOf(trigger) : 'event' };
  if (trigger?.call) {
    const into = trigger.into;
    const w = into === undefined ? undefined : written.find((x) => x.path === into);
    visit.outcome = w && 'value' in w ? valueText(w.value) : null;
  }
  if (raw.error !== undefined) visit.error = raw.error;
  return visit;
}

/** A value's JSON, cut at VALUE_TEXT; `(none)` for a path that holds nothing. */
export function valueText(value: unknown): ValueText {
  if (value === undefined) return { text: '(none)', cut: false };
  const text = JSON.stringify(value) ?? String(value);
  return text.length > VALUE_TEXT
    ? { text: `${text.slice(0, VALUE_TEXT)}…`, cut: true }
    : { text, cut: false };
}

const triggerOf = (node: FlowNode, id: string): Trigger | undefined =>
  node.kind === 'continue-after' ? node.on.find((t) => t.id === id) : undefined;

function kindOf(t: Trigger): TriggerKind {
  if (t.call) return 'call';
  if (t.human) return 'human';
  if (t.timer !== undefined) return 'timer';
  return 'event';
}

const sameGen = (a: Generation | null, b: Generation) =>
  a !== null && a.length === b.length && a.every((n, i) => n === b[i]);

/** The node at a path through sub-flow nodes, and the flow that holds it. */
function findNode(
  flows: ReadonlyMap<string, Flow>,
  top: string,
  path: string,
): { node: FlowNode; flow: Flow } | undefined {
  let flow = flows.get(top);
  const ids = path.split('/');
  for (const [i, id] of ids.entries()) {
    const node = flow?.nodes.find((n) => n.id === id);
    if (!flow || !node) return undefined;
    if (i === ids.length - 1) return { node, flow };
    if (node.kind !== 'subflow') return undefined;
    flow = flows.get(node.flow);
  }
  return undefined;
}

/** The generation a node at `path` was ready in, in the snapshot kept with an entry. */
function genInSnapshot(snapshot: Snapshot | undefined, path: string): Generation | null {
  const look = (scope: ScopeSnapshot, prefix: string): Generation | null => {
    for (const t of scope.ready) if (prefix + t.node === path) return t.gen;
    for (const c of scope.children) {
      const inner = `${prefix}${c.node}/`;
      if (path.startsWith(inner)) return look(c.scope, inner);
    }
    return null;
  };
  return snapshot ? look(snapshot.scope, '') : null;
}
