import type { ContextWrite } from '../../shared/contextWrite.ts';
import type { FlowChange } from '../../shared/flowDiff.ts';
import type { EngineJournalEntry } from '../engine/journal.ts';
import type { Snapshot } from '../engine/snapshot.ts';

/** The statuses of a process (docs/format.md#statuses), in the order lists show them. */
export const PROCESS_STATUSES = [
  'running',
  'waiting',
  'done',
  'failed',
  'stopped',
  'flow-changed',
  'cancelled',
] as const;
export type ProcessStatus = (typeof PROCESS_STATUSES)[number];

/** A trigger that fired but has not yet been carried out (a changed flow, a failed node). */
export interface PendingWake {
  seq: number;
  trigger: string;
  payload?: unknown;
}

export interface ProcessRecord {
  id: string;
  /** The top-level flow's id. */
  flow: string;
  contextId: string;
  status: ProcessStatus;
  snapshot: Snapshot;
  /** The earliest timer due, in ms since the epoch; null when no timer is set. */
  due: number | null;
  /** Signatures of the flow versions the process started on, by flow id, sub-flows included. */
  versions: Record<string, string>;
  /** After `keep`: the process runs on `versions`, not on the workspace's current flows. */
  pinned: boolean;
  error: string | null;
  changes: FlowChange[];
  pendingWake: PendingWake | null;
  /**
   * Triggers that fired after `pendingWake`, at the same moment, while the process could not take
   * them (one event reaching several waits of a process whose flow changed, or that failed at
   * the first): each still counts when it can run again (pendingWakes.ts). Absent when none.
   */
  moreWakes?: PendingWake[];
  /** The status a stopped process goes back to on `resume`. */
  stoppedFrom?: ProcessStatus;
  /** Order of creation, for deterministic wake order among equal due times. */
  created: number;
  /** How many times a trigger woke it: a counter, so that no view must read the journal for it. */
  wakes?: number;
  /**
   * While waiting: the event names its waits listen for, so that an event finds its waiters by
   * an index (`Store.waitersFor`), not by reading every process. `UNKNOWN_WAITS` stands for
   * "not known: ask the snapshot" (a record from before the index); absent when not waiting.
   */
  waitsFor?: string[];
}

/** In `waitsFor`: the waits were not listed (no event name is empty), so any event may reach it. */
export const UNKNOWN_WAITS = '';

/**
 * In `waitsFor`: a wait of the process is a call's, so that the call loop finds the processes
 * asleep at a call after a restart along the index, reading no other record (callLoop.ts). An
 * event that happened to bear this name would only be offered them as candidates, which their
 * snapshots then turn down, as for any name.
 */
export const CALL_WAITS = '\u0000call';

export interface ContextRecord {
  id: string;
  version: number;
  value: unknown;
}

/** Who changed a context, and how (docs/format.md: the context is an entity with a version). */
export interface ContextChange {
  contextId: string;
  version: number;
  /** null for a write from outside any process (the designer, a scenario's `setContext`). */
  process: string | null;
  node: string | null;
  writes: ContextWrite[];
  at: number;
}

export type SupervisorJournalEntry =
  | {
      type: 'started';
      flow: string;
      contextId: string;
      /** The context as the process found it, so that a past one can be rebuilt (pastContext.ts). */
      context?: { version: number; value: unknown };
      /** A fork's origin: the process and the journal entry it was forked from (fork.ts). */
      from?: ForkOrigin;
    }
  | { type: 'stopped' }
  | { type: 'resumed' }
  | { type: 'retried'; node: string }
  | { type: 'flow-changed'; changes: FlowChange[] }
  | { type: 'resolved'; choice: string }
  | { type: 'cancelled' }
  /** The context written from outside any process (the inspector, a scenario's `setContext`). */
  | { type: 'context-edited'; writes: ContextWrite[] }
  /**
   * One attempt of a call (docs/format.md#calls): the wait and its node, the attempt's number,
   * method and URL as recorded (a secret stays a placeholder), status (0 without an answer) or
   * error, and how long it took; never a header.
   */
  | {
      type: 'call-attempt';
      node: string;
      /** The wait's number (its `seq` in the snapshot); an entry's own `seq` is the journal's. */
      wait: number;
      attempt: number;
      method: string;
      url: string;
      status: number;
      error?: string;
      ms: number;
      /** Answered by the call's pin (docs/format.md#pinned-answers): nothing was sent. */
      pinned?: true;
    }
  /** Older passes the retention rule summed up: how many, how many entries, from when to when. */
  | { type: 'summarized'; passes: number; entries: number; from: number; to: number };

/** Where a fork came from, and whether it took a copy of the context as of then or the live one. */
export interface ForkOrigin {
  process: string;
  seq: number;
  context: 'past' | 'live';
}

export type JournalEntry = (EngineJournalEntry | SupervisorJournalEntry) & {
  process: string;
  at: number;
  /**
   * On the last entry of each commit: the snapshot that commit left the process at (position
   * only, never context values). Entries written before snapshots were kept have none.
   */
  snapshot?: Snapshot;
};
