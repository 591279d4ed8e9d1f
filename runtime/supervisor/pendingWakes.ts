import type { EngineEnv } from '../engine/run.ts';
import type { ScopeSnapshot, Snapshot } from '../engine/snapshot.ts';
import { waitsWithTriggers, type WaitView } from '../engine/step.ts';
import type { PendingWake, ProcessRecord } from './records.ts';

/**
 * The triggers that fired for a process but were not yet carried out, oldest first: the one that
 * woke it into `flow-changed` or `failed`, then any that reached it at the same moment. With
 * `continue`, `keep`, `retry` or `resume` each still counts (docs/format.md, every trigger that woke
 * the process still counts), fired in this order before any timer due meanwhile.
 */
export function pendingWakes(record: ProcessRecord): PendingWake[] {
  const first = record.pendingWake ? [record.pendingWake] : [];
  return record.moreWakes ? [...first, ...record.moreWakes] : first;
}

/** The record carrying `queue` as its pending wakes (no `moreWakes` field when one or none). */
export function withPendingWakes(record: ProcessRecord, queue: PendingWake[]): ProcessRecord {
  const { moreWakes: _more, ...rest } = record;
  const next: ProcessRecord = { ...rest, pendingWake: queue[0] ?? null };
  if (queue.length > 1) next.moreWakes = queue.slice(1);
  return next;
}

/**
 * The pending wakes with `wake` first: the trigger that was being carried out when the process
 * failed or found its flow changed. A wake already queued (read back from the store while it was
 * being fired) is not queued twice.
 */
export function carrying(record: ProcessRecord, wake: PendingWake | null): PendingWake[] {
  const queue = pendingWakes(record);
  if (!wake) return queue;
  return [wake, ...queue.filter((w) => w.seq !== wake.seq)];
}

/** The numbers of every wait of a snapshot, nested ones too: what a pending wake can still fire. */
export function waitSeqs(snapshot: Snapshot): Set<number> {
  const out = new Set<number>();
  const walk = (scope: ScopeSnapshot) => {
    for (const w of scope.waits) out.add(w.seq);
    for (const c of scope.children) walk(c.scope);
  };
  walk(snapshot.scope);
  return out;
}

/**
 * The waits a process stands at that something could still fire, for a report or a view: none
 * for a process that is done or cancelled, and not those whose trigger already fired and is
 * pending (a `flow-changed` or `failed` process), so that nobody is told it waits for what has
 * come. The snapshot itself keeps them: it is where the process was.
 */
export function liveWaits(record: ProcessRecord, flows: EngineEnv['flows']): WaitView[] {
  if (record.status === 'done' || record.status === 'cancelled') return [];
  const fired = new Set(pendingWakes(record).map((w) => w.seq));
  return waitsWithTriggers(record.snapshot, flows).filter((w) => !fired.has(w.seq));
}
