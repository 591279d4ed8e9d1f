import { unwrap, type IDBPDatabase, type IDBPTransaction, type StoreNames } from 'idb';
import type { Flow } from '../../shared/schema.ts';
import type { CallProgress } from '../calls/callProgress.ts';
import type {
  ContextChange,
  ContextRecord,
  JournalEntry,
  ProcessRecord,
} from '../supervisor/records.ts';
import { PROCESS_STATUSES, UNKNOWN_WAITS } from '../supervisor/records.ts';
import { loadFlowSet, scopeFlowIds } from '../supervisor/flowSet.ts';
import type {
  JournalPage,
  LoadedProcess,
  ProcessCounts,
  StepCommit,
  Store,
  ProcessOrderBy,
  ProcessSearch,
  WindowQuery,
} from '../supervisor/store.ts';
import { countsOf, searchText, windowOf, type ListedFields } from './listWindow.ts';
import { openWorkspaceDb, type OpenOptions } from './openWorkspaceDb.ts';
import type { StoredCallProgress, WorkspaceDb } from './schema.ts';
import {
  CALL_PROGRESS,
  CONTEXT,
  CONTEXT_CHANGE,
  DamagedRecordError,
  FLOW,
  FLOW_VERSION,
  JOURNAL_RECORD,
  PROCESS,
  restore,
  restoreSetting,
  stamp,
  storedSetting,
  type RecordProblem,
  type RecordType,
} from './restore.ts';
import { toStorable } from './storable.ts';
import { journalRecords, keptPart, type JournalRecord, type SeqEntry } from './journalRecords.ts';

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

  readonly keepsJournal = true;

  /** Records that could not be restored, by store and key: reported once each. */
  private readonly problems = new Map<string, RecordProblem>();
  private readonly damageListeners = new Set<(problem: RecordProblem) => void>();

  /** Every record read so far that could not be restored (docs/persistence.md). */
  damaged(): RecordProblem[] {
    return [...this.problems.values()];
  }
  /** Told of each record that cannot be restored, the first time it is read. */
  onDamaged(listener: (problem: RecordProblem) => void): () => void {
    this.damageListeners.add(listener);
    return () => this.damageListeners.delete(listener);
  }
  private report(problem: RecordProblem) {
    const key = problemKey(problem.store, problem.key);
    if (this.problems.has(key)) return;
    this.problems.set(key, problem);
    for (const l of this.damageListeners) l(problem);
  }
  /** One record asked for by its key: restored, or a DamagedRecordError naming it. */
  private one<T>(type: RecordType, store: string, key: unknown, raw: unknown): T | undefined {
    if (raw === undefined) return undefined;
    const restored = restore<T>(type, store, key, raw);
    if (restored.ok) return restored.value;
    this.report(restored.problem);
    throw new DamagedRecordError(restored.problem);
  }
  /** Records of a listing: those that cannot be restored are reported and left out. */
  private many<T>(
    type: RecordType,
    store: string,
    raws: unknown[],
    keyOf: (raw: T) => unknown,
  ): T[] {
    const out: T[] = [];
    for (const raw of raws) {
      const restored = restore<T>(type, store, isRecord(raw) ? keyOf(raw as T) : undefined, raw);
      if (restored.ok) out.push(restored.value);
      else this.report(restored.problem);
    }
    return out;
  }

  private readProcess(raw: unknown): ProcessRecord {
    const key = isRecord(raw) ? raw.id : undefined;
    const { waitsFor, ...rest } = this.one<ProcessRecord>(PROCESS, 'processes', key, raw)!;
    // Unknown is how a record given without the list is stored: handed back as it was given.
    return waitsFor && !(waitsFor.length === 1 && waitsFor[0] === UNKNOWN_WAITS)
      ? { ...rest, waitsFor }
      : rest;
  }
  /** Processes of a listing: one that cannot be restored is reported and left out. */
  private readProcesses(raws: unknown[]): ProcessRecord[] {
    const out: ProcessRecord[] = [];
    for (const raw of raws) {
      try {
        out.push(this.readProcess(raw));
      } catch (e) {
        if (!(e instanceof DamagedRecordError)) throw e;
      }
    }
    return out;
  }

  async getFlow(id: string) {
    return this.one<Flow>(FLOW, 'flows', id, await this.db.get('flows', id));
  }
  async putFlow(flow: Flow) {
    await this.write(['flows'], (tx) => tx.objectStore('flows').put(stamp(FLOW, flow)));
  }
  async deleteFlow(id: string) {
    await this.write(['flows'], (tx) => tx.objectStore('flows').delete(id));
  }
  async listFlows() {
    return this.many<Flow>(FLOW, 'flows', await this.db.getAll('flows'), (f) => f.id);
  }
  async getFlowVersion(id: string, signature: string) {
    const raw = await this.db.get('flowVersions', [id, signature]);
    return this.one<StoredVersion>(FLOW_VERSION, 'flowVersions', [id, signature], raw)?.flow;
  }
  async putFlowVersion(flow: Flow, signature: string) {
    await this.write(['flowVersions'], (tx) =>
      tx.objectStore('flowVersions').put(storableVersion(flow, signature)),
    );
  }

  async getContext(id: string) {
    return this.one<ContextRecord>(CONTEXT, 'contexts', id, await this.db.get('contexts', id));
  }
  putContext(record: ContextRecord, expectedVersion: number | null, change?: ContextChange) {
    return this.write(['contexts', 'contextChanges'], async (tx) => {
      const current = await tx.objectStore('contexts').get(record.id);
      if ((current?.version ?? null) !== expectedVersion) return false;
      await tx.objectStore('contexts').put(storableContext(record));
      if (change) await tx.objectStore('contextChanges').add(storableChange(change));
      return true;
    });
  }
  async contextChanges(contextId: string) {
    const raws = await this.db.getAllFromIndex('contextChanges', 'by-context', contextId);
    return this.many<Seq<ContextChange>>(CONTEXT_CHANGE, 'contextChanges', raws, seqOf);
  }

  async getProcess(id: string) {
    const raw = await this.db.get('processes', id);
    return raw === undefined ? undefined : this.readProcess(raw);
  }
  putProcess(record: ProcessRecord, journal: JournalEntry[] = []) {
    return this.write(['processes', 'journal'], async (tx) => {
      await tx.objectStore('processes').put(storableProcess(record));
      await appendJournal(unwrap(tx.objectStore('journal')), journal);
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
    // The requests are the database's own (`request`): a batch makes thousands, and idb's
    // wrapper costs a proxy, two listeners and a promise chain on each.
    const tx = unwrap(this.db.transaction(['processes', 'flows', 'contexts'], 'readonly'));
    const processes = tx.objectStore('processes');
    const contexts = tx.objectStore('contexts');
    // The processes of a batch mostly run the same flows: each is read and restored once per
    // transaction (which sees one state of the store), not once per process.
    const flows = new Map<string, Promise<Flow | undefined>>();
    const flowOf = (f: string) => {
      let flow = flows.get(f);
      if (!flow) {
        flow = request(tx.objectStore('flows').get(f)).then((raw) =>
          this.one<Flow>(FLOW, 'flows', f, raw),
        );
        // A damaged flow fails every load that runs on it, each on its own.
        flow.catch(() => {});
        flows.set(f, flow);
      }
      return flow;
    };
    // Each load answers on its own: a damaged record fails the load that reads it, no other.
    return Promise.allSettled(
      ids.map(async (id) => {
        const raw = await request(processes.get(id));
        if (!raw) return undefined;
        const record = this.readProcess(raw);
        try {
          const roots = [record.flow, ...scopeFlowIds(record.snapshot.scope)];
          const [set, rawContext] = await Promise.all([
            loadFlowSet(roots, flowOf),
            request(contexts.get(record.contextId)),
          ]);
          const context = this.one<ContextRecord>(
            CONTEXT,
            'contexts',
            record.contextId,
            rawContext,
          );
          return { record, flows: set, context };
        } catch (e) {
          // The process reads, what it runs on does not: the wake says so (LoadedProcess.damaged).
          if (!(e instanceof DamagedRecordError)) throw e;
          return { record, flows: new Map(), context: undefined, damaged: e.problem };
        }
      }),
    );
  });

  async listProcesses() {
    return this.readProcesses(await this.db.getAllFromIndex('processes', 'by-created'));
  }
  async runningProcesses() {
    const running = await this.db.getAllFromIndex(
      'processes',
      'by-status-created',
      statusRange('running'),
    );
    return this.readProcesses(running).sort((a, b) => a.created - b.created);
  }
  dueProcesses(until: number) {
    return this.listDue(until);
  }
  /** Along `by-wake` ([status, due, created]): the range holds only waiting processes, in order. */
  async listDue(upTo: number, limit?: number) {
    return this.readProcesses(
      await this.db.getAllFromIndex('processes', 'by-wake', dueRange(upTo), limit),
    );
  }
  async nextDueAt() {
    const tx = this.db.transaction('processes', 'readonly');
    let cursor = await tx.store.index('by-wake').openKeyCursor(dueRange(Infinity));
    // A record found damaged is never woken, so its due time is not the next one.
    while (cursor && this.problems.has(problemKey('processes', cursor.primaryKey)))
      cursor = await cursor.continue();
    return cursor ? cursor.key[1] : null;
  }
  async waitersFor(name: string) {
    const tx = this.db.transaction('processes', 'readonly');
    const index = tx.store.index('by-waits-for');
    const [named, unknown] = await Promise.all([
      index.getAll(name),
      name === UNKNOWN_WAITS ? [] : index.getAll(UNKNOWN_WAITS),
    ]);
    return this.readProcesses([...named, ...unknown])
      .filter((p) => p.status === 'waiting')
      .sort((a, b) => a.created - b.created);
  }
  async processPage(afterCreated: number | null, limit: number) {
    const range = afterCreated === null ? null : IDBKeyRange.lowerBound(afterCreated, true);
    return this.readProcesses(
      await this.db.getAllFromIndex('processes', 'by-created', range, limit),
    );
  }
  /**
   * In order of creation, along `by-created`, or `by-status-created` for one status: a key
   * cursor skips the first `offset` entries (reading no record), and the window is read from the
   * key it lands on (backwards, a cursor reads the window's records one by one). A flow's
   * processes of one status (`by-flow-status`) are few and read whole. Any other order, and a
   * search, are answered from the fields of every process (`listedFields`), and then only the
   * window's records are read.
   */
  async processWindow(query: WindowQuery) {
    const { offset, limit, status, flow } = query;
    if (limit <= 0) return [];
    if (status !== undefined && flow !== undefined) {
      const raws = await this.db.getAllFromIndex('processes', 'by-flow-status', [flow, status]);
      return windowOf(this.readProcesses(raws), query);
    }
    if (flow !== undefined) throw new Error('a window of one flow names a status too');
    const by = query.order?.by ?? 'created';
    if (by !== 'created' || searchText(query.search) !== undefined) {
      const { rows, records } = await this.listedFields(by);
      const window = windowOf(rows, query);
      if (records) return window as ProcessRecord[];
      const tx = this.db.transaction('processes', 'readonly');
      const raws = await Promise.all(window.map((p) => tx.store.get(p.id)));
      return this.readProcesses(raws.filter((raw) => raw !== undefined));
    }
    // IndexedDB takes a count as an unsigned long: no count is "all".
    const count = Number.isFinite(limit) ? limit : undefined;
    const tx = this.db.transaction('processes', 'readonly');
    if (query.order?.desc) {
      const index = status === undefined ? tx.store.index('by-created') : undefined;
      let cursor = index
        ? await index.openCursor(null, 'prev')
        : await tx.store.index('by-status-created').openCursor(statusRange(status!), 'prev');
      if (cursor && offset > 0) cursor = await cursor.advance(offset);
      const raws: unknown[] = [];
      while (cursor && raws.length < limit) {
        raws.push(cursor.value);
        cursor = await cursor.continue();
      }
      return this.readProcesses(raws);
    }
    if (status === undefined) {
      const index = tx.store.index('by-created');
      let cursor = await index.openKeyCursor();
      if (cursor && offset > 0) cursor = await cursor.advance(offset);
      if (!cursor) return [];
      return this.readProcesses(await index.getAll(IDBKeyRange.lowerBound(cursor.key), count));
    }
    const index = tx.store.index('by-status-created');
    let cursor = await index.openKeyCursor(statusRange(status));
    if (cursor && offset > 0) cursor = await cursor.advance(offset);
    if (!cursor) return [];
    const from = IDBKeyRange.bound(cursor.key, [status, Infinity]);
    return this.readProcesses(await index.getAll(from, count));
  }
  /**
   * What an order or a search compares of every process, read once per query. The id, flow and
   * status come from index keys alone (`by-created`'s keys in order of creation, whose place
   * stands for `created`, and `by-flow-status`'s, one request per flow and status): no record.
   * Sorting by due time adds a key cursor over `by-wake` (one step per process with a due time,
   * still no record); by wakes, which no index holds, reads every record (`records`).
   */
  private async listedFields(
    by: ProcessOrderBy,
  ): Promise<{ rows: ListedFields[]; records?: boolean }> {
    if (by === 'wakes') return { rows: await this.listProcesses(), records: true };
    const tx = this.db.transaction('processes', 'readonly');
    const byFlow = tx.store.index('by-flow-status');
    const order = tx.store.index('by-created').getAllKeys();
    const lists: Promise<{ key: [string, string]; ids: string[] }>[] = [];
    let cursor = await byFlow.openKeyCursor(null, 'nextunique');
    while (cursor) {
      const key = cursor.key;
      lists.push(byFlow.getAllKeys(key).then((ids) => ({ key, ids })));
      cursor = await cursor.continue();
    }
    const due = new Map<string, number>();
    if (by === 'due') {
      let wake = await tx.store.index('by-wake').openKeyCursor();
      while (wake) {
        due.set(wake.primaryKey, wake.key[1]);
        wake = await wake.continue();
      }
    }
    const fields = new Map<string, [string, ProcessRecord['status']]>();
    for (const { key, ids } of await Promise.all(lists))
      for (const id of ids) fields.set(id, [key[0], key[1] as ProcessRecord['status']]);
    const rows: ListedFields[] = [];
    (await order).forEach((id, created) => {
      const known = fields.get(id);
      // A record known to be damaged is left out, as a listing leaves it out.
      if (!known || this.problems.has(problemKey('processes', id))) return;
      rows.push({ id, flow: known[0], status: known[1], created, due: due.get(id) ?? null });
    });
    return { rows };
  }
  /**
   * Every process by id and flow, oldest first, from the indexes alone: the ids in order of
   * creation (`by-created`'s keys), and each flow's ids (`by-flow-status`, one request per flow
   * and status found). No process record is read, however many exist.
   */
  async processNames() {
    const tx = this.db.transaction('processes', 'readonly');
    const byFlow = tx.store.index('by-flow-status');
    const order = tx.store.index('by-created').getAllKeys();
    const lists: Promise<{ flow: string; ids: string[] }>[] = [];
    let cursor = await byFlow.openKeyCursor(null, 'nextunique');
    while (cursor) {
      const key = cursor.key;
      lists.push(byFlow.getAllKeys(key).then((ids) => ({ flow: key[0], ids })));
      cursor = await cursor.continue();
    }
    const flowOf = new Map<string, string>();
    for (const { flow, ids } of await Promise.all(lists))
      for (const id of ids) flowOf.set(id, flow);
    const names: { id: string; flow: string }[] = [];
    for (const id of await order) {
      const flow = flowOf.get(id);
      // A record known to be damaged is left out, as a listing leaves it out.
      if (flow !== undefined && !this.problems.has(problemKey('processes', id)))
        names.push({ id, flow });
    }
    return names;
  }
  /**
   * Counted along `by-status-created` (or `by-flow-status`): no record is read. A search counts
   * what it finds among every process's id, flow and status, from index keys (`listedFields`).
   */
  async countProcesses(flow?: string, search?: ProcessSearch) {
    if (searchText(search) !== undefined)
      return countsOf((await this.listedFields('created')).rows, flow, search);
    const tx = this.db.transaction('processes', 'readonly');
    const counts: ProcessCounts = { total: 0, byStatus: {} };
    await Promise.all(
      PROCESS_STATUSES.map(async (status) => {
        const n =
          flow === undefined
            ? await tx.store.index('by-status-created').count(statusRange(status))
            : await tx.store.index('by-flow-status').count([flow, status]);
        if (n > 0) counts.byStatus[status] = n;
        counts.total += n;
      }),
    );
    return counts;
  }
  async lastCreated() {
    const tx = this.db.transaction('processes', 'readonly');
    const cursor = await tx.store.index('by-created').openKeyCursor(null, 'prev');
    return cursor ? cursor.key : null;
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

  /** How long a commit asks for writes in one task at most, ms (COMMIT_SLICE_MS; a test's own). */
  commitSliceMs = COMMIT_SLICE_MS;

  private readonly commits = new Batcher<StepCommit, boolean>((batch) => {
    const stores: StoreName[] = ['contexts', 'processes', 'journal', 'contextChanges'];
    const slices = new Slices(this.commitSliceMs);
    return this.write(stores, async (tx) => fulfilled(await commitAll(tx, batch, slices)));
  });

  /** A process's journal records, restored (one that cannot be is reported and left out). */
  private journalRecordsOf(raws: unknown[]): JournalRecord[] {
    return this.many<JournalRecord>(JOURNAL_RECORD, 'journal', raws, seqOf);
  }
  async journal(processId: string): Promise<SeqEntry[]> {
    const raws = await this.db.getAllFromIndex('journal', 'by-process', processId);
    return this.journalRecordsOf(raws).flatMap((r) => r.entries);
  }
  async journalPage(processId: string, limit: number): Promise<JournalPage> {
    // Newest first along the index (equal keys go in key order, and the key is the last seq).
    const tx = this.db.transaction('journal', 'readonly');
    let cursor = await tx.store.index('by-process').openCursor(processId, 'prev');
    const entries: SeqEntry[] = [];
    while (cursor && entries.length < limit) {
      for (const record of this.journalRecordsOf([cursor.value])) {
        const newestFirst = record.entries.slice().reverse();
        const room = limit - entries.length;
        entries.push(...newestFirst.slice(0, room));
        // A record only partly taken has more: its older entries.
        if (newestFirst.length > room) return { entries, more: true };
      }
      cursor = await cursor.continue();
    }
    return { entries, more: cursor !== null };
  }

  /**
   * A process's call progress, wait by wait (one that cannot be restored is reported and left
   * out). Reads asked for while one runs go together into the next transaction, as loads do:
   * a round's hundreds of attempts read their progress in a few transactions, not one each.
   */
  async listCallProgress(processId: string): Promise<CallProgress[]> {
    const raws = await this.progressReads.ask(processId);
    return this.many<StoredCallProgress>(CALL_PROGRESS, 'callProgress', raws, (r) => [
      r.processId,
      r.seq,
    ]).map(({ processId: _id, ...progress }) => progress);
  }
  private readonly progressReads = new Batcher<string, unknown[]>(async (ids) => {
    const rows = unwrap(this.db.transaction('callProgress', 'readonly')).objectStore(
      'callProgress',
    );
    const read = await Promise.all(ids.map((id) => request(rows.getAll(progressRange(id)))));
    return fulfilled(read);
  });

  /**
   * Writes of call progress asked for while one runs go together, in order, into the next
   * transaction, as commits do; a write that fails fails every write of its transaction.
   */
  async putCallProgress(processId: string, progress: CallProgress) {
    await this.progressWrites.ask({
      key: [processId, progress.seq],
      row: storableProgress(processId, progress),
    });
  }
  async deleteCallProgress(processId: string, seq: number) {
    await this.progressWrites.ask({ key: [processId, seq] });
  }
  private readonly progressWrites = new Batcher<{ key: [string, number]; row?: unknown }, void>(
    (batch) =>
      this.write(['callProgress'], async (wrapped) => {
        const rows = unwrap(wrapped).objectStore('callProgress');
        // Asked for without awaiting each: IndexedDB runs them in order, and one that fails
        // aborts the transaction, which `write` throws.
        for (const { key, row } of batch) {
          if (row === undefined) rows.delete(key);
          else rows.put(row);
        }
        return fulfilled(batch.map(() => undefined));
      }),
  );

  /**
   * The journal's retention rule: keeps the entries of the last `keepPasses` passes (from the
   * `keepPasses`-th newest wake on) and sums up the older ones in one `summarized` entry, in the
   * place of the oldest, so that a long loop's journal stays the same size pass after pass. The
   * context's changes from before the kept passes go too. Returns how many entries were summed.
   */
  pruneJournal(processId: string, keepPasses: number): Promise<number> {
    return this.write(['journal', 'contextChanges', 'processes'], async (tx) => {
      // The process's journal in one request, oldest first (equal index keys go in key order),
      // and the deletes asked for without awaiting each: a prune after a batch of hundreds of
      // passes costs a few round trips, not one per entry. A record that cannot be restored is
      // left out, and left as stored.
      const journal = tx.objectStore('journal');
      const records = this.journalRecordsOf(await journal.index('by-process').getAll(processId));
      const entries = records.flatMap((r) => r.entries);
      let wakes = 0;
      let kept = entries.length;
      while (kept > 0 && wakes < keepPasses) {
        if (entries[kept - 1]!.type === 'woke') wakes++;
        kept--;
      }
      // Everything before `kept` is older than the kept passes.
      if (kept === 0) return 0;
      const keptFrom = entries[kept]?.at ?? entries[kept - 1]!.at;
      // The newest entry summed up; a summary (an advance's, made before its commit) ends at its `to`.
      const newest = entries[kept - 1]!;
      const cutoff = newest.type === 'summarized' ? newest.to : newest.at;
      let summary: JournalEntry = {
        type: 'summarized',
        process: processId,
        passes: 0,
        entries: 0,
        from: cutoff,
        to: cutoff,
        at: cutoff,
      };
      for (let i = kept - 1; i >= 0; i--) {
        const e = entries[i]!;
        summary =
          e.type === 'summarized'
            ? {
                ...summary,
                passes: summary.passes + e.passes,
                entries: summary.entries + e.entries,
                from: e.from,
              }
            : {
                ...summary,
                entries: summary.entries + 1,
                from: e.at,
                passes: summary.passes + (e.type === 'woke' ? 1 : 0),
              };
      }
      if (summary.entries === 0) return 0;
      // The records holding only older entries go; the one that holds the cut keeps its newer
      // entries under the same key; the summary takes the oldest entry's seq, before them all.
      const firstKept = entries[kept]?.seq ?? Infinity;
      const pending: Promise<unknown>[] = [];
      for (const r of records) {
        if (r.entries[0]!.seq >= firstKept) break;
        if (r.seq < firstKept) pending.push(journal.delete(r.seq));
        else
          pending.push(
            journal.put(
              keptPart(
                r,
                r.entries.filter((e) => e.seq >= firstKept),
              ),
            ),
          );
      }
      const oldest = entries[0]!.seq;
      const [stored] = journalRecords(
        [{ ...summary, at: summary.from } as JournalEntry],
        oldest - 1,
      ).records;
      pending.push(journal.put(stored!));
      const record = await tx.objectStore('processes').get(processId);
      if (record) {
        const changes = tx.objectStore('contextChanges');
        const keys = await changes.index('by-context').getAllKeys(record.contextId);
        const all = await changes.index('by-context').getAll(record.contextId);
        all.forEach((c, i) => {
          if (c.at < keptFrom) pending.push(changes.delete(keys[i]!));
        });
      }
      await Promise.all(pending);
      return summary.entries;
    });
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
      'meta',
      'callProgress',
    ];
    return this.write(stores, async (tx) => {
      for (const { processId, seq, progress } of batch.callProgress ?? []) {
        const rows = tx.objectStore('callProgress');
        if (progress) await rows.put(storableProgress(processId, progress));
        else await rows.delete([processId, seq]);
      }
      for (const f of batch.flows) await tx.objectStore('flows').put(stamp(FLOW, f));
      for (const id of batch.deletedFlows ?? []) await tx.objectStore('flows').delete(id);
      for (const [key, value] of batch.meta ?? [])
        await tx.objectStore('meta').put(storedSetting(toStorable(value)), key);
      for (const { flow, signature } of batch.versions)
        await tx.objectStore('flowVersions').put(storableVersion(flow, signature));
      for (const c of batch.contexts) await tx.objectStore('contexts').put(storableContext(c));
      for (const c of batch.changes) await tx.objectStore('contextChanges').add(storableChange(c));
      for (const p of batch.processes) await tx.objectStore('processes').put(storableProcess(p));
      await appendJournal(unwrap(tx.objectStore('journal')), batch.journal);
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

  /** A setting; one that cannot be restored is reported and reads as unset (its default). */
  async getMeta(key: string) {
    const raw = await this.db.get('meta', key);
    if (raw === undefined) return undefined;
    const restored = restoreSetting(key, raw);
    if (restored.ok) return restored.value;
    this.report(restored.problem);
    return undefined;
  }
  async putMeta(key: string, value: unknown) {
    await this.write(['meta'], (tx) =>
      tx.objectStore('meta').put(storedSetting(toStorable(value)), key),
    );
  }
}

type StoreName = StoreNames<WorkspaceDb>;

/**
 * Requests asked for while a batch of them runs wait for it and then go together into the next
 * one; those asked for in the same turn as the first join it. `run` answers each request of a
 * batch in order, settled on its own; if `run` itself fails, every request of the batch fails
 * with its error.
 */
class Batcher<I, O> {
  private readonly queue: { input: I; resolve: (o: O) => void; reject: (e: unknown) => void }[] =
    [];
  private running = false;

  constructor(private readonly run: (inputs: I[]) => Promise<PromiseSettledResult<O>[]>) {}

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
        batch.forEach((b, i) => {
          const o = out[i]!;
          if (o.status === 'fulfilled') b.resolve(o.value);
          else b.reject(o.reason);
        });
      } catch (e) {
        for (const b of batch) b.reject(e);
      }
    }
    this.running = false;
  }
}

const fulfilled = <O>(values: O[]): PromiseSettledResult<O>[] =>
  values.map((value) => ({ status: 'fulfilled', value }));

/**
 * Commits inside one transaction, in order, each with its compare-and-set: a commit whose context
 * is not at the version it expects writes nothing and answers false. The contexts are read all
 * at once and the writes asked for without waiting on each (IndexedDB runs a transaction's
 * requests in order, and each request awaited is a round trip): a batch of hundreds of commits
 * costs two round trips, not thousands. A request that fails fails the transaction (`write`).
 */
async function commitAll(
  wrapped: WriteTx,
  batch: StepCommit[],
  slices: Slices,
): Promise<boolean[]> {
  // The database's own requests, as in the loads; the writes are asked for without a handler:
  // one that fails aborts the transaction, and `write` throws its error.
  const tx = unwrap(wrapped);
  const contexts = tx.objectStore('contexts');
  const ids = [...new Set(batch.map((c) => c.context.id))];
  const journal = tx.objectStore('journal');
  // The journal's highest seq is read with the contexts, in the same round trip.
  const [seq, ...read] = await Promise.all([
    lastSeq(journal),
    ...ids.map((id) => request(contexts.get(id))),
  ]);
  let last = seq as number;
  // The version of each context as this transaction leaves it so far.
  const versions = new Map(
    ids.map((id, i) => [id, (read[i] as ContextRecord | undefined)?.version]),
  );
  const processes = tx.objectStore('processes');
  const changes = tx.objectStore('contextChanges');
  slices.begin();
  const out: boolean[] = [];
  for (const { process, context, journal: entries } of batch) {
    if (versions.get(context.id) !== context.expectedVersion) {
      out.push(false);
      continue;
    }
    if (context.write) {
      const { value, changes: made } = context.write;
      const version = context.expectedVersion + (context.write.versions ?? made.length);
      versions.set(context.id, version);
      let req: IDBRequest = contexts.put(storableContext({ id: context.id, version, value }));
      if (slices.over()) await slices.next(req);
      for (const change of made) {
        req = changes.add(storableChange(change));
        if (slices.over()) await slices.next(req);
      }
    }
    const req = processes.put(storableProcess(process));
    if (slices.over()) await slices.next(req);
    // A commit's entries are one record (journalRecords.ts): one clone and one index entry.
    const appended = journalRecords(entries, last);
    last = appended.lastSeq;
    for (const record of appended.records) {
      const added = journal.add(record);
      if (slices.over()) await slices.next(added);
    }
    out.push(true);
  }
  return out;
}

/**
 * How long a commit asks for writes in one task at most (ms). Each write is copied as it is
 * asked for, in the page's (or worker's) own task: a run of 1,000 steps that each wrote the
 * context asked for 1,000 change records at once, a task of 100 ms and more on the bench page's
 * fan-out of 10,000 (docs/performance.md). Past the slice, the commit waits for the answer to
 * its last request before it asks for more: other tasks run meanwhile, and the transaction is
 * active again in that answer, so the commit stays one transaction.
 */
const COMMIT_SLICE_MS = 16;

/** The slices of one commit's requests (`COMMIT_SLICE_MS`). */
class Slices {
  private since = 0;

  constructor(private readonly ms: number) {}

  /** The first slice begins: the writes are about to be asked for. */
  begin(): void {
    this.since = performance.now();
  }

  /** Whether this slice is over: the caller then awaits `next` with its last request. */
  over(): boolean {
    return performance.now() - this.since >= this.ms;
  }

  /** Waits for the answer to `req`, then begins a new slice. */
  async next(req: IDBRequest): Promise<void> {
    await request(req);
    this.since = performance.now();
  }
}

/**
 * Appends `entries` as journal records numbered on from the store's highest seq, in the write's
 * transaction (a commit of steps does the same inline, its numbering read with its contexts).
 */
async function appendJournal(journal: IDBObjectStore, entries: readonly JournalEntry[]) {
  if (entries.length === 0) return;
  const { records } = journalRecords(entries, await lastSeq(journal));
  await Promise.all(records.map((r) => request(journal.add(r))));
}

/**
 * The journal's highest seq (its highest key: a record's key is its last entry's), or 0. Only
 * keys wakeflow could have written count: a key of another type (text, a date, a list) sorts
 * above every number, and one beyond the safe whole numbers could not be counted on from, so a
 * record put there by something else neither stops the journal nor breaks its numbering.
 */
async function lastSeq(journal: IDBObjectStore): Promise<number> {
  const upTo = IDBKeyRange.upperBound(Number.MAX_SAFE_INTEGER);
  const cursor = await request(journal.openKeyCursor(upTo, 'prev'));
  return cursor ? Math.max(0, Math.floor(cursor.key as number)) : 0;
}

/** A request's result, or its error, as a promise (what idb does, without its proxies). */
function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}
type WriteTx = IDBPTransaction<WorkspaceDb, StoreName[], 'readwrite'>;

/** What a tab kept in memory while saving failed, saved together later. */
export interface SaveBatch {
  flows: Flow[];
  /** Flows deleted while writes failed (none is also in `flows`). */
  deletedFlows?: string[];
  meta?: [string, unknown][];
  versions: { flow: Flow; signature: string }[];
  contexts: ContextRecord[];
  changes: ContextChange[];
  processes: ProcessRecord[];
  journal: JournalEntry[];
  /** Call progress written (or, as null, deleted) while writes failed: the newest word on each. */
  callProgress?: { processId: string; seq: number; progress: CallProgress | null }[];
}

const storableChange = (c: ContextChange) => stamp(CONTEXT_CHANGE, toStorable(c) as ContextChange);
const storableContext = (c: ContextRecord) =>
  stamp(CONTEXT, { id: c.id, version: c.version, value: toStorable(c.value) });
const storableVersion = (flow: Flow, signature: string) =>
  stamp(FLOW_VERSION, { id: flow.id, signature, flow });
type Seq<T> = T & { seq?: number };
type StoredVersion = { id: string; signature: string; flow: Flow };
const seqOf = (r: { seq?: number }) => r.seq;
/**
 * As stored: `waitsFor` only while waiting (so `by-waits-for` holds waiting processes alone), and
 * marked unknown on a waiting record written without it (so an event still finds it).
 */
function storableProcess(p: ProcessRecord): ProcessRecord {
  const { waitsFor, ...rest } = toStorable(p) as ProcessRecord;
  if (p.status !== 'waiting') return stamp(PROCESS, rest);
  return stamp(PROCESS, {
    ...rest,
    waitsFor: Array.isArray(waitsFor) ? waitsFor : [UNKNOWN_WAITS],
  });
}

const storableProgress = (processId: string, progress: CallProgress) =>
  stamp(CALL_PROGRESS, { ...(toStorable(progress) as CallProgress), processId });

/** A process's rows of `callProgress` ([processId, seq]). */
const progressRange = (processId: string) =>
  IDBKeyRange.bound([processId, -Infinity], [processId, Infinity]);

const problemKey = (store: string, key: unknown) => `${store}\u0000${JSON.stringify(key)}`;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/** One status's processes along `by-status-created` ([status, created]). */
const statusRange = (status: string) => IDBKeyRange.bound([status, -Infinity], [status, Infinity]);

const dueRange = (upTo: number) =>
  IDBKeyRange.bound(['waiting', -Infinity, -Infinity], ['waiting', upTo, Infinity]);
