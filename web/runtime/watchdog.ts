/** How long one node may run before the page ends the runtime's worker (see createRuntime.ts). */
export const RUNAWAY_MS = 1200;

/**
 * Watches the worker's steps and calls `onRunaway` with the busy step once one node has run for
 * `limitMs`. JSONata's own guardrails stop an expression after a second; what outlasts them is a
 * single native call (a quadratic `$distinct`) that nothing inside the worker can interrupt.
 */
export function startWatchdog<Busy>(options: {
  limitMs: number;
  /** How often it looks; also how late it may notice. */
  tickMs: number;
  now: () => number;
  onRunaway: (busy: Busy) => void;
}) {
  let busy: { step: Busy; since: number } | undefined;
  let lastTick = options.now();
  const timer = setInterval(() => {
    const now = options.now();
    // A page that was itself blocked cannot tell a slow step from its own delay in hearing that
    // the step ended: it counts afresh rather than end a worker that was never stuck.
    if (busy && now - lastTick > options.tickMs * 3) busy.since = now;
    lastTick = now;
    if (busy && now - busy.since >= options.limitMs) {
      const { step } = busy;
      busy = undefined;
      options.onRunaway(step);
    }
  }, options.tickMs);
  return {
    busy(step: Busy): void {
      busy = { step, since: options.now() };
    },
    idle(): void {
      busy = undefined;
    },
    stop(): void {
      clearInterval(timer);
    },
  };
}
