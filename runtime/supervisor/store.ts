import type { Flow } from '../../shared/schema.ts';
import type { CallProgress } from '../calls/callProgress.ts';
import type {
  ContextChange,
  ContextRecord,
  JournalEntry,
  ProcessRecord,
  ProcessStatus,
} from './records.ts';

/** A process with what a wake reads besides it, read together (`Store.loadProcess`). */
export interface LoadedProcess {
  record: ProcessRecord;
  /** The workspace's flows the process runs (loadFlowSet's set for its snapshot), by id. */
  flows: Map<string, Flow>;
  context: ContextRecord | undefined;
  /**
   * A record the process runs on (its context, one of its flows) that cannot be restored: then
   * `flows` and `context` are empty, and a wake fails the process naming it, once.
   */
  damaged?: { store: string; key: unknown; message: string };
}

/**
 * The effects of one step, or of a run of steps (group commit), committed together or not at all
 * (docs/architecture.md#data-flowing-through-it; docs/persistence.md).
 */
export interface StepCommit {
  process: ProcessRecord;
  /**
   * The context the step read, which must still be at `expectedVersion` (compare-and-set); with
   * `write`, its new value and one change per node that wrote (a commit may hold several steps,
   * docs/persistence.md), stored as version `expectedVersion + versions`. `versions` is the
   * number of nodes that wrote, `changes.length` when absent: less is given only where the
   * journal's retention rule summed up the older passes' changes before the commit, or where
   * the store keeps no journal (`keepsJournal`), for which no change is made.
   */
  context: {
    id: string;
    expectedVersion: number;
    write?: { value: unknown; changes: ContextChange[]; versions?: number };
  };
  journal: JournalEntry[];
}

/**
 * Where the supervisor keeps processes, contexts, flows and the journal. Every method may be
 * asynchronous, so that an IndexedDB store drops in with no change to the supervisor. Every
 * method is required, so that the supervisor takes one path for each operation whatever the
 * store (storeContract.test.ts asks the same of each).
 */
export interface Store {
  /**
   * false: the store keeps no journal nor context changes (a MemoryStore for `flow simulate`),
   * so the supervisor makes no copy of a position for an entry.
   */
  readonly keepsJournal: boolean;
  /** The workspace's current version of a flow. */
  getFlow(id: string): Promise<Flow | undefined>;
  putFlow(flow: Flow): Promise<void>;
  /** A version a process stands on, by flow id and signature; kept while processes need it. */
  getFlowVersion(id: string, signature: string): Promise<Flow | undefined>;
  putFlowVersion(flow: Flow, signature: string): Promise<void>;

  getContext(id: string): Promise<ContextRecord | undefined>;
  /** Creates a context, or, for an existing one, writes it when its version is as expected. */
  putContext(
    record: ContextRecord,
    expectedVersion: number | null,
    change?: ContextChange,
  ): Promise<boolean>;
  contextChanges(contextId: string): Promise<ContextChange[]>;

  getProcess(id: string): Promise<ProcessRecord | undefined>;
  putProcess(record: ProcessRecord, journal?: JournalEntry[]): Promise<void>;
  /** Every process, oldest first. */
  listProcesses(): Promise<ProcessRecord[]>;
  /** Processes whose status is running, oldest first (an index answers it). */
  runningProcesses(): Promise<ProcessRecord[]>;
  /** Waiting processes due by `until`, earliest first (then oldest first). */
  dueProcesses(until: number): Promise<ProcessRecord[]>;
  /**
   * The first `limit` (all without it) waiting processes due by `upTo`, in `dueProcesses`' order,
   * read along an index: only those records are read, however many processes exist.
   */
  listDue(upTo: number, limit?: number): Promise<ProcessRecord[]>;
  /** The earliest due time of any waiting process, or null; reads no process record. */
  nextDueAt(): Promise<number | null>;
  /**
   * Waiting processes that may wait for the event `name`, oldest first: those whose `waitsFor`
   * lists it, and those whose waits are not listed (`UNKNOWN_WAITS`). Read along an index; the
   * caller still asks each snapshot which of its waits take the event.
   */
  waitersFor(name: string): Promise<ProcessRecord[]>;
  /**
   * A page of the listing: up to `limit` processes created after `afterCreated` (from the first
   * with null), oldest first, read along an index.
   */
  processPage(afterCreated: number | null, limit: number): Promise<ProcessRecord[]>;
  /**
   * A window of the listing (the app's process table): up to `limit` processes from the
   * `offset`-th, in order of creation (or the query's `order`), of one status (and flow) or of
   * all, of those the query's `search` finds. In order of creation it is read along an index, so
   * that only those records are read however many processes exist.
   */
  processWindow(query: WindowQuery): Promise<ProcessRecord[]>;
  /** Every process by id and flow, oldest first (indexes answer it, no record read). */
  processNames(): Promise<{ id: string; flow: string }[]>;
  /**
   * How many processes there are, in all and per status (of one flow, if asked; of those a
   * search finds, if asked); reads no record.
   */
  countProcesses(flow?: string, search?: ProcessSearch): Promise<ProcessCounts>;
  /** The highest order of creation of any process, or null when there is none; reads no record. */
  lastCreated(): Promise<number | null>;

  /**
   * A process, the workspace's current flows it runs and its context, read at once (on
   * IndexedDB in one transaction): a wake's reads in one request. A process record that cannot
   * be restored fails its own load alone (an error named `DamagedRecordError`), not the others
   * read with it.
   */
  loadProcess(id: string): Promise<LoadedProcess | undefined>;

  /**
   * Commits a step; false, with nothing written, when the context's version moved on. Commits
   * asked for together may share one transaction; each is checked and written whole or not.
   */
  commitStep(commit: StepCommit): Promise<boolean>;
  journal(processId: string): Promise<JournalEntry[]>;
  /** The newest `limit` entries of a process's journal, newest first. */
  journalPage(processId: string, limit: number): Promise<JournalPage>;

  /**
   * How each call wait of a process is faring between attempts (runtime/calls/callProgress.ts),
   * kept beside the process and outside its snapshot, one row per wait (docs/format.md#calls).
   * The call loop writes them (supervisor/callLoop.ts); the store only keeps them.
   */
  listCallProgress(processId: string): Promise<CallProgress[]>;
  /** Creates or replaces the row of wait `progress.seq` of the process. */
  putCallProgress(processId: string, progress: CallProgress): Promise<void>;
  /** Deletes the row of wait `seq`; nothing happens when there is none. */
  deleteCallProgress(processId: string, seq: number): Promise<void>;
}

/** Which processes a window of the listing holds (`Store.processWindow`). */
export interface WindowQuery {
  offset: number;
  limit: number;
  status?: ProcessStatus;
  /** Only with `status`: the processes of this flow with that status. */
  flow?: string;
  /** The order of the listing; in order of creation without it. */
  order?: ProcessOrder;
  /** Only the processes it finds. */
  search?: ProcessSearch;
}

/** What the listing may be sorted by: the table's columns, and the order of creation. */
export const PROCESS_ORDERS = ['created', 'id', 'flow', 'status', 'due', 'wakes'] as const;
export type ProcessOrderBy = (typeof PROCESS_ORDERS)[number];

/**
 * A sort of the listing (listWindow.ts#compareBy says how each column compares). Processes that
 * compare equal stay in order of creation, whichever the direction.
 */
export interface ProcessOrder {
  by: ProcessOrderBy;
  desc: boolean;
  /**
   * For `by: 'flow'`: the flow ids in the order to sort them (the page's order of their names,
   * which the store does not know); a flow left out comes after those listed, by id.
   */
  flows?: readonly string[];
}

/**
 * A search of the listing: a process whose id, flow id or status holds `text` (ignoring case),
 * or whose flow is one of `flows` (those whose name holds it, which the page knows and the store
 * does not: docs/decisions.md).
 */
export interface ProcessSearch {
  text: string;
  flows?: readonly string[];
}

/** Processes in all and per status (a status with none may be left out). */
export interface ProcessCounts {
  total: number;
  byStatus: Partial<Record<ProcessStatus, number>>;
}

/** A page of a journal, newest first, and whether older entries are left. */
export interface JournalPage {
  entries: JournalEntry[];
  more: boolean;
}
