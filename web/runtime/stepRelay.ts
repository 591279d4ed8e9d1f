import type { RuntimeEvent } from './runtimeProtocol.ts';

type StepEvent = Extract<RuntimeEvent, { type: 'busy' | 'idle' }>;

/** The shortest time between two step events the relay passes on to the page. */
export const STEP_RELAY_GAP_MS = 50;

/**
 * Passes the runtime worker's step events (`busy` before every node, `idle` after a run) on to
 * the page's watchdog, at most one per `gapMs`: the first at once, then the newest at the end of
 * each gap. It runs in a worker of its own (stepRelayWorker.ts), so a node that blocks the
 * runtime's thread has already told it, and it still passes that on; the page hears a few
 * events a second however many steps a long advance takes, not thousands (each a task on its
 * main thread). The watchdog waits a second before it suspects a step, so a gap's delay does
 * not change what it finds.
 */
export function stepRelay(
  forward: (event: StepEvent) => void,
  gapMs = STEP_RELAY_GAP_MS,
  timers: Pick<typeof globalThis, 'setTimeout'> = globalThis,
) {
  let latest: StepEvent | undefined;
  let waiting = false;
  const flush = () => {
    if (latest === undefined) {
      waiting = false;
      return;
    }
    forward(latest);
    latest = undefined;
    timers.setTimeout(flush, gapMs);
  };
  return (event: StepEvent) => {
    latest = event;
    if (waiting) return;
    waiting = true;
    flush();
  };
}
