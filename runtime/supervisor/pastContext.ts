import { applyWrites, readPath } from '../../shared/contextWrite.ts';
import { snapshotAsOf } from './journalSnapshots.ts';
import type { ContextChange, JournalEntry } from './records.ts';

/** One write that led to a past context: where, what it was and became, and who wrote it. */
export interface PastWrite {
  path: string;
  before: unknown;
  after: unknown;
  /** null for a write from outside any process. */
  process: string | null;
  node: string | null;
  version: number;
  at: number;
}

/** The context as of a journal entry, rebuilt, or why it cannot be. */
export type PastContext =
  | { ok: true; version: number; value: unknown; writes: PastWrite[] }
  | { ok: false; problem: string };

/** The writes a past context lists at most: the newest, which say who wrote what is there now. */
export const PAST_WRITES = 100;

const writesContext = (e: JournalEntry) =>
  e.type === 'context-written' || e.type === 'context-edited';

/**
 * The context of a process as of its journal entry `index` (docs/format.md#the-context-the-snapshot-and-the-signature):
 * the context it started on (journalled with `started`), with the context's changes applied
 * in version order up to the last one made at or before that entry. A change and the entries
 * of the commit that made it share one time; within that time, the process's own writing
 * entries up to `index` are matched in order with its changes (a write from outside, journalled
 * in the process it was made on, has no process in its change). The context is live and may be
 * shared, so other processes' changes before then count too. Pure: the caller reads `journal`
 * (the process's, oldest first) and `changes` (its context's).
 */
/**
 * The context as the inspector's time travel shows it at the journal entry numbered `seq`: as of
 * the entry that keeps the position shown then (journalSnapshots.ts#snapshotAsOf). Every runtime
 * answers "as of this entry" with this.
 */
export function pastContextAtSeq(
  journal: readonly JournalEntry[],
  seq: number,
  changes: readonly ContextChange[],
): PastContext {
  const index = journal.findIndex((e) => (e as { seq?: unknown }).seq === seq);
  if (index === -1) return { ok: false, problem: 'its journal no longer holds that entry' };
  return pastContext(journal, snapshotAsOf(journal, index)?.entry ?? index, changes);
}

export function pastContext(
  journal: readonly JournalEntry[],
  index: number,
  changes: readonly ContextChange[],
): PastContext {
  const entry = journal[index];
  if (!entry) return { ok: false, problem: `there is no journal entry ${index + 1}` };
  const started = journal.find((e) => e.type === 'started');
  if (!started || started.type !== 'started' || !started.context) {
    return {
      ok: false,
      problem:
        'the journal does not hold the context this process started on (it started before ' +
        'starts recorded it, or its oldest entries were summed up)',
    };
  }
  const base = started.context;
  const sorted = [...changes].sort((a, b) => a.version - b.version);
  const target = Math.max(base.version, versionAt(journal, index, sorted, entry.process) ?? 0);
  let value = structuredClone(base.value);
  let version = base.version;
  const writes: PastWrite[] = [];
  for (const change of sorted) {
    if (change.version <= base.version || change.version > target) continue;
    if (change.version !== version + 1) {
      return {
        ok: false,
        problem: `the context's changes from version ${version + 1} to ${change.version - 1} are no longer kept (summed up by the journal's retention rule)`,
      };
    }
    for (const w of change.writes) {
      const before = w.path === '' ? value : readPath(value, w.path);
      value = applyWrites(value, [w]);
      writes.push({
        path: w.path,
        before,
        after: w.value,
        process: change.process,
        node: change.node,
        version: change.version,
        at: change.at,
      });
    }
    version = change.version;
  }
  return { ok: true, version, value, writes: writes.slice(-PAST_WRITES) };
}

/**
 * The context's version as of entry `index`, by the rule above; undefined before any change.
 * `sorted` is the context's changes in version order. Shared with nodeVisits.ts, which asks it
 * of many entries in one replay of the changes.
 */
export function versionAt(
  journal: readonly JournalEntry[],
  index: number,
  sorted: readonly ContextChange[],
  process: string,
): number | undefined {
  const at = journal[index]!.at;
  let first = index;
  while (first > 0 && journal[first - 1]!.at === at) first--;
  const own = journal.slice(first, index + 1).filter(writesContext).length;
  const ownThen = sorted.filter(
    (c) => c.at === at && (c.process === process || c.process === null),
  );
  if (own > 0 && ownThen[own - 1]) return ownThen[own - 1]!.version;
  let version: number | undefined;
  for (const c of sorted) if (c.at < at) version = c.version;
  return version;
}
