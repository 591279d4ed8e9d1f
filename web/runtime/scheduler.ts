/** Longest single wait: timers drift while a laptop sleeps, so the schedule is checked this often. */
const MAX_DELAY_MS = 60_000;

/**
 * Wakes due processes on the real clock: at the next due time, when the tab becomes visible again
 * (a hidden tab's timers are throttled, so it catches up then), and when asked. Runs never overlap.
 */
export function startScheduler(options: {
  nextDue: () => Promise<number | null>;
  wakeDue: () => Promise<void>;
  onError: (e: unknown) => void;
}) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;

  const reschedule = async () => {
    if (stopped) return;
    clearTimeout(timer);
    const due = await options.nextDue();
    if (due === null || stopped) return;
    const delay = Math.min(Math.max(due - Date.now(), 0), MAX_DELAY_MS);
    timer = setTimeout(() => void runNow(), delay);
  };

  const runNow = async (): Promise<void> => {
    if (running) return running;
    running = (async () => {
      try {
        await options.wakeDue();
      } catch (e) {
        options.onError(e);
      } finally {
        running = undefined;
        await reschedule();
      }
    })();
    return running;
  };

  const onVisible = () => {
    if (document.visibilityState === 'visible') void runNow();
  };
  document.addEventListener('visibilitychange', onVisible);

  return {
    runNow,
    reschedule: () => void reschedule(),
    stop() {
      stopped = true;
      clearTimeout(timer);
      document.removeEventListener('visibilitychange', onVisible);
    },
  };
}
