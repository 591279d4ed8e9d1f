import type { Flow } from '../../shared/schema.ts';
import type { CallProgress } from '../calls/callProgress.ts';
import type { ContextChange, JournalEntry, ProcessRecord } from './records.ts';

/**
 * What the inspector reads of one process in one request, whichever runtime answers: the
 * worker's (its flows as a Map, through comlink) or a server's (`reading`, its flows as an
 * object, since JSON has no Map).
 */
export interface ProcessReadingOf<Flows> {
  record: ProcessRecord;
  /** Its live context (version 0 and null when the context is missing). */
  context: { version: number; value: unknown };
  changes: ContextChange[];
  /** The newest entries of its journal (as many as asked for), oldest of them first. */
  journal: JournalEntry[];
  /** Whether older entries are left in the store. */
  journalMore: boolean;
  /** The flows it slept on, by id. */
  flows: Flows;
  /** How each of its calls is faring (attempts, when the next is due), by wait; [] without one. */
  calls: CallProgress[];
}

export type ProcessReading = ProcessReadingOf<Map<string, Flow>>;
