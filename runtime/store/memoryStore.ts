import type { Flow } from '../../shared/schema.ts';
import type { CallProgress } from '../calls/callProgress.ts';
import type {
  ContextChange,
  ContextRecord,
  JournalEntry,
  ProcessRecord,
} from '../supervisor/records.ts';
import { UNKNOWN_WAITS } from '../supervisor/records.ts';
import { loadFlowSet, scopeFlowIds } from '../supervisor/flowSet.ts';
import type {
  JournalPage,
  LoadedProcess,
  StepCommit,
  Store,
  ProcessSearch,
  WindowQuery,
} from '../supervisor/store.ts';
import { countsOf, pageOf, windowOf } from './listWindow.ts';
import { toStorable } from './storable.ts';

/**
 * The Store kept in memory, for `flow simulate`: what IdbStore does, with the same answers
 * (compare-and-set, a commit whole or not at all, due order, values JSON cannot hold kept as
 * text), minus the database. Each operation costs what it touches: the due index is kept
 * sorted, a process's journal is its own list, and nothing is scanned per step
 * (docs/decisions.md, "flow simulate keeps its workspace in memory").
 *
 * Records are kept as given and handed back as kept, not copied as IndexedDB copies them: the
 * supervisor and the engine never change a record after they wrote it or once they read it
 * (they build new ones; engine/snapshot.ts shares what a step does not change), so a copy would
 * only cost time. A caller that changed a record in place would change what is stored.
 *
 * `{ journal: false }` keeps no journal and no context changes (`journal` and `contextChanges`
 * answer none): `flow simulate` reports neither, and keeping every entry of 10,000 passes was a
 * sixth of a long advance's time, in garbage collection. The context's version still counts
 * every change. The supervisor sees `keepsJournal` and makes no copy of a position for it.
 */
export class MemoryStore implements Store {
  readonly keepsJournal: boolean;
  private readonly flows = new Map<string, Flow>();
  private readonly versions = new Map<string, Flow>();
  private readonly contexts = new Map<string, ContextRecord>();
  private readonly changes = new Map<string, Numbered<ContextChange>>();
  private readonly processes = new Map<string, ProcessRecord>();
  private readonly journals = new Map<string, Numbered<JournalEntry>>();
  /** Running processes, by id (`runningProcesses` sorts the few there are). */
  private readonly running = new Map<string, ProcessRecord>();
  /** Waiting processes with a due time, by due time, then creation (dueProcesses' order). */
  private readonly due: ProcessRecord[] = [];
  /** Waiting processes by the event names they wait for (`UNKNOWN_WAITS` for unlisted ones). */
  private readonly waiters = new Map<string, Map<string, ProcessRecord>>();
  /** Each call wait's progress (Store.listCallProgress), by process, then wait. */
  private readonly callProgress = new Map<string, Map<number, CallProgress>>();
  private maxCreated: number | null = null;
  private journalSeq = 0;
  private changeSeq = 0;

  constructor(options: { journal?: boolean } = {}) {
    this.keepsJournal = options.journal ?? true;
  }

  async getFlow(id: string) {
    return this.flows.get(id);
  }
  async putFlow(flow: Flow) {
    this.flows.set(flow.id, storedFlow(flow));
  }
  async getFlowVersion(id: string, signature: string) {
    return this.versions.get(versionKey(id, signature));
  }
  async putFlowVersion(flow: Flow, signature: string) {
    this.versions.set(versionKey(flow.id, signature), storedFlow(flow));
  }

  async getContext(id: string) {
    return this.contexts.get(id);
  }
  async putContext(record: ContextRecord, expectedVersion: number | null, change?: ContextChange) {
    if ((this.contexts.get(record.id)?.version ?? null) !== expectedVersion) return false;
    this.contexts.set(record.id, { ...record, value: toStorable(record.value) });
    if (change) this.addChange(change);
    return true;
  }
  async contextChanges(contextId: string) {
    return withSeqs(this.changes.get(contextId));
  }

  async getProcess(id: string) {
    return this.processes.get(id);
  }
  async putProcess(record: ProcessRecord, journal: JournalEntry[] = []) {
    this.storeProcess(record, journal);
  }
  async loadProcess(id: string): Promise<LoadedProcess | undefined> {
    const record = this.processes.get(id);
    if (!record) return undefined;
    const roots = [record.flow, ...scopeFlowIds(record.snapshot.scope)];
    const flows = await loadFlowSet(roots, async (f) => this.flows.get(f));
    return { record, flows, context: this.contexts.get(record.contextId) };
  }
  async listProcesses() {
    return [...this.processes.values()].sort((a, b) => a.created - b.created);
  }
  async runningProcesses() {
    return [...this.running.values()].sort((a, b) => a.created - b.created);
  }
  async dueProcesses(until: number) {
    return this.listDue(until);
  }
  async listDue(upTo: number, limit = Infinity) {
    return this.due.slice(0, Math.min(limit, upperBound(this.due, upTo)));
  }
  async nextDueAt() {
    return this.due[0]?.due ?? null;
  }
  async waitersFor(name: string) {
    const found = new Map(this.waiters.get(name));
    for (const [id, p] of this.waiters.get(UNKNOWN_WAITS) ?? []) found.set(id, p);
    return [...found.values()].sort((a, b) => a.created - b.created);
  }
  async processPage(afterCreated: number | null, limit: number) {
    const all = await this.listProcesses();
    return all.filter((p) => afterCreated === null || p.created > afterCreated).slice(0, limit);
  }
  async processWindow(query: WindowQuery) {
    return windowOf(this.processes.values(), query);
  }
  async processNames() {
    return (await this.listProcesses()).map((p) => ({ id: p.id, flow: p.flow }));
  }
  async countProcesses(flow?: string, search?: ProcessSearch) {
    return countsOf(this.processes.values(), flow, search);
  }
  async lastCreated() {
    return this.maxCreated;
  }

  async commitStep({ process, context, journal }: StepCommit) {
    const current = this.contexts.get(context.id);
    if (current?.version !== context.expectedVersion) return false;
    if (context.write) {
      const { value, changes } = context.write;
      const version = context.expectedVersion + (context.write.versions ?? changes.length);
      // Engine-made: JSON already (see storeProcess).
      this.contexts.set(context.id, { id: context.id, version, value });
      for (const change of changes) this.addChange(change, true);
    }
    this.storeProcess(process, journal, true);
    return true;
  }
  async journal(processId: string) {
    return withSeqs(this.journals.get(processId));
  }
  async journalPage(processId: string, limit: number): Promise<JournalPage> {
    return pageOf(await this.journal(processId), limit);
  }

  async listCallProgress(processId: string) {
    return [...(this.callProgress.get(processId)?.values() ?? [])].sort((a, b) => a.seq - b.seq);
  }
  async putCallProgress(processId: string, progress: CallProgress) {
    let rows = this.callProgress.get(processId);
    if (!rows) this.callProgress.set(processId, (rows = new Map()));
    // Copied in, as IndexedDB copies: the caller's object may be a scenario's answer it reuses.
    rows.set(progress.seq, toStorable(progress) as CallProgress);
  }
  async deleteCallProgress(processId: string, seq: number) {
    const rows = this.callProgress.get(processId);
    rows?.delete(seq);
    if (rows?.size === 0) this.callProgress.delete(processId);
  }

  private addChange(change: ContextChange, engineMade = false) {
    if (!this.keepsJournal) return;
    let list = this.changes.get(change.contextId);
    if (!list) this.changes.set(change.contextId, (list = { items: [], seqs: [] }));
    const stored = engineMade ? change : (toStorable(change) as ContextChange);
    list.items.push(stored);
    list.seqs.push(++this.changeSeq);
  }

  /**
   * `engineMade`: a record and entries the supervisor built from the engine's snapshot and
   * results, which are JSON by construction: stored without the walk that `toStorable` takes to
   * find that out, which would cost each commit what the snapshot's size is.
   */
  private storeProcess(
    record: ProcessRecord,
    journal: readonly JournalEntry[],
    engineMade = false,
  ) {
    const stored = engineMade ? record : (toStorable(record) as ProcessRecord);
    const before = this.processes.get(record.id);
    if (before) this.unindex(before);
    this.processes.set(record.id, stored);
    this.index(stored);
    if (journal.length === 0 || !this.keepsJournal) return;
    let list = this.journals.get(record.id);
    if (!list) this.journals.set(record.id, (list = { items: [], seqs: [] }));
    // Numbered as IndexedDB's auto-increment key numbers them (`seq`), across processes.
    for (const e of journal) {
      list.items.push(engineMade ? e : (toStorable(e) as JournalEntry));
      list.seqs.push(++this.journalSeq);
    }
  }

  private index(p: ProcessRecord) {
    if (this.maxCreated === null || p.created > this.maxCreated) this.maxCreated = p.created;
    if (p.status === 'running') this.running.set(p.id, p);
    if (p.status === 'waiting') {
      for (const name of waitNames(p)) {
        let set = this.waiters.get(name);
        if (!set) this.waiters.set(name, (set = new Map()));
        set.set(p.id, p);
      }
    }
    if (p.status !== 'waiting' || p.due === null) return;
    let lo = 0;
    let hi = this.due.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (dueOrder(this.due[mid]!, p) <= 0) lo = mid + 1;
      else hi = mid;
    }
    this.due.splice(lo, 0, p);
  }

  private unindex(p: ProcessRecord) {
    if (p.status === 'running') this.running.delete(p.id);
    if (p.status === 'waiting')
      for (const name of waitNames(p)) this.waiters.get(name)?.delete(p.id);
    if (p.status !== 'waiting' || p.due === null) return;
    let lo = 0;
    let hi = this.due.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (dueOrder(this.due[mid]!, p) < 0) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < this.due.length && this.due[i]!.due === p.due; i++) {
      if (this.due[i]!.id === p.id) {
        this.due.splice(i, 1);
        return;
      }
    }
  }
}

/**
 * Flows `toStorable` gave back as they were (plain JSON), by object: a flow is never changed in
 * place (an edit is a new object), and every start stores the versions it runs on, which walked
 * a flow of 20,000 nodes again at each one.
 */
const plainFlows = new WeakSet<Flow>();

function storedFlow(flow: Flow): Flow {
  if (plainFlows.has(flow)) return flow;
  const stored = toStorable(flow) as Flow;
  if (stored === flow) plainFlows.add(flow);
  return stored;
}

const waitNames = (p: ProcessRecord) => (Array.isArray(p.waitsFor) ? p.waitsFor : [UNKNOWN_WAITS]);

/**
 * Entries in order with their numbers beside them, joined only when read: a commit appends
 * several, and a copy of each to add its number cost every step more than storing it did.
 */
interface Numbered<T> {
  items: T[];
  seqs: number[];
}

function withSeqs<T extends object>(list: Numbered<T> | undefined): (T & { seq: number })[] {
  if (!list) return [];
  return list.items.map((item, i) => ({ ...item, seq: list.seqs[i]! }));
}

const versionKey = (id: string, signature: string) => `${id}\u0000${signature}`;

const dueOrder = (a: ProcessRecord, b: ProcessRecord) => a.due! - b.due! || a.created - b.created;

/** The number of entries due at or before `until`. */
function upperBound(due: readonly ProcessRecord[], until: number): number {
  let lo = 0;
  let hi = due.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (due[mid]!.due! <= until) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
