import type { Flow } from '../../shared/schema.ts';
import type { ContextChange, ContextRecord, JournalEntry, ProcessRecord } from './records.ts';

/** A process with what a wake reads besides it, read together (`Store.loadProcess`). */
export interface LoadedProcess {
  record: ProcessRecord;
  /** The workspace's flows the process runs (loadFlowSet's set for its snapshot), by id. */
  flows: Map<string, Flow>;
  context: ContextRecord | undefined;
}

/**
 * The effects of one step, or of a run of steps (group commit), committed together or not at all
 * (DESIGN.md, Data flowing through it; docs/persistence.md).
 */
export interface StepCommit {
  process: ProcessRecord;
  /**
   * The context the step read, which must still be at `expectedVersion` (compare-and-set); with
   * `write`, its new value and one change per node that wrote (a commit may hold several steps,
   * docs/persistence.md), stored as version `expectedVersion + changes.length`.
   */
  context: {
    id: string;
    expectedVersion: number;
    write?: { value: unknown; changes: ContextChange[] };
  };
  journal: JournalEntry[];
}

/**
 * Where the supervisor keeps processes, contexts, flows and the journal. Every method may be
 * asynchronous, so that an IndexedDB store drops in with no change to the supervisor.
 */
export interface Store {
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
  /** Waiting processes due by `until`, earliest first (then oldest first). */
  dueProcesses(until: number): Promise<ProcessRecord[]>;

  /**
   * A process, the workspace's current flows it runs and its context, read at once (on
   * IndexedDB in one transaction): a wake's reads in one request. Optional; without it the
   * supervisor reads them one by one.
   */
  loadProcess?(id: string): Promise<LoadedProcess | undefined>;

  /**
   * Commits a step; false, with nothing written, when the context's version moved on. Commits
   * asked for together may share one transaction; each is checked and written whole or not.
   */
  commitStep(commit: StepCommit): Promise<boolean>;
  journal(processId: string): Promise<JournalEntry[]>;
}
