import type { FlowChange } from '../../shared/flowDiff.ts';
import { timersOf, waitDue } from '../engine/timers.ts';
import { liveWaits } from '../supervisor/pendingWakes.ts';
import type { ProcessStatus } from '../supervisor/records.ts';
import type { Supervisor } from '../supervisor/supervisor.ts';
import type { CallLog, CallReport } from './callLog.ts';

// The report of a scenario's processes, apart from the command that runs scenarios: `flow
// simulate` (runtime/cli/simulate.ts) and Restate's `status` (runtime/restate/processObject.ts)
// both print it, so that the two runtimes can be compared field by field.

/** The report of docs/format.md#scenarios. */
export interface SimulationReport {
  clock: string;
  processes: Record<string, ProcessReport>;
  errors: { step: number; error: string }[];
}

export interface ProcessReport {
  flow: string;
  status: ProcessStatus;
  waits: { node: string; triggers: string[]; due: string | null }[];
  /** The calls it made, with each attempt (a simulation's, which answers them); absent if none. */
  calls?: CallReport[];
  visits: Record<string, number>;
  passes: Record<string, number>;
  changes: FlowChange[];
  error: string | null;
  snapshotBytes: number;
  context: unknown;
}

/**
 * Every process the supervisor's store holds, reported as docs/format.md#scenarios shows; with
 * `calls`, the log of the attempts a simulation answered, each process's calls too.
 */
export async function reportProcesses(
  supervisor: Supervisor,
  calls?: CallLog,
): Promise<Record<string, ProcessReport>> {
  const store = supervisor.store;
  const out: Record<string, ProcessReport> = {};
  for (const p of await store.listProcesses()) {
    // Waits are read from the versions the process fell asleep on, even if the flow changed since.
    const flows = await supervisor.sleptOn(p);
    const lookup = (id: string) => flows.get(id);
    const timers = timersOf(p.snapshot, lookup);
    const context = await store.getContext(p.contextId);
    const made = calls?.report(p.id, await supervisor.callProgress(p.id)) ?? [];
    out[p.id] = {
      flow: p.flow,
      status: p.status,
      waits: liveWaits(p, lookup).map((w) => {
        const due = waitDue(timers, w.seq);
        return {
          node: w.path,
          triggers: w.triggers.map((t) => t.id),
          due: due === null ? null : new Date(due).toISOString(),
        };
      }),
      ...(made.length > 0 ? { calls: made } : {}),
      visits: p.snapshot.visits,
      passes: p.snapshot.passes,
      changes: p.changes,
      error: p.error,
      snapshotBytes: JSON.stringify(p.snapshot).length,
      context: context?.value ?? null,
    };
  }
  return out;
}
