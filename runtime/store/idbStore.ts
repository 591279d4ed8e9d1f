import type { IDBPDatabase, IDBPTransaction, StoreNames } from 'idb';
import type { Flow } from '../../shared/schema.ts';
import type {
  ContextChange,
  ContextRecord,
  JournalEntry,
  ProcessRecord,
} from '../supervisor/records.ts';
import { loadFlowSet, scopeFlowIds } from '../supervisor/flowSet.ts';
import type { LoadedProcess, StepCommit, Store } from '../supervisor/store.ts';
import { openWorkspaceDb, type OpenOptions } from './openWorkspaceDb.ts';
import type { WorkspaceDb } from './schema.ts';
import { toStorable } from './storable.ts';

/**
 * The store on IndexedDB. Each write is one transaction; a step's context, process and journal
 * entries commit together or not at all, and nothing but IndexedDB is awaited inside one
 * (a transaction closes when control returns to the event loop).
 */
export class IdbStore implements Store {
  private constructor(readonly db: IDBPDatabase<WorkspaceDb>) {}

  static async open(name: string, options: OpenOptions = {}): Promise<IdbStore> {
    return new IdbStore(await openWorkspaceDb(name, options));
  }

  close(): void {
    this.db.close();
  }

  getFlow(id: string) {
    return this.db.get('flows', id);
  }
  async putFlow(flow: Flow) {
    await this.write(['flows'], (tx) => tx.objectStore('flows').put(flow));
  }
  async deleteFlow(id: string) {
    await this.write(['flows'], (tx) => tx.objectStore('flows').delete(id));
  }
  listFlows() {
    return this.db.getAll('flows');
  }
  async getFlowVersion(id: string, signature: string) {
    return (await this.db.get('flowVersions', [id, signature]))?.flow;
  }
  async putFlowVersion(flow: Flow, signature: string) {
    await this.write(['flowVersions'], (tx) =>
      tx.objectStore('flowVersions').put({ id: flow.id, signature, flow }),
    );
  }

  getContext(id: string) {
    return this.db.get('contexts', id);
  }
  putContext(record: ContextRecord, expectedVersion: number | null, change?: ContextChange) {
    return this.write(['contexts', 'contextChanges'], async (tx) => {
      const current = await tx.objectStore('contexts').get(record.id);
      if ((current?.version ?? null) !== expectedVersion) return false;
      await tx.objectStore('contexts').put({ ...record, value: toStorable(record.value) });
      if (change) await tx.objectStore('contextChanges').add(storableChange(change));
      return true;
    });
  }
  contextChanges(contextId: string) {
    return this.db.getAllFromIndex('contextChanges', 'by-context', contextId);
  }

  getProcess(id: string) {
    return this.db.get('processes', id);
  }
  putProcess(record: ProcessRecord, journal: JournalEntry[] = []) {
    return this.write(['processes', 'journal'], async (tx) => {
      await tx.objectStore('processes').put(storableProcess(record));
      for (const entry of journal)
        await tx.objectStore('journal').add(toStorable(entry) as JournalEntry);
    });
  }
  /**
   * Loads asked for while a load's transaction runs go together into the next one, as commits
   * do: the due wakes of a round read in a few transactions, not one each.
   */
  loadProcess(id: string): Promise<LoadedProcess | undefined> {
    return this.loads.ask(id);
  }

  private readonly loads = new Batcher<string, LoadedProcess | undefined>(async (ids) => {
    // Read-only, and only IndexedDB requests are awaited inside, so the transaction stays open.
    const tx = this.db.transaction(['processes', 'flows', 'contexts'], 'readonly');
    return Promise.all(
      ids.map(async (id) => {
        const record = await tx.objectStore('processes').get(id);
        if (!record) return undefined;
        const roots = [record.flow, ...scopeFlowIds(record.snapshot.scope)];
        const flows = await loadFlowSet(roots, (f) => tx.objectStore('flows').get(f));
        const context = await tx.objectStore('contexts').get(record.contextId);
        return { record, flows, context };
      }),
    );
  });

  async listProcesses() {
    const all = await this.db.getAll('processes');
    return all.sort((a, b) => a.created - b.created);
  }
  async dueProcesses(until: number) {
    const due = await this.db.getAllFromIndex('processes', 'by-due', IDBKeyRange.upperBound(until));
    return due
      .filter((p) => p.status === 'waiting')
      .sort((a, b) => a.due! - b.due! || a.created - b.created);
  }

  /**
   * Commits asked for while a commit transaction runs wait for it and then go together in the
   * next one (several due wakes share a transaction). Each commit's compare-and-set is its own:
   * one that finds its context moved on writes nothing and answers false, the others go on. A
   * request that fails aborts the transaction, and every commit in it answers with the error.
   */
  commitStep(commit: StepCommit): Promise<boolean> {
    return this.commits.ask(commit);
  }

  private readonly commits = new Batcher<StepCommit, boolean>((batch) => {
    const stores: StoreName[] = ['contexts', 'processes', 'journal', 'contextChanges'];
    return this.write(stores, async (tx) => {
      const out: boolean[] = [];
      for (const commit of batch) out.push(await commitIn(tx, commit));
      return out;
    });
  });

  journal(processId: string) {
    return this.db.getAllFromIndex('journal', 'by-process', processId);
  }

  /**
   * Writes a batch in one transaction, contexts as given (no compare-and-set): how a tab saves
   * what it had to keep in memory while the database refused writes.
   */
  saveBatch(batch: SaveBatch) {
    const stores: StoreName[] = [
      'flows',
      'flowVersions',
      'contexts',
      'processes',
      'journal',
      'contextChanges',
    ];
    return this.write(stores, async (tx) => {
      for (const f of batch.flows) await tx.objectStore('flows').put(f);
      for (const { flow, signature } of batch.versions) {
        await tx.objectStore('flowVersions').put({ id: flow.id, signature, flow });
      }
      for (const c of batch.contexts)
        await tx.objectStore('contexts').put({ ...c, value: toStorable(c.value) });
      for (const c of batch.changes) await tx.objectStore('contextChanges').add(storableChange(c));
      for (const p of batch.processes) await tx.objectStore('processes').put(storableProcess(p));
      for (const e of batch.journal)
        await tx.objectStore('journal').add(toStorable(e) as JournalEntry);
    });
  }

  /**
   * The one way this store writes: `body` runs in a read-write transaction over `stores` and the
   * result counts only once the transaction commits. If a request fails, the transaction is
   * aborted (so nothing of it is written) and the error is thrown to the caller, never left as an
   * unhandled rejection.
   */
  private async write<T>(stores: StoreName[], body: (tx: WriteTx) => Promise<T>): Promise<T> {
    // Relaxed: committed once the operating system has the data, not after a flush to disk. A
    // reload, a closed tab or a crashed browser loses nothing; only an OS crash or power loss in
    // the next moments could. Firefox commits so by default; in Chromium a strict commit costs
    // a disk flush per step (docs/persistence.md).
    const tx = this.db.transaction(stores, 'readwrite', { durability: 'relaxed' });
    try {
      const result = await body(tx);
      await tx.done;
      return result;
    } catch (e) {
      tx.done.catch(() => {});
      try {
        tx.abort();
      } catch {
        // Already finished or aborted by the failed request.
      }
      throw e;
    }
  }

  getMeta(key: string) {
    return this.db.get('meta', key);
  }
  async putMeta(key: string, value: unknown) {
    await this.write(['meta'], (tx) => tx.objectStore('meta').put(toStorable(value), key));
  }
}

type StoreName = StoreNames<WorkspaceDb>;

/**
 * Requests asked for while a batch of them runs wait for it and then go together into the next
 * one; those asked for in the same turn as the first join it. `run` answers a batch in order,
 * or fails, and then every request of the batch fails with its error.
 */
class Batcher<I, O> {
  private readonly queue: { input: I; resolve: (o: O) => void; reject: (e: unknown) => void }[] =
    [];
  private running = false;

  constructor(private readonly run: (inputs: I[]) => Promise<O[]>) {}

  ask(input: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.queue.push({ input, resolve, reject });
      if (!this.running) void this.drain();
    });
  }

  private async drain() {
    this.running = true;
    await Promise.resolve();
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0);
      try {
        const out = await this.run(batch.map((b) => b.input));
        batch.forEach((b, i) => b.resolve(out[i]!));
      } catch (e) {
        for (const b of batch) b.reject(e);
      }
    }
    this.running = false;
  }
}

/** One commit inside a transaction: its compare-and-set, then its writes. */
async function commitIn(tx: WriteTx, { process, context, journal }: StepCommit) {
  const contexts = tx.objectStore('contexts');
  const current = await contexts.get(context.id);
  if (current?.version !== context.expectedVersion) return false;
  if (context.write) {
    const { value, changes } = context.write;
    const version = context.expectedVersion + changes.length;
    await contexts.put({ id: context.id, version, value: toStorable(value) });
    for (const change of changes)
      await tx.objectStore('contextChanges').add(storableChange(change));
  }
  await tx.objectStore('processes').put(storableProcess(process));
  for (const entry of journal)
    await tx.objectStore('journal').add(toStorable(entry) as JournalEntry);
  return true;
}
type WriteTx = IDBPTransaction<WorkspaceDb, StoreName[], 'readwrite'>;

/** What a tab kept in memory while saving failed, saved together later. */
export interface SaveBatch {
  flows: Flow[];
  versions: { flow: Flow; signature: string }[];
  contexts: ContextRecord[];
  changes: ContextChange[];
  processes: ProcessRecord[];
  journal: JournalEntry[];
}

const storableChange = (c: ContextChange) => toStorable(c) as ContextChange;
const storableProcess = (p: ProcessRecord) => toStorable(p) as ProcessRecord;
