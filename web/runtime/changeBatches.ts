import type { Change } from './workbenchRuntime.ts';

/** Everything told since the last re-read, as one: what the page reads again for it. */
export interface ChangeBatch {
  /** Every process named, once each. */
  processes: ReadonlySet<string>;
  flows: boolean;
  /** Whether the inspected process (or a flow, which it may run on) is among them. */
  inspected: boolean;
}

/** When a batch is read: on the next frame, and how long after a re-read the next may start. */
export interface BatchTiming {
  frame(run: () => void): void;
  after(ms: number, run: () => void): void;
}

/** The shortest time between two re-reads. */
export const REFRESH_GAP_MS = 150;

/**
 * Gathers the worker's change events into batches: one re-read in flight at a time, on an
 * animation frame, and at most one more behind it holding every change told meanwhile. However
 * many processes a wake or a long run changes, the page re-reads a few times a second, once for
 * all of them.
 */
export function changeBatches(
  reread: (batch: ChangeBatch) => Promise<void>,
  inspected: () => string | undefined,
  timing: BatchTiming = {
    frame: (run) => requestAnimationFrame(run),
    after: (ms, run) => setTimeout(run, ms),
  },
): (change: Change) => void {
  let running = false;
  let again = false;
  let batch = { processes: new Set<string>(), flows: false, inspected: false };
  const start = () => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    timing.frame(() => {
      const taken = batch;
      batch = { processes: new Set(), flows: false, inspected: false };
      void reread(taken)
        .catch((e: unknown) => console.error(e))
        .finally(() =>
          timing.after(REFRESH_GAP_MS, () => {
            running = false;
            if (again) {
              again = false;
              start();
            }
          }),
        );
    });
  };
  return (change) => {
    const selected = inspected();
    if (change.flows || (selected !== undefined && change.processes.includes(selected)))
      batch.inspected = true;
    if (change.flows) batch.flows = true;
    for (const id of change.processes) batch.processes.add(id);
    start();
  };
}
