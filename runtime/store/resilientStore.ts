import type { Flow } from '../../shared/schema.ts';
import type {
  ContextChange,
  ContextRecord,
  JournalEntry,
  ProcessRecord,
} from '../supervisor/records.ts';
import { loadFlowSet, scopeFlowIds } from '../supervisor/flowSet.ts';
import type { LoadedProcess, StepCommit, Store } from '../supervisor/store.ts';
import type { SaveBatch } from './idbStore.ts';

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
  private flows = new Map<string, Flow>();
  private versions = new Map<string, { flow: Flow; signature: string }>();
  private state: SaveState = { saved: true };
  private listeners = new Set<(state: SaveState) => void>();

  constructor(
    readonly inner: Store & { saveBatch(batch: SaveBatch): Promise<void> },
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
      await this.inner.saveBatch({
        flows: [...this.flows.values()],
        versions: [...this.versions.values()],
        contexts: [...this.contexts.values()],
        changes: this.changes,
        processes: [...this.processes.values()],
        journal: this.journalEntries,
      });
    } catch (e) {
      this.failed(e);
      return false;
    }
    this.flows.clear();
    this.versions.clear();
    this.contexts.clear();
    this.processes.clear();
    this.changes = [];
    this.journalEntries = [];
    this.setState({ saved: true });
    return true;
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
    return this.flows.get(id) ?? this.inner.getFlow(id);
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
    if (!this.pending && this.inner.loadProcess) return this.inner.loadProcess(id);
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
  async dueProcesses(until: number) {
    // With nothing kept in memory the database's due index answers alone: no read of every process.
    if (!this.pending) return this.inner.dueProcesses(until);
    return (await this.listProcesses())
      .filter((p) => p.status === 'waiting' && p.due !== null && p.due <= until)
      .sort((a, b) => a.due! - b.due! || a.created - b.created);
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
      this.contexts.set(commit.context.id, {
        id: commit.context.id,
        version: commit.context.expectedVersion + write.changes.length,
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

  private keepProcess(record: ProcessRecord, journal: JournalEntry[]) {
    this.processes.set(record.id, structuredClone(record));
    this.journalEntries.push(...structuredClone(journal));
  }
}
