/**
 * Where the runtime's worker takes real time from, and how it waits for it. The worker owns
 * the clock: by default it reads its own `Date.now()` and sets its own timers. A test that
 * drives the page with Playwright's clock (which does not reach workers) opens the app with
 * `?pace=page`: the page then sends its time a few times a second, and the worker's time is
 * exactly the last time it was sent, so nothing moves unless the test moves the page's clock.
 */
export interface TimeSource {
  now(): number;
  /** Calls `fn` once, when `now()` has reached `time`; the returned function cancels it. */
  at(time: number, fn: () => void): () => void;
}

/** The longest single wait: timers drift while a laptop sleeps, so the time is looked at again. */
export const MAX_WAIT_MS = 60_000;

/** The worker's own time and timers. */
export function ownTime(now: () => number = () => Date.now()): TimeSource {
  return {
    now,
    at(time, fn) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const look = () => {
        const left = time - now();
        if (left <= 0) return fn();
        timer = setTimeout(look, Math.min(left, MAX_WAIT_MS));
      };
      look();
      return () => clearTimeout(timer);
    },
  };
}

/** Time as the page last sent it (`?pace=page`); timers fire on the tick that reaches them. */
export function pagePacedTime(start: number): TimeSource & { tick(pageNow: number): void } {
  let time = start;
  const waiting = new Set<{ time: number; fn: () => void }>();
  return {
    now: () => time,
    at(at, fn) {
      const wait = { time: at, fn };
      if (at <= time) {
        fn();
        return () => {};
      }
      waiting.add(wait);
      return () => waiting.delete(wait);
    },
    tick(pageNow) {
      time = pageNow;
      for (const wait of [...waiting]) {
        if (wait.time > time) continue;
        waiting.delete(wait);
        wait.fn();
      }
    },
  };
}

/** The page's setting for the worker's time, from the app's address (`?pace=page`). */
export type Pace = 'own' | 'page';

export function paceOf(search: string): Pace {
  return new URLSearchParams(search).get('pace') === 'page' ? 'page' : 'own';
}

/** How often a page that paces its worker sends its time. */
export const PAGE_TICK_MS = 100;
