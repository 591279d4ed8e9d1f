import type { Pin } from '../../shared/pins.ts';
import type { Flow } from '../../shared/schema.ts';
import type { TestHooks } from './testHooks.ts';
import type { SaveState } from '../../runtime/store/resilientStore.ts';
import type { Pace } from './timeSource.ts';
import type { ProcessCounts, ProcessOrder, ProcessSearch } from '../../runtime/supervisor/store.ts';
import type { PendingWake, ProcessStatus } from '../../runtime/supervisor/records.ts';

/**
 * What the page and the runtime's Web Worker say to each other besides the calls themselves
 * (those go through Comlink): the worker's events, and what a new worker starts from.
 */

/** The clock as a tab sees it; the page keeps a copy so that countdowns need no round trip. */
export interface ClockState {
  mode: 'real' | 'virtual';
  /** The virtual time, when the clock is virtual. */
  virtual?: number;
}

/** A process as the process table shows it: a row, read without its context. */
export interface ProcessView {
  id: string;
  flow: string;
  status: ProcessStatus;
  due: number | null;
  error: string | null;
  wakes: number;
}

/** The workspace's flows and whether everything is saved, read in one call. */
export interface FlowsView {
  flows: Flow[];
  /** The workspace's pinned answers of calls (docs/format.md#pinned-answers). */
  pins: Pin[];
  saveState: SaveState;
  /** Records read that could not be restored, each named with what is wrong (restore.ts). */
  damaged?: string[];
}

/** The rows of the process table the page asks for: a window, in order of creation or `order`. */
export interface ListQuery {
  offset: number;
  limit: number;
  /** Only the processes of this status. */
  status?: ProcessStatus;
  /** Sorted by a column; in order of creation without it. */
  order?: ProcessOrder;
  /** Only the processes it finds (by id, flow or status; the page names the flows whose name matches). */
  search?: ProcessSearch;
}

/** A window of the process table, with the counts its filter and header show. */
export interface ProcessList {
  /** The query it answers. */
  query: ListQuery;
  /** The rows from `query.offset` on (fewer than asked at the end of the list). */
  rows: ProcessView[];
  /** How many rows the list has under the query's filter and search. */
  total: number;
  /** Per status, of the processes the search finds (all of them without one). */
  counts: ProcessCounts;
  /** How many processes there are, searched or not (the "of M" of a search's "N of M"). */
  all: number;
}

/** Everything the inspector reads of one process, in one call (processReading.ts). */
export type { ProcessReading } from '../../runtime/supervisor/processReading.ts';

/** A step the watchdog stopped by ending the worker: the next worker fails it first. */
export interface Runaway {
  process: string;
  path: string;
  wake: PendingWake | null;
  message: string;
}

export type RuntimeEvent =
  /**
   * Something was stored, here or in another tab: which processes (by id) and whether the
   * workspace's flows; the page re-reads what it shows of those.
   */
  | {
      type: 'changed';
      processes: string[];
      flows: boolean;
      clock: ClockState;
      saveState: SaveState;
    }
  /** A step entered a node (the watchdog starts counting). */
  | { type: 'busy'; process: string; path: string; wake: PendingWake | null }
  /** The step is over. */
  | { type: 'idle' }
  /** A long advance of the virtual clock reached `reached`, after `wakes` wakes. */
  | { type: 'progress'; advance: number; reached: number; wakes: number };

/** What a new worker opens with. */
export interface WorkerStart {
  dbName: string;
  seed: readonly Flow[];
  clock: ClockState;
  /** Whose real time the worker keeps: its own, or the page's as sent (tests, `?pace=page`). */
  pace: Pace;
  /** The page's real time when it started the worker (the start of a paced clock). */
  now: number;
  /** A step the previous worker was ended in; failed before anything else runs. */
  runaway?: Runaway;
  /** What an e2e test asked of the dev server's app (testHooks.ts); absent in the app. */
  testHooks?: TestHooks;
  /**
   * The real time a run keeps the worker before it lets the queued messages in; 16 ms when
   * absent (the app never sets it). A test that counts the worker's turns sets it out of reach,
   * so that what it counts does not depend on how fast the machine runs the steps.
   */
  runSliceMs?: number;
}

/** What the runtimes of the workspace's tabs tell each other (BroadcastChannel `wakeflow:changes`). */
export type PeerMessage =
  /** Something was stored: the other tabs re-read it and arm their schedules again. */
  | { type: 'changed'; processes: string[]; flows: boolean }
  /** Stop was pressed for a process: whichever tab is running it stops after its current step. */
  | { type: 'stop'; process: string };

/** A way to reach the other tabs' runtimes (a BroadcastChannel in the browser). */
export interface Peers {
  post(message: PeerMessage): void;
  listen(hear: (message: PeerMessage) => void): void;
  /** Whether another tab's runtime of this workspace is open now. */
  othersOpen(): Promise<boolean>;
  close(): void;
}
