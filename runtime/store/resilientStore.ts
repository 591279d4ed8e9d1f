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
import { countsOf, windowOf } from './listWindow.ts';
import type { IdbStore } from './idbStore.ts';

/** What a ResilientStore stands in front of: the workspace's store, with what only it does. */
export type WorkspaceStore = Store &
  Pick<IdbStore, 'saveBatch' | 'deleteFlow' | 'listFlows' | 'getMeta' | 'putMeta' | 'pruneJournal'>;

/** Whether everything is saved, and if not, why; for the app's warning. */
export type SaveState = { saved: true } | { saved: false; error: string; since: number };

/**
 * A store that never lets a failed write stop a run. When a write fails (the disk is full, a
 * transaction aborted), what it would have written is kept in memory, reads see it, the last
 * save stands in the database, and every later write (or `flush`) first tries to save what is
 * pending. Listeners hear when saving fails and when it works again.
 */
export class ResilientStore implements Store {
  private processes = new Map<string, ProcessRecord>();
  private contexts = new Map<string, ContextRecord>();
  private journalEntries: JournalEntry[] = [];
  private changes: ContextChange[] = [];
  /** A flow saved (or, as null, deleted) while writes failed: the newest word on each id. */
  private flows = new Map<string, Flow | null>();
  private meta = new Map<string, unknown>();
  /** Call progress written (or, as null, deleted) while writes failed, by process and wait. */
  private progress = new Map<
    string,
    { processId: string; seq: number; progress: CallProgress | null }
  >();
  /**
   * What the database held of each process and context this store holds in memory, when it
   * first held it: if another writer (another tab) moves one on meanwhile, what is held of it
   * is dropped at the flush rather than saved over that writer's steps (see `yieldToOthers`).
   */
  private processBase = new Map<string, Promise<string | null>>();
  private contextBase = new Map<string, Promise<number | null>>();
  private versions = new Map<string, { flow: Flow; signature: string }>();
  private state: SaveState = { saved: true };
  private listeners = new Set<(state: SaveState) => void>();

  /** The database's: a journal kept whether or not a write failed. */
  get keepsJournal(): boolean {
    return this.inner.keepsJournal;
  }

  constructor(
    readonly inner: WorkspaceStore,
    private readonly now: () => number = () => Date.now(),
  ) {}

  get saveState(): SaveState {
    return this.state;
  }

  onSaveState(listener: (state: SaveState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private get pending(): boolean {
    return (
      this.processes.size +
        this.contexts.size +
        this.journalEntries.length +
        this.changes.length +
        this.flows.size +
        this.meta.size +
        this.progress.size +
        this.versions.size >
      0
    );
  }

  /** Tries to save everything pending; true when nothing is pending any more. */
  async flush(): Promise<boolean> {
    if (!this.pending) {
      this.setState({ saved: true });
      return true;
    }
    try {
      await this.yieldToOthers();
      await this.inner.saveBatch({
        flows: [...this.flows.values()].filter((f) => f !== null),
        deletedFlows: [...this.flows].filter(([, f]) => f === null).map(([id]) => id),
        meta: [...this.meta],
        versions: [...this.versions.values()],
        contexts: [...this.contexts.values()],
        changes: this.changes,
        processes: [...this.processes.values()],
        journal: this.journalEntries,
        callProgress: [...this.progress.values()],
      });
    } catch (e) {
      this.failed(e);
      return false;
    }
    this.flows.clear();
    this.meta.clear();
    this.progress.clear();
    this.processBase.clear();
    this.contextBase.clear();
    this.versions.clear();
    this.contexts.clear();
    this.processes.clear();
    this.changes = [];
    this.journalEntries = [];
    this.setState({ saved: true });
    return true;
  }

  /**
   * Drops what is held of a process or context that the database no longer holds as it did when
   * this store began holding it: another tab took those steps, and saving this store's as well
   * would run them twice. A process on a context dropped goes with it (its steps read it).
   */
  private async yieldToOthers(): Promise<void> {
    const contexts = new Set<string>();
    for (const [id, base] of this.contextBase) {
      const now = (await this.inner.getContext(id))?.version ?? null;
      if (now !== (await base)) contexts.add(id);
    }
    const processes = new Set<string>();
    for (const [id, base] of this.processBase) {
      const held = this.processes.get(id);
      const now = fingerprint(await this.inner.getProcess(id));
      if (now !== (await base) || (held && contexts.has(held.contextId))) processes.add(id);
    }
    for (const id of contexts) {
      this.contexts.delete(id);
      this.contextBase.delete(id);
    }
    this.changes = this.changes.filter((c) => !contexts.has(c.contextId));
    for (const id of processes) {
      this.processes.delete(id);
      this.processBase.delete(id);
    }
    this.journalEntries = this.journalEntries.filter((e) => !processes.has(e.process));
  }

  private noteContextBase(id: string): void {
    if (!this.contextBase.has(id))
      this.contextBase.set(
        id,
        this.inner.getContext(id).then(
          (c) => c?.version ?? null,
          () => null,
        ),
      );
  }

  private setState(state: SaveState) {
    const changed = state.saved !== this.state.saved;
    this.state = state;
    if (changed) for (const l of this.listeners) l(state);
  }

  private failed(e: unknown) {
    const name = e instanceof Error || e instanceof DOMException ? e.name : 'Error';
    const reason =
      name === 'QuotaExceededError'
        ? 'the disk is full (QuotaExceededError)'
        : `a write failed (${name}: ${e instanceof Error ? e.message : String(e)})`;
    const error = `Changes are not being saved: ${reason}. Processes keep running in this tab; wakeflow saves again as soon as it can.`;
    this.setState({ saved: false, error, since: this.state.saved ? this.now() : this.state.since });
  }

  /** Runs a write on the database, or keeps it in memory when the database refuses it. */
  private async write(save: () => Promise<void>, keep: () => void): Promise<void> {
    if (await this.flush()) {
      try {
        await save();
        return;
      } catch (e) {
        this.failed(e);
      }
    }
    keep();
  }

  async getFlow(id: string) {
    if (this.flows.has(id)) return this.flows.get(id) ?? undefined;
    return this.inner.getFlow(id);
  }
  /** Every flow of the workspace, those saved or deleted while writes failed included. */
  async listFlows(): Promise<Flow[]> {
    const stored = new Map((await this.inner.listFlows()).map((f) => [f.id, f]));
    for (const [id, f] of this.flows) {
      if (f === null) stored.delete(id);
      else stored.set(id, f);
    }
    return [...stored.values()];
  }
  /** Deletes a workspace flow; while writes fail, kept as a deletion saved with the rest. */
  deleteFlow(id: string) {
    return this.write(
      () => this.inner.deleteFlow(id),
      () => this.flows.set(id, null),
    );
  }
  async getMeta(key: string) {
    return this.meta.has(key) ? this.meta.get(key) : this.inner.getMeta(key);
  }
  putMeta(key: string, value: unknown) {
    return this.write(
      () => this.inner.putMeta(key, value),
      () => this.meta.set(key, structuredClone(value)),
    );
  }
  putFlow(flow: Flow) {
    return this.write(
      () => this.inner.putFlow(flow),
      () => this.flows.set(flow.id, structuredClone(flow)),
    );
  }
  async getFlowVersion(id: string, signature: string) {
    return (
      this.versions.get(`${id}\u0000${signature}`)?.flow ?? this.inner.getFlowVersion(id, signature)
    );
  }
  putFlowVersion(flow: Flow, signature: string) {
    return this.write(
      () => this.inner.putFlowVersion(flow, signature),
      () =>
        this.versions.set(`${flow.id}\u0000${signature}`, {
          flow: structuredClone(flow),
          signature,
        }),
    );
  }

  async getContext(id: string) {
    return structuredClone(this.contexts.get(id)) ?? this.inner.getContext(id);
  }
  async putContext(record: ContextRecord, expectedVersion: number | null, change?: ContextChange) {
    const current = await this.getContext(record.id);
    if ((current?.version ?? null) !== expectedVersion) return false;
    let ok = true;
    await this.write(
      async () => {
        ok = await this.inner.putContext(record, expectedVersion, change);
      },
      () => {
        this.noteContextBase(record.id);
        this.contexts.set(record.id, structuredClone(record));
        if (change) this.changes.push(structuredClone(change));
      },
    );
    return ok;
  }
  async contextChanges(contextId: string) {
    return [
      ...(await this.inner.contextChanges(contextId)),
      ...this.changes.filter((c) => c.contextId === contextId),
    ];
  }

  async getProcess(id: string) {
    return structuredClone(this.processes.get(id)) ?? this.inner.getProcess(id);
  }
  putProcess(record: ProcessRecord, journal: JournalEntry[] = []) {
    return this.write(
      () => this.inner.putProcess(record, journal),
      () => this.keepProcess(record, journal),
    );
  }
  async loadProcess(id: string): Promise<LoadedProcess | undefined> {
    // What is kept in memory is newer than the database: then read through this store's getters.
    if (!this.pending) return this.inner.loadProcess(id);
    const record = await this.getProcess(id);
    if (!record) return undefined;
    const roots = [record.flow, ...scopeFlowIds(record.snapshot.scope)];
    const flows = await loadFlowSet(roots, (f) => this.getFlow(f));
    return { record, flows, context: await this.getContext(record.contextId) };
  }
  async listProcesses() {
    const stored = await this.inner.listProcesses();
    const merged = new Map(stored.map((p) => [p.id, p]));
    for (const p of this.processes.values()) merged.set(p.id, structuredClone(p));
    return [...merged.values()].sort((a, b) => a.created - b.created);
  }
  async runningProcesses() {
    if (!this.pending) return this.inner.runningProcesses();
    return (await this.listProcesses()).filter((p) => p.status === 'running');
  }
  async dueProcesses(until: number) {
    // With nothing kept in memory the database's due index answers alone: no read of every process.
    if (!this.pending) return this.inner.dueProcesses(until);
    return (await this.listProcesses())
      .filter((p) => p.status === 'waiting' && p.due !== null && p.due <= until)
      .sort((a, b) => a.due! - b.due! || a.created - b.created);
  }

  async listDue(upTo: number, limit?: number) {
    if (!this.pending) return this.inner.listDue(upTo, limit);
    return (await this.dueProcesses(upTo)).slice(0, limit);
  }
  async nextDueAt() {
    if (!this.pending) return this.inner.nextDueAt();
    return (await this.dueProcesses(Infinity))[0]?.due ?? null;
  }
  async waitersFor(name: string) {
    if (!this.pending) return this.inner.waitersFor(name);
    // What is held in memory is newer than the index: held records are asked directly.
    const merged = new Map((await this.inner.waitersFor(name)).map((p) => [p.id, p]));
    for (const p of this.processes.values()) {
      merged.delete(p.id);
      const names = p.waitsFor ?? [UNKNOWN_WAITS];
      if (p.status === 'waiting' && (names.includes(name) || names.includes(UNKNOWN_WAITS)))
        merged.set(p.id, structuredClone(p));
    }
    return [...merged.values()].sort((a, b) => a.created - b.created);
  }
  async processPage(afterCreated: number | null, limit: number) {
    if (!this.pending) return this.inner.processPage(afterCreated, limit);
    const all = await this.listProcesses();
    return all.filter((p) => afterCreated === null || p.created > afterCreated).slice(0, limit);
  }
  async processWindow(query: WindowQuery) {
    if (!this.pending) return this.inner.processWindow(query);
    return windowOf(await this.listProcesses(), query);
  }
  async processNames() {
    if (!this.pending) return this.inner.processNames();
    return (await this.listProcesses()).map((p) => ({ id: p.id, flow: p.flow }));
  }
  async countProcesses(flow?: string, search?: ProcessSearch) {
    if (!this.pending) return this.inner.countProcesses(flow, search);
    return countsOf(await this.listProcesses(), flow, search);
  }
  async lastCreated() {
    const stored = await this.inner.lastCreated();
    let last = stored;
    for (const p of this.processes.values())
      if (last === null || p.created > last) last = p.created;
    return last;
  }

  async commitStep(commit: StepCommit) {
    // With nothing kept in memory, the database's compare-and-set inside the step's transaction
    // is the only check needed: no read of the context before it (a request per step saved).
    if (!this.pending) {
      try {
        return await this.inner.commitStep(commit);
      } catch (e) {
        // Nothing of it was written (a transaction commits whole): keep it, checked as below.
        this.failed(e);
        if (!(await this.expected(commit))) return false;
        this.keepStep(commit);
        return true;
      }
    }
    if (!(await this.expected(commit))) return false;
    let ok = true;
    await this.write(
      async () => {
        ok = await this.inner.commitStep(commit);
      },
      () => this.keepStep(commit),
    );
    return ok;
  }

  /** Whether the step's context is still at the version the step read. */
  private async expected(commit: StepCommit): Promise<boolean> {
    const current = await this.getContext(commit.context.id);
    return current?.version === commit.context.expectedVersion;
  }

  private keepStep(commit: StepCommit): void {
    const { write } = commit.context;
    if (write) {
      this.noteContextBase(commit.context.id);
      this.contexts.set(commit.context.id, {
        id: commit.context.id,
        version: commit.context.expectedVersion + (write.versions ?? write.changes.length),
        value: structuredClone(write.value),
      });
      this.changes.push(...structuredClone(write.changes));
    }
    this.keepProcess(commit.process, commit.journal);
  }
  async journal(processId: string) {
    return [
      ...(await this.inner.journal(processId)),
      ...this.journalEntries.filter((e) => e.process === processId),
    ];
  }

  /** The journal's retention rule (IdbStore.pruneJournal); not while anything is held in memory. */
  async pruneJournal(processId: string, keepPasses: number): Promise<number> {
    if (this.pending) return 0;
    try {
      return await this.inner.pruneJournal(processId, keepPasses);
    } catch (e) {
      // Nothing was lost: the journal is as it was, and is summed up on a later pass.
      this.failed(e);
      return 0;
    }
  }

  /** The database's rows with what is held in memory over them (newer than any saved). */
  async listCallProgress(processId: string): Promise<CallProgress[]> {
    const rows = new Map((await this.inner.listCallProgress(processId)).map((p) => [p.seq, p]));
    for (const held of this.progress.values()) {
      if (held.processId !== processId) continue;
      if (held.progress) rows.set(held.seq, structuredClone(held.progress));
      else rows.delete(held.seq);
    }
    return [...rows.values()].sort((a, b) => a.seq - b.seq);
  }
  putCallProgress(processId: string, progress: CallProgress) {
    return this.write(
      () => this.inner.putCallProgress(processId, progress),
      () =>
        this.progress.set(progressKey(processId, progress.seq), {
          processId,
          seq: progress.seq,
          progress: structuredClone(progress),
        }),
    );
  }
  deleteCallProgress(processId: string, seq: number) {
    return this.write(
      () => this.inner.deleteCallProgress(processId, seq),
      () => this.progress.set(progressKey(processId, seq), { processId, seq, progress: null }),
    );
  }

  /** The newest entries, those kept in memory (newer than any saved) first. */
  async journalPage(processId: string, limit: number): Promise<JournalPage> {
    const kept = this.journalEntries.filter((e) => e.process === processId).reverse();
    if (kept.length >= limit) return { entries: kept.slice(0, limit), more: true };
    const rest = limit - kept.length;
    const stored = await this.inner.journalPage(processId, rest);
    return { entries: [...kept, ...stored.entries], more: stored.more };
  }

  private keepProcess(record: ProcessRecord, journal: JournalEntry[]) {
    if (!this.processBase.has(record.id))
      this.processBase.set(
        record.id,
        this.inner.getProcess(record.id).then(fingerprint, () => null),
      );
    this.processes.set(record.id, structuredClone(record));
    this.journalEntries.push(...structuredClone(journal));
  }
}

const progressKey = (processId: string, seq: number) => `${processId}\u0000${seq}`;

/** Enough of a process record to tell whether anyone stepped it: every step moves one of these. */
function fingerprint(p: ProcessRecord | undefined): string | null {
  return p
    ? `${p.snapshot.seq}/${p.status}/${p.wakes ?? 0}/${p.snapshot.scope.ready.length}`
    : null;
}
