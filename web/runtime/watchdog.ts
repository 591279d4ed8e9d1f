/**
 * The watchdog's limits as the app ships them; createRuntime takes others (a test's setting).
 * `limitMs`: how long one node may run before the page asks whether the worker still answers;
 * `pingMs`: how long the page waits for that answer before it ends the worker.
 */
export const WATCHDOG_LIMITS = { limitMs: 1000, pingMs: 250 } as const;

/**
 * Watches the worker's steps and calls `onRunaway` with the step once one node has run for
 * `limitMs` and the worker then fails to answer `ping` within `pingMs`. JSONata's own guardrails
 * stop an expression after a second; what outlasts them is a single native call (a quadratic
 * `$distinct`), which blocks the worker's event loop, so the ping cannot be answered. A step that
 * is merely slow (waiting on IndexedDB) answers, and so does a worker whose "done" is only late
 * in reaching a busy page: neither is ended.
 */
export function startWatchdog<Busy>(options: {
  limitMs: number;
  pingMs: number;
  /** How often it looks; also how late it may notice. */
  tickMs: number;
  now: () => number;
  ping: () => Promise<unknown>;
  onRunaway: (busy: Busy) => void;
}) {
  let busy: { step: Busy; since: number } | undefined;
  let asking = false;

  const ask = (suspect: { step: Busy; since: number }) => {
    asking = true;
    let answered = false;
    options.ping().then(
      () => (answered = true),
      () => undefined,
    );
    setTimeout(() => {
      asking = false;
      if (busy !== suspect) return; // The step ended meanwhile.
      if (answered) {
        suspect.since = options.now(); // Alive, only slow: look again after another limit.
        return;
      }
      busy = undefined;
      options.onRunaway(suspect.step);
    }, options.pingMs);
  };

  const timer = setInterval(() => {
    if (busy && !asking && options.now() - busy.since >= options.limitMs) ask(busy);
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
