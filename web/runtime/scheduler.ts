import type { TimeSource } from './timeSource.ts';

/** How soon a run is tried again when something is still due after one (another tab holds it). */
export const RETRY_MS = 1000;

/**
 * The worker's schedule: wakes what is due at its due time, and runs what can run. It is armed
 * again after every change, this tab's or another's (`rearm`), so that a process started or
 * put to sleep here is woken on time as surely as one from another tab. Runs never overlap; a
 * change during a run makes one more run right after it. Due times are on the supervisor's
 * clock: on virtual time only what is already due runs (virtual time moves when advanced).
 */
export function startScheduler(options: {
  time: TimeSource;
  clock: { readonly mode: 'real' | 'virtual'; now(): number };
  nextDue: () => Promise<number | null>;
  /** Fires every timer due and runs every process that can run. */
  wakeDue: () => Promise<void>;
  onError: (e: unknown) => void;
}) {
  let cancel = () => {};
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  // Only the newest arming sets a timer: an older one still awaiting nextDue gives up.
  let armings = 0;

  const arm = async (afterRun: boolean) => {
    const mine = ++armings;
    cancel();
    cancel = () => {};
    let due: number | null;
    try {
      due = await options.nextDue();
    } catch (e) {
      // A schedule stopped meanwhile (its store closed under it) has nothing left to report.
      if (!stopped) options.onError(e);
      return;
    }
    if (stopped || mine !== armings || due === null) return;
    if (due <= options.clock.now()) {
      // Still due right after a run: another tab holds it. Look again soon, not in a spin.
      if (afterRun) cancel = options.time.at(options.time.now() + RETRY_MS, () => void runNow());
      else void runNow();
      return;
    }
    if (options.clock.mode === 'virtual') return;
    cancel = options.time.at(due, () => void runNow());
  };

  const runNow = (): Promise<void> => {
    if (stopped) return Promise.resolve();
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      try {
        await options.wakeDue();
      } catch (e) {
        if (!stopped) options.onError(e);
      }
      running = undefined;
      if (again) {
        again = false;
        void runNow();
      } else await arm(true);
    })();
    return running;
  };

  return {
    runNow,
    /** Something changed: the next due time may be another. */
    rearm(): void {
      if (stopped) return;
      if (running) again = true;
      else void arm(false);
    },
    /** Resolves when no run is in progress (tests, and a page that waits for quiet). */
    async settled(): Promise<void> {
      while (running) await running;
    },
    stop(): void {
      stopped = true;
      cancel();
    },
  };
}
