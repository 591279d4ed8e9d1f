import type { DBSchema, IDBPDatabase, IDBPTransaction, StoreNames } from 'idb';
import type { Flow } from '../../shared/schema.ts';
import type { CallProgress } from '../calls/callProgress.ts';
import type { ContextChange, ContextRecord, ProcessRecord } from '../supervisor/records.ts';
import { UNKNOWN_WAITS } from '../supervisor/records.ts';
import type { JournalRecord } from './journalRecords.ts';

/**
 * The workspace database: one typed schema for every store (docs/architecture.md#conventions: one `DBSchema` module).
 * Version 1 held flows, contexts, processes and the journal; version 2 added flow versions,
 * context changes, the due-time index and settings; version 3 the indexes that make a start, a
 * wake, an event and a listing cost the same however many processes exist (docs/persistence.md);
 * version 4 the indexes that window the process table by status and count a flow's processes;
 * version 5 dropped the two indexes that others answer for (`by-status`, `by-due`) and stores a
 * write's journal entries as one record; version 6 added the progress of calls between attempts.
 */
export interface WorkspaceDb extends DBSchema {
  /** The workspace's current flows, by id. */
  flows: { key: string; value: Flow };
  /** Every version a process stands on, by flow id and signature. */
  flowVersions: { key: [string, string]; value: { id: string; signature: string; flow: Flow } };
  contexts: { key: string; value: ContextRecord };
  processes: {
    key: string;
    value: ProcessRecord;
    indexes: {
      'by-wake': [string, number, number];
      'by-waits-for': string;
      'by-created': number;
      'by-status-created': [string, number];
      'by-flow-status': [string, string];
    };
  };
  /**
   * Append-only: one record per write and process, keyed by its last entry's `seq`, so a cursor
   * reads a process's entries in order (journalRecords.ts). Records written before schema 5 are
   * single entries, read as records of one (restore.ts, JOURNAL_RECORD).
   */
  journal: {
    key: number;
    value: JournalRecord;
    indexes: { 'by-process': string };
  };
  contextChanges: {
    key: number;
    value: ContextChange & { seq?: number };
    indexes: { 'by-context': string };
  };
  /** Small settings of the workspace (the clock's mode, for one). */
  meta: { key: string; value: unknown };
  /**
   * How each call wait is faring between attempts (Store.listCallProgress), by process and
   * wait: a process's rows are one key range. Apart from `processes`, so that an attempt's
   * bookkeeping never rewrites the process record (docs/decisions.md).
   */
  callProgress: { key: [string, number]; value: StoredCallProgress };
}

/** A call's progress as stored: the process it belongs to beside it, for the key. */
export type StoredCallProgress = CallProgress & { processId: string };

export const DB_VERSION = 6;

type UpgradeTx = IDBPTransaction<WorkspaceDb, StoreNames<WorkspaceDb>[], 'versionchange'>;

/**
 * The upgrade steps, each from the version before it. Opening runs every step above the old
 * version in order, so a database of any earlier version arrives at the current one.
 */
export const UPGRADES: Record<number, (db: IDBPDatabase<WorkspaceDb>, tx: UpgradeTx) => void> = {
  1: (db) => {
    db.createObjectStore('flows', { keyPath: 'id' });
    db.createObjectStore('contexts', { keyPath: 'id' });
    const processes = db.createObjectStore('processes', { keyPath: 'id' });
    // Dropped again in version 5 (the schema's type no longer names it).
    processes.createIndex('by-status' as never, 'status');
    const journal = db.createObjectStore('journal', { keyPath: 'seq', autoIncrement: true });
    journal.createIndex('by-process', 'process');
  },
  2: (db, tx) => {
    db.createObjectStore('flowVersions', { keyPath: ['id', 'signature'] });
    const changes = db.createObjectStore('contextChanges', { keyPath: 'seq', autoIncrement: true });
    changes.createIndex('by-context', 'contextId');
    db.createObjectStore('meta');
    // Records without a due time are left out of the index (null is not a key), which is what a
    // query for due processes wants.
    tx.objectStore('processes').createIndex('by-due' as never, 'due');
  },
  3: (_db, tx) => {
    const processes = tx.objectStore('processes');
    // Waiting processes in wake order: due time, then order of creation. A record without a due
    // time is not a key, so it is left out; the status comes first so that a range holds only
    // waiting ones.
    processes.createIndex('by-wake', ['status', 'due', 'created']);
    processes.createIndex('by-waits-for', 'waitsFor', { multiEntry: true });
    processes.createIndex('by-created', 'created');
    // Waiting records written before this version did not list their events: they are marked
    // unknown so that every event still finds them, until their next write lists them.
    void processes.openCursor().then(async function mark(cursor): Promise<void> {
      if (!cursor) return;
      const p = cursor.value as Partial<ProcessRecord> | null;
      if (p && typeof p === 'object' && p.status === 'waiting' && !Array.isArray(p.waitsFor))
        await cursor.update({ ...(p as ProcessRecord), waitsFor: [UNKNOWN_WAITS] });
      return mark(await cursor.continue());
    });
  },
  4: (_db, tx) => {
    const processes = tx.objectStore('processes');
    // The table filtered by a status, in order of creation, a window at a time.
    processes.createIndex('by-status-created', ['status', 'created']);
    // How many processes of a flow sleep or ask what to do, counted without reading them.
    processes.createIndex('by-flow-status', ['flow', 'status']);
  },
  5: (_db, tx) => {
    const processes = tx.objectStore('processes');
    // Every put of a process record updates each index, and a wake puts one: these two cost a
    // wake without answering anything another does not. `by-status` is the first half of
    // `by-status-created` (a range over it counts and lists one status); nothing reads `by-due`
    // since `by-wake` holds the waiting processes by due time.
    processes.deleteIndex('by-status' as never);
    processes.deleteIndex('by-due' as never);
    // The journal's records change shape (a write's entries in one record) without a pass over
    // them here: one written before reads as a record of one entry (restore.ts), so opening a
    // database with a long journal costs no more than before (docs/decisions.md).
  },
  6: (db) => {
    // Empty at first: no process of an older wakeflow ever sent a call.
    db.createObjectStore('callProgress', { keyPath: ['processId', 'seq'] });
  },
};
